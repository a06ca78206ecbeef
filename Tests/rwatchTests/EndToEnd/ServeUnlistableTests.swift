import Glibc
import Testing
import TestSupport

/// What `rwatch serve` says of directories it may not list (run as nobody:
/// the tests run as root, which lists every directory whatever its mode).
/// A subdirectory is a warning on every reply, what is below it counted
/// as deleted; a root is refused with the failed `opendir`.
@Suite struct ServeUnlistableTests {
    @Test func anUnlistableDirectoryIsAWarningAndAnUnlistableRootIsRefused() {
        let scratch = Scratch()
        defer {
            chmod(scratch.file("root/locked"), 0o755)
            scratch.remove()
        }
        chmod(scratch.path, 0o755)
        for name in ["state", "root", "root/locked", "locked-root"] { mkdir(scratch.file(name), 0o755) }
        chown(scratch.file("state"), 65534, 65534)
        scratch.write("root/seen.txt", "x")
        scratch.write("root/locked/hidden.txt", "x")
        chmod(scratch.file("root/locked"), 0o000)
        chmod(scratch.file("locked-root"), 0o000)
        let sock = scratch.file("state/sock")
        let server = RWatch(["serve", "--sockname", sock], in: scratch.path, wrapper: UnreadableDirectoryTests.asNobody, scratch: scratch)
        defer { server.interrupt() }
        #expect(eventually { access(sock, F_OK) == 0 }, "\(server.stderr)")
        let watchman = UnreadableDirectoryTests.asNobody + [RWatch.binDirectory + "/rwatch", "watchman", "-U", sock, "--no-spawn", "--no-pretty"]

        let root = scratch.file("root")
        #expect(Command.run(watchman + ["watch", root]).status == 0)
        let query = Command.run(watchman + ["query", root, "{\"fields\": [\"name\"]}"])
        #expect(query.output.contains("\"seen.txt\"") && !query.output.contains("hidden.txt"), "\(query.output)")
        #expect(query.output.contains("opendir(\(root)/locked) -> Permission denied. Marking this portion of the tree deleted"),
                "\(query.output)")

        let refused = Command.run(watchman + ["watch", scratch.file("locked-root")])
        #expect(refused.status == 1)
        #expect(refused.output.contains("opendir(\(scratch.file("locked-root"))) -> Permission denied"), "\(refused.output)")
    }
}
