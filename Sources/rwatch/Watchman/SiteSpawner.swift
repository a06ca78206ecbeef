import Glibc
import SystemPackage
import WatchSources

/// A site's own way of starting the service (`spawn_watchman_service` in
/// the global configuration), and what the `watchman` command says when a
/// start fails.
extension ServiceStart {
    /// Runs `program` with the service's options (`watchmanArguments`) and
    /// waits for it: it starts the service its own way and exits 0. Its
    /// output goes to this command's stderr, where a user sees why a start
    /// failed; a non-zero exit is that failure.
    func runSiteSpawner(_ program: [UInt8]) throws(WatchmanFailure) {
        var options = ProcessOptions(captureOutput: false)
        options.descriptors = [1: STDERR_FILENO]
        let pid: pid_t
        do {
            pid = try ProcessLauncher.start([CommandWord(bytes: program)] + watchmanArguments.map(CommandWord.init(bytes:)), options: options)
        } catch {
            throw .cannotStart("\(error)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw .cannotStart("\(Quoted.escaped(bytes: program)): \(Self.ending(status))") }
    }

    /// How a child ended, from its wait status: "exited with status N" or
    /// "was killed by signal N".
    static func ending(_ status: Int32) -> String {
        let signal = status & 0x7f
        return signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(signal)"
    }

    /// The log's last line: why a service that exited at once did (it
    /// writes its one-line error there), or where to look. Control
    /// characters are shown escaped: the log may quote a file name.
    func lastLogLine() -> String {
        let fd = logfile.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return "see \(Quoted.escaped(logfile))" }
        defer { close(fd) }
        let end = lseek(fd, 0, SEEK_END)
        var tail = [UInt8](repeating: 0, count: 4096)
        let count = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, max(0, end - 4096)) }
        let lines = tail.prefix(max(0, count)).split(separator: UInt8(ascii: "\n")).filter { !$0.allSatisfy { $0 == 32 } }
        guard let last = lines.last else { return "see \(Quoted.escaped(logfile))" }
        let line = String(decoding: last, as: UTF8.self)
        let ownPrefix = "rwatch: error: "  // the service's own error line, already said to be one
        return Quoted.line(line.hasPrefix(ownPrefix) ? String(line.dropFirst(ownPrefix.count)) : line)
    }
}
