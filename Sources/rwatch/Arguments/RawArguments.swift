import Glibc
import RecipeKit

/// The command line as the bytes that were typed. `CommandLine.arguments`,
/// and so the parser, decodes every argument as UTF-8 and replaces what is
/// not UTF-8 with U+FFFD; a path or a command word given on the command
/// line must still reach the file system and the child exactly.
enum RawArguments {
    /// Every argument as bytes, `argv[0]` first.
    static let all: [[UInt8]] = (0..<Int(CommandLine.argc)).map { index in
        guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// The bytes behind `values`, the decoded values of one option or one
    /// positional argument, in the order given. A value that decoded
    /// cleanly is its own UTF-8; one holding U+FFFD is matched, in order,
    /// with the argument (or the value of a `--name=value`) it came from.
    static func bytes(of values: [String]) -> [[UInt8]] {
        var next = 1
        return values.map { value in
            guard value.unicodeScalars.contains("\u{FFFD}") else { return Array(value.utf8) }
            for index in next..<max(next, all.count) {
                if let raw = match(all[index], value) {
                    next = index + 1
                    return raw
                }
            }
            return Array(value.utf8)
        }
    }

    /// `bytes(of:)` as paths.
    static func paths(_ values: [String]) -> [FilePath] {
        bytes(of: values).map { FilePath(bytes: $0) }
    }

    /// The words of the command that ends the command line (`rwatch …
    /// COMMAND…`): the last `words.count` arguments, when they decode to
    /// `words`.
    static func trailing(_ words: [String]) -> [CommandWord] {
        let raw = all.suffix(words.count)
        guard raw.count == words.count, zip(raw, words).allSatisfy({ String(decoding: $0, as: UTF8.self) == $1 }) else {
            return words.map { CommandWord($0) }
        }
        return raw.map { CommandWord(bytes: $0) }
    }

    /// `raw`, or the value part of `--name=value`, when it decodes to `value`.
    private static func match(_ raw: [UInt8], _ value: String) -> [UInt8]? {
        if String(decoding: raw, as: UTF8.self) == value { return raw }
        if raw.first == UInt8(ascii: "-"), let equals = raw.firstIndex(of: UInt8(ascii: "=")),
           String(decoding: raw[(equals + 1)...], as: UTF8.self) == value {
            return Array(raw[(equals + 1)...])
        }
        return nil
    }
}
