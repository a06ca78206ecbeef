import Glibc
import Testing
import TestSupport

/// Where inotify cannot see or runs out, through the real binary: a FUSE
/// mount, the watch and instance limits, inotify descriptors above 1023.
@Suite struct BackendTests {
    /// Writes a new file in each of `directories` (named `new-ROUND`), a
    /// round at most every 300 ms, until `rwatch events` has reported one
    /// in each: a write made while rwatch was still arming may be taken as
    /// the starting point, a later one not. (Writing at every look would
    /// pile thousands of files into the tree the poller lists.)
    private func writeUntilReported(_ process: RWatch, in directories: [String], reportedAs reported: (String) -> String) -> Bool {
        var round = 0
        var pending = directories
        var lastRound = ContinuousClock.now - .seconds(1)
        return eventually {
            let output = process.stdout
            pending.removeAll { output.contains(reported($0) + "/new-") }
            guard !pending.isEmpty else { return true }
            if ContinuousClock.now - lastRound >= .milliseconds(300) {
                round += 1
                lastRound = ContinuousClock.now
                for directory in pending {
                    let fd = open(directory + "/new-\(round)", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                    if fd >= 0 { close(fd) }
                }
            }
            return false
        }
    }

    @Test func eventsOnAFuseMountPollsItAndSaysSo() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("source"), 0o755)
        mkdir(scratch.file("view"), 0o755)
        let mount = try BindMount(source: scratch.file("source"), view: scratch.file("view"))
        defer { mount.unmount() }
        let process = RWatch(["events", "view"], in: scratch.path, scratch: scratch)
        defer { process.interrupt() }
        #expect(writeUntilReported(process, in: [scratch.file("source")]) { _ in "created " + scratch.file("view") })
        #expect(process.stderr.contains("rwatch: polling \(scratch.file("view")) (fuse) every 500ms"))
    }

    /// `fs.inotify.max_user_watches` and `/proc/sys/user/max_inotify_watches`
    /// are one limit: the kernel counts a user's inotify watches per user
    /// namespace (ucounts) and checks the count against the limit of every
    /// namespace from the watcher's up to the initial one, whose limit is
    /// the sysctl. Lowering it in a namespace of its own (`unshare -U -r`,
    /// where root may write it) makes `inotify_add_watch` fail with ENOSPC
    /// exactly as a low sysctl would, for this one rwatch and nothing else
    /// on the machine.
    @Test func beyondTheWatchLimitEveryDirectoryIsPolledWithOneWarning() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let directories = (0..<20).map { scratch.file("tree/d\($0)") }
        mkdir(scratch.file("tree"), 0o755)
        for directory in directories { mkdir(directory, 0o755) }
        let wrapper = ["unshare", "-U", "-r", "/bin/sh", "-c", "echo 5 > /proc/sys/user/max_inotify_watches && exec \"$@\"", "limited"]
        let process = RWatch(["events", "tree"], in: scratch.path, wrapper: wrapper, scratch: scratch)
        defer { process.interrupt() }
        #expect(writeUntilReported(process, in: directories) { "created " + $0 })
        let warnings = process.stderr.split(separator: "\n").filter { $0.contains("watch limit") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("fs.inotify.max_user_watches = 5") == true)
        #expect(warnings.first?.contains("sudo sysctl fs.inotify.max_user_watches=") == true)
        #expect(process.exitStatus() == nil)
    }

    /// The same for instances: none may be made, so rwatch polls, and
    /// says so once, without a second, lower-level complaint.
    @Test func withNoInotifyInstanceLeftEverythingIsPolledWithOneWarning() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("tree"), 0o755)
        mkdir(scratch.file("tree/sub"), 0o755)
        let wrapper = ["unshare", "-U", "-r", "/bin/sh", "-c", "echo 0 > /proc/sys/user/max_inotify_instances && exec \"$@\"", "limited"]
        let process = RWatch(["events", "tree"], in: scratch.path, wrapper: wrapper, scratch: scratch)
        defer { process.interrupt() }
        let tree = [scratch.file("tree"), scratch.file("tree/sub")]
        #expect(writeUntilReported(process, in: tree) { "created " + $0 })
        let warnings = process.stderr.split(separator: "\n").filter { $0.contains("instance limit") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("sudo sysctl fs.inotify.max_user_instances=") == true)
        #expect(!process.stderr.contains("inotifytools_initialize"))
        #expect(process.exitStatus() == nil)
    }

    /// Polled because no inotify instance is left, a watched directory
    /// still applies the repository's `.gitignore` above it.
    @Test func withNoInotifyInstanceLeftTheRulesAboveTheTreeApply() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("repo"), 0o755)
        mkdir(scratch.file("repo/src"), 0o755)
        #expect(Command.run(["git", "init", "-q", scratch.file("repo")]).status == 0)
        scratch.write("repo/.gitignore", "*.gen\n")
        let wrapper = ["unshare", "-U", "-r", "/bin/sh", "-c", "echo 0 > /proc/sys/user/max_inotify_instances && exec \"$@\"", "limited"]
        let process = RWatch(["events", "repo/src"], in: scratch.path, wrapper: wrapper, scratch: scratch)
        defer { process.interrupt() }
        let src = scratch.file("repo/src")
        #expect(writeUntilReported(process, in: [src]) { "created " + $0 })
        scratch.write("repo/src/made.gen", "")
        scratch.write("repo/src/made.c", "")
        #expect(eventually { process.stdout.contains("created " + src + "/made.c") })
        #expect(!process.stdout.contains("made.gen"), "\(process.stdout)")
        #expect(process.stderr.contains("instance limit"))
    }

    /// A reader waiting in `select(2)` (as libinotifytools does) aborts the
    /// process ("bit out of range 0 - FD_SETSIZE") once its fd is 1024 or
    /// more. rwatch reads the fd with `poll(2)`.
    @Test func inotifyWorksWithItsDescriptorAbove1023() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("tree"), 0o755)
        let script = "ulimit -n 4096 && for fd in $(seq 3 1100); do eval \"exec $fd</dev/null\"; done; exec \"$@\""
        let process = RWatch(["events", "tree"], in: scratch.path, wrapper: ["bash", "-c", script, "many-fds"], scratch: scratch)
        defer { process.interrupt() }
        #expect(writeUntilReported(process, in: [scratch.file("tree")]) { "created " + $0 })
        #expect(process.exitStatus() == nil)
        #expect(!process.stderr.contains("FD_SETSIZE"))
    }
}
