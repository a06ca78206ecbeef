import Glibc
import TestSupport

/// An `rwatch serve` on a socket in a scratch directory, and a root beside
/// it holding `files` (named by its real path, as the service names it):
/// what the pywatchman subscription and trigger tests start from.
final class ServedRoot {
    let scratch = Scratch()
    let sock: String
    let root: String
    let server: RWatch

    init(_ extra: [String] = [], files: [String] = []) {
        sock = scratch.file("sock")
        server = RWatch(["serve", "--sockname", sock] + extra, in: scratch.path, scratch: scratch)
        let made = scratch.file("root")
        mkdir(made, 0o755)
        for name in files { TemporaryDirectory.write(bytes: Array((made + "/" + name).utf8), "") }
        root = realpath(made, nil).map { path in
            defer { free(path) }
            return String(cString: path)
        } ?? made
        _ = eventually { WatchmanSocket(sock) != nil }
    }

    /// Runs `script` with pywatchman, `WATCHMAN_SOCK` pointing here.
    func python(_ script: String, _ arguments: [String]) -> Command.Result {
        Command.run([ServeClientTests.python, "-c", script] + arguments, environment: ["WATCHMAN_SOCK": sock])
    }

    /// Stops the service (its status: 0 when it stopped cleanly) and removes the scratch directory.
    func stop() -> Int32? {
        defer { scratch.remove() }
        return server.interrupt()
    }
}
