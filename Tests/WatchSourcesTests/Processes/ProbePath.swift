#if canImport(Glibc)
import Glibc
#endif

/// Helpers built beside the test bundle.
enum ProbePath {
    /// Sources/ProcessProbe: runs `ProcessSupervisor` or a watch in a
    /// process of its own.
    static var processProbe: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let directory = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory + "/ProcessProbe"
    }
}
