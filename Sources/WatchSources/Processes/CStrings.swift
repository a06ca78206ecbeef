#if canImport(Glibc)
import Glibc
#endif

/// Byte strings as the NULL-ended array of C strings that `posix_spawn`
/// and `execv` take for argv and envp: the one place that copies them.
package enum CStrings {
    /// Runs `body` with a copy of `strings` (each NUL-terminated, the array
    /// ended by NULL), freed when `body` returns. A string must not hold a
    /// NUL byte: a C string would end there.
    package static func with<Result>(_ strings: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) throws -> Result) rethrows -> Result {
        let copies = strings.map { bytes in
            (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } }
        }
        defer { copies.forEach { free($0) } }
        return try body(copies + [nil])
    }
}
