import Glibc
import Testing
import TestSupport

/// `rwatch events`, read as a script reads it: every line it promises, in
/// the order things happened.
@Suite struct EventsCommandTests {
    /// The lines of `rwatch events` so far, without the watched directory's prefix.
    private func lines(_ rwatch: RWatch, under root: String) -> [String] {
        rwatch.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1].hasPrefix(root + "/") else { return String(line) }
            return parts[0] + " " + String(parts[1].dropFirst(root.count + 1))
        }
    }

    /// Starts `rwatch events ARGUMENTS watched` and returns once it reports.
    private func start(_ scratch: Scratch, _ arguments: [String] = []) -> RWatch {
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["events"] + arguments + ["watched"], in: scratch.path, scratch: scratch)
        _ = RunLog.writeUntil(scratch, "watched/ready") { rwatch.stdout.contains("ready") }
        return rwatch
    }

    /// The classic `inotifywait -e close_write` job: know when an upload
    /// is complete. A writer that keeps the file open past the half-second
    /// cap gets its `modified` then; its close must still come.
    @Test func aWriterSlowToCloseStillGetsItsClosedWrite() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = start(scratch)
        defer { rwatch.interrupt() }
        let root = scratch.file("watched")
        let fd = open(scratch.file("watched/upload.bin"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        #expect(write(fd, "part", 4) == 4)
        #expect(eventually { lines(rwatch, under: root).contains("modified upload.bin") })
        close(fd)
        #expect(eventually { lines(rwatch, under: root).contains("closedWrite upload.bin") }, "\(lines(rwatch, under: root))")
    }

    /// Names made whole at once (a symbolic link, a FIFO, a hard link) come
    /// as they happen: before a file written after them, not half a second
    /// later as if a write might follow.
    @Test func namesMadeWholeAtOnceComeInOrder() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = start(scratch)
        defer { rwatch.interrupt() }
        let root = scratch.file("watched")
        #expect(symlink("/nonexistent", scratch.file("watched/link")) == 0)
        #expect(mkfifo(scratch.file("watched/fifo"), 0o600) == 0)
        #expect(link(scratch.file("watched/ready"), scratch.file("watched/hard")) == 0)
        scratch.write("watched/after", "x")
        #expect(eventually { lines(rwatch, under: root).contains("closedWrite after") })
        let seen = lines(rwatch, under: root)
        let after = seen.firstIndex { $0.hasSuffix(" after") } ?? -1
        for name in ["link", "fifo", "hard"] {
            let index = seen.firstIndex(of: "created " + name)
            #expect(index != nil && index! < after, "\(name): \(seen)")
        }
    }

    /// What happens in a directory that then moves away and is deleted is
    /// reported in that order: nothing comes later under the old path.
    @Test func aDirectoryMovedAwayReportsWhatHappenedInItFirst() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = start(scratch)
        defer { rwatch.interrupt() }
        let root = scratch.file("watched")
        #expect(mkdir(scratch.file("watched/d"), 0o700) == 0)
        #expect(eventually { lines(rwatch, under: root).contains("created d") })
        // Open and kept open: held until its close, or the cap.
        let fd = open(scratch.file("watched/d/open"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        #expect(rename(scratch.file("watched/d"), scratch.file("watched/e")) == 0)
        close(fd)
        #expect(unlink(scratch.file("watched/e/open")) == 0)
        #expect(rmdir(scratch.file("watched/e")) == 0)
        #expect(eventually { lines(rwatch, under: root).contains("deleted e") })
        let seen = lines(rwatch, under: root)
        let created = seen.firstIndex(of: "created d/open")
        let moved = seen.firstIndex(of: "movedFrom d")
        #expect(created != nil && moved != nil && created! < moved!, "\(seen)")
        #expect(seen.last == "deleted e", "\(seen)")
    }

    /// A directory that exists but refuses a watch (here, one whose path is
    /// longer than PATH_MAX) gets one warning line: nothing below it can
    /// be seen, and the user should know.
    @Test func aDirectoryThatCannotBeWatchedIsNamedOnce() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = start(scratch)
        defer { rwatch.interrupt() }
        // 18 levels of 250-byte names: past PATH_MAX (4096) from the root
        // on, made relative to descriptors (no chdir in a test process).
        let name = String(repeating: "d", count: 250)
        var fd = open(scratch.file("watched"), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(fd >= 0)
        for _ in 0..<18 {
            #expect(mkdirat(fd, name, 0o700) == 0)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            close(fd)
            fd = next
        }
        close(fd)
        #expect(eventually { rwatch.stderr.contains("changes below it are not seen") }, "\(rwatch.stderr)")
        #expect(rwatch.stderr.split(separator: "\n").filter { $0.contains("cannot watch") }.count == 1, "\(rwatch.stderr)")
    }
}
