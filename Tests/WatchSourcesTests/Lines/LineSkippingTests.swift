@testable import WatchSources
import Testing

/// `LineSplitter.append(_:keeping:_:)` skips lines by searching a pattern's
/// literals across whole chunks. Whatever the chunks, it must keep exactly
/// the lines that splitting first and matching each line keeps.
@Suite struct LineSkippingTests {
    /// A small seeded generator, so that a failure can be replayed.
    struct XorShift: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    private func lines(_ text: [UInt8], chunks: [Int], pattern: LinePattern?, skipping: Bool) -> [String] {
        var splitter = LineSplitter(maximumLineLength: 64)
        var kept: [String] = []
        LinePattern.withMatcher(pattern) { matcher in
            var offset = 0
            for size in chunks + [text.count] where offset < text.count {
                let end = min(text.count, offset + size)
                text[offset..<end].withUnsafeBytes { chunk in
                    if skipping {
                        splitter.append(chunk, keeping: matcher) { kept.append(LineSplitter.decode($0)) }
                    } else {
                        splitter.append(chunk) { line in
                            if matcher?.matches(line) ?? true { kept.append(LineSplitter.decode(line)) }
                        }
                    }
                }
                offset = end
            }
            splitter.finish { line in
                if matcher?.matches(line) ?? true { kept.append(LineSplitter.decode(line)) }
            }
        }
        return kept
    }

    @Test(arguments: [
        ("error", false), ("error", true), ("error|warn", true), ("status=5[0-9]{2}", false),
        ("^warn", false), ("rror$", true), ("x\ny", false), ("error|[0-9]+", false),
    ])
    func skippingKeepsTheSameLinesForAnyChunking(pattern: String, ignoringCase: Bool) throws {
        let compiled = try LinePattern(pattern, ignoringCase: ignoringCase)
        let words = ["error", "ERROR", "warn", "Warning", "status=503", "status=200", "ok", "", "\r", "err", "or",
                     String(repeating: "long ", count: 20), "x", "y"]
        var random = XorShift(state: 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<300 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    text += Array(words.randomElement(using: &random)!.utf8) + [0x20]
                }
                text += Array((Bool.random(using: &random) ? "\r\n" : "\n").utf8)
            }
            if Bool.random(using: &random) { text += Array("tail error".utf8) }  // no final newline
            let chunks = (0..<8).map { _ in Int.random(in: 1...40, using: &random) }
            let expected = lines(text, chunks: chunks, pattern: compiled, skipping: false)
            let skipped = lines(text, chunks: chunks, pattern: compiled, skipping: true)
            #expect(skipped == expected, "\(String(decoding: text, as: UTF8.self).debugDescription) in \(chunks)")
        }
    }
}
