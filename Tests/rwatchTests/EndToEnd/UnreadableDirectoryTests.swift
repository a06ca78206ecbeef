import Glibc
import Testing
import TestSupport

/// A directory rwatch could not watch (`cannot watch …: Permission
/// denied`) is watched once its permissions let it in (issue 36): the
/// `chmod` is an attribute change its parent's watch hears.
///
/// rwatch runs as nobody (the tests run as root, which reads every
/// directory whatever its mode), on a tree root owns and changes.
@Suite struct UnreadableDirectoryTests {
    static let asNobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]

    /// The lines of `rwatch events` so far, without the watched directory's prefix.
    private func lines(_ rwatch: RWatch, under root: String) -> [String] {
        rwatch.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1].hasPrefix(root + "/") else { return String(line) }
            return parts[0] + " " + String(parts[1].dropFirst(root.count + 1))
        }
    }

    @Test(arguments: [[String](), ["--poll=50ms"]])
    func aDirectoryOpenedByChmodIsWatchedWithWhatItHolds(backend: [String]) {
        let scratch = Scratch()
        defer {
            chmod(scratch.file("watched/locked"), 0o755)
            scratch.remove()
        }
        chmod(scratch.path, 0o755)
        mkdir(scratch.file("watched"), 0o755)
        mkdir(scratch.file("watched/locked"), 0o755)
        scratch.write("watched/locked/old.txt", "there before")
        chmod(scratch.file("watched/locked"), 0o000)
        let root = scratch.file("watched")
        let rwatch = RWatch(["events", "watched"] + backend, in: scratch.path, wrapper: Self.asNobody, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(RunLog.writeUntil(scratch, "watched/ready") { rwatch.stdout.contains("ready") }, "\(rwatch.stderr)")
        // inotify says so; a poll pass tries again each time, silently.
        if backend.isEmpty { #expect(rwatch.stderr.contains("cannot watch \(root)/locked: Permission denied"), "\(rwatch.stderr)") }

        chmod(scratch.file("watched/locked"), 0o755)
        // What it held is new to the watch, as in a directory that appeared.
        #expect(eventually { lines(rwatch, under: root).contains("created locked/old.txt") },
                "\(lines(rwatch, under: root)) \(rwatch.stderr)")
        #expect(RunLog.writeUntil(scratch, "watched/locked/new.txt") {
            // A pass sees no close: the file is new, or written.
            lines(rwatch, under: root).contains { $0.hasSuffix(" locked/new.txt") }
        }, "\(lines(rwatch, under: root))")
    }
}
