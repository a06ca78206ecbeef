#if canImport(Glibc)
import Glibc
#endif

/// Where following begins in a file that is open already: the byte offset
/// of its `Tail.Start`, found by reading back from the end for the last N
/// lines, or forward from the beginning for line N.
enum StartOffset {
    static let chunk = 64 * 1024

    /// The offset in the open `fd`, `size` bytes long, where `start` begins;
    /// `pattern` is the follower's, for `.lastMatching`. A file that cannot
    /// be read at an offset (a FIFO) starts where it is.
    static func offset(of start: Tail.Start, in fd: Int32, size: Int, pattern: LinePattern? = nil) -> Int {
        switch start {
        case .start: return 0
        case .end: return size
        case .lastLines(let count): return count <= 0 ? size : lastMatching(count, nil, in: fd, size: size)
        case .line(let number): return number <= 1 ? 0 : line(number, in: fd, size: size)
        case .lastMatching(let count):
            guard count > 0 else { return size }
            guard let pattern else { return lastMatching(count, nil, in: fd, size: size) }
            return pattern.withMatcher { lastMatching(count, $0, in: fd, size: size) }
        }
    }

    /// The start of the last `count` lines that `matcher` keeps (every line
    /// when nil; 0 when fewer match): lines are tried from the end back,
    /// each without its `\n` or `\r\n`, as the follower tries them; the
    /// newline that ends the file ends its last line.
    private static func lastMatching(_ count: Int, _ matcher: LineMatcher?, in fd: Int32, size: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: chunk)
        var lineEnd = size
        if size > 0, read(fd, at: size - 1, into: &buffer, count: 1) == 1, buffer[0] == 0x0A { lineEnd = size - 1 }
        var end = lineEnd
        var found = 0
        while end > 0 {
            let begin = max(0, end - chunk)
            let length = read(fd, at: begin, into: &buffer, count: end - begin)
            guard length == end - begin else { return size }
            for position in stride(from: length - 1, through: 0, by: -1) where buffer[position] == 0x0A {
                let lineStart = begin + position + 1
                if matcher.map({ matches($0, lineStart..<lineEnd, fd, buffer, bufferEnd: end, bufferStart: begin) }) ?? true {
                    found += 1
                    if found == count { return lineStart }
                }
                lineEnd = begin + position
            }
            end = begin
        }
        return 0
    }

    /// Whether the line at `range` matches: taken from `buffer` (the bytes
    /// from `bufferStart` to `bufferEnd`) when it lies there, else read.
    private static func matches(_ matcher: LineMatcher, _ range: Range<Int>, _ fd: Int32, _ buffer: [UInt8],
                                bufferEnd: Int, bufferStart: Int) -> Bool {
        var bytes: ArraySlice<UInt8>
        if range.upperBound <= bufferEnd {
            bytes = buffer[(range.lowerBound - bufferStart)..<(range.upperBound - bufferStart)]
        } else {
            var line = [UInt8](repeating: 0, count: range.count)
            guard read(fd, at: range.lowerBound, into: &line, count: range.count) == range.count else { return false }
            bytes = line[...]
        }
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        return bytes.withUnsafeBytes { matcher.matches($0) }
    }

    /// The start of line `number` (1-based); the end when the file is shorter.
    private static func line(_ number: Int, in fd: Int32, size: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: chunk)
        var begin = 0
        var found = 0
        while begin < size {
            let length = read(fd, at: begin, into: &buffer, count: min(chunk, size - begin))
            guard length > 0 else { return size }
            for position in 0..<length where buffer[position] == 0x0A {
                found += 1
                if found == number - 1 { return begin + position + 1 }
            }
            begin += length
        }
        return size
    }

    /// `pread` retried on EINTR: the bytes read, or -1.
    private static func read(_ fd: Int32, at offset: Int, into buffer: inout [UInt8], count: Int) -> Int {
        buffer.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < count {
                let got = pread(fd, bytes.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return got < 0 && done == 0 ? -1 : done }
                done += got
            }
            return done
        }
    }
}
