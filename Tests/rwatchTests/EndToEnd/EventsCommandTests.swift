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
        var attempt = 0
        _ = eventually {
            attempt += 1
            if attempt % 100 == 1 { scratch.write("watched/ready", "\(attempt)") }
            return rwatch.stdout.contains("ready")
        }
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
}
