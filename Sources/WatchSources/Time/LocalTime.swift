#if canImport(Glibc)
import Glibc
#endif

/// The current local time as log lines stamp it.
package enum LocalTime {
    /// Now in `format` (strftime's), then `separator` and milliseconds:
    /// `2026-11-26 14:03:05.123` for `("%Y-%m-%d %H:%M:%S", ".")`.
    package static func stamp(_ format: String, millisecondsAfter separator: String) -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, format, &parts)
        let date = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let milliseconds = Int(now.tv_nsec / 1_000_000)
        return date + separator + String(1000 + milliseconds).dropFirst()
    }
}
