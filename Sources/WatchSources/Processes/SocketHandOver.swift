#if canImport(Glibc)
import Glibc
#endif

/// The descriptors and variables of systemd's socket activation, laid
/// over a spawn's options (`ProcessOptions.listenSockets`): the sockets
/// as descriptors 3, 4, … and `LISTEN_FDS`, `LISTEN_FDNAMES`. The third
/// variable, `LISTEN_PID`, is the command's own pid, which only the exec
/// shim can know (`ExecShim`).
enum SocketHandOver {
    /// The first descriptor number, `SD_LISTEN_FDS_START`.
    static let firstDescriptor: Int32 = 3

    /// `options` with the sockets laid over its descriptors and
    /// environment; a `ProcessError` when `descriptors` takes one of their
    /// numbers.
    static func lay(_ options: ProcessOptions, command: String) throws(ProcessError) -> ProcessOptions {
        guard !options.listenSockets.isEmpty else { return options }
        var laid = options
        for (index, socket) in options.listenSockets.enumerated() {
            let number = firstDescriptor + Int32(index)
            guard laid.descriptors[number] == nil else {
                throw ProcessError(command: command, reason: .spawnFailed(EBUSY), detail: "descriptor \(number) is handed over twice (a listening socket and a descriptor)")
            }
            laid.descriptors[number] = socket.fd
        }
        laid.environment["LISTEN_FDS"] = String(options.listenSockets.count)
        laid.environment["LISTEN_FDNAMES"] = options.listenSockets.map(\.name).joined(separator: ":")
        // Set by the shim, to the child's pid; an inherited one must not pass.
        laid.environment["LISTEN_PID"] = nil
        return laid
    }
}
