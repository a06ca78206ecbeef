import Glibc

/// How many bytes the words of one command may take before `execve`
/// refuses them (E2BIG), as `xargs` counts: the kernel's limit for
/// arguments and environment together (a quarter of the stack limit, at
/// least 128 KiB and at most 6 MiB), less the environment a run gets,
/// less 2 KiB of headroom. Each word costs its bytes, its NUL and its
/// pointer.
enum ArgumentLimit {
    /// The headroom `xargs` keeps too.
    static let headroom = 2048

    /// The bytes one run's words may take now: the kernel's limit less
    /// rwatch's environment, the largest `RWATCH_PATHS` (64 KiB) and room
    /// for the other variables a run gets.
    static func budget(extraEnvironment: Int = 4096) -> Int {
        // glibc says a quarter of the stack limit; the kernel caps that at
        // three quarters of its default 8 MiB stack.
        let limit = sysconf(Int32(_SC_ARG_MAX))
        let kernel = min(limit > 0 ? limit : 128 * 1024, 6 * 1024 * 1024)
        var environment = 0
        var index = 0
        while let entry = environ[index] {
            environment += strlen(entry) + 1 + MemoryLayout<UnsafePointer<CChar>>.size
            index += 1
        }
        let available = kernel - environment - RunEnvironment.pathsLimit - extraEnvironment - headroom
        // A budget so small that a path or two fills it would still run
        // one path at a time: never below 4 KiB.
        return max(available, 4096)
    }

    /// What `words` cost in the argument area.
    static func cost(of words: [[UInt8]]) -> Int {
        words.reduce(0) { $0 + $1.count + 1 + MemoryLayout<UnsafePointer<CChar>>.size }
    }
}
