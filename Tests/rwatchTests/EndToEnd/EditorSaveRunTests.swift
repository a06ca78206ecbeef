import Glibc
import Testing
import TestSupport

/// One run per save, whatever the editor and the debounce: each editor's
/// exact system calls on a real file, real inotify, the real binary.
@Suite struct EditorSaveRunTests {
    private func runs(_ scratch: Scratch) -> [[String]] { RunLog.runs(scratch) }

    private func runs(_ scratch: Scratch, with path: String) -> Int { RunLog.runs(scratch, with: path) }

    @Test(arguments: EditorSave.allCases, ["0", "50ms"])
    func eachSaveIsOneRun(_ editor: EditorSave, _ debounce: String) {
        let scratch = QuickSave.attempts(discarding: { $0.remove() }) { saves(editor, debounce) }
        defer { scratch.remove() }
        let file = scratch.file("watched/app.c")
        let clock = scratch.file("watched/zz-clock")
        let all = runs(scratch)
        #expect(runs(scratch, with: file) == 3, "\(editor) at -d \(debounce): \(all)")
        let expected = Set([file, clock] + ["zz-ready", "zz-after-0", "zz-after-1", "zz-after-2"].map { scratch.file("watched/" + $0) })
        let strays = Set(all.flatMap { $0 }).subtracting(expected)
        #expect(strays.isEmpty, "\(editor): \(strays)")
    }

    /// Saves `watched/app.c` three times as `editor` does, under `rwatch
    /// -d debounce`; returns whether the saves were quick, and the scratch
    /// directory with the runs in it.
    private func saves(_ editor: EditorSave, _ debounce: String) -> (quick: Bool, outcome: Scratch) {
        let scratch = Scratch()
        mkdir(scratch.file("watched"), 0o700)
        let file = scratch.file("watched/app.c")
        let clock = scratch.file("watched/zz-clock")
        scratch.write("watched/app.c", "int x;\n")
        scratch.write("watched/zz-clock", "")
        let rwatch = RWatch(["-p", "-q", "-d", debounce, "-w", "watched", "--"] + RunLog.command, in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // Saves a marker until a run reports it: the watch is in place, and
        // every run before it has started.
        func mark(_ name: String) -> Bool { RunLog.mark(scratch, name) }
        #expect(mark("zz-ready"))
        var quick = true
        for save in 0..<3 {
            quick = editor.save(file, "int x = \(save);\n", first: save == 0) && quick
            #expect(eventually { runs(scratch, with: file) >= save + 1 })
            #expect(mark("zz-after-\(save)"))
        }
        // A file renamed to a backup name is held for the coalescer's window,
        // then reported: once its run came, so has anything held before it.
        scratch.write("watched/zz-clock", "tick")
        rename(clock, clock + "~")
        #expect(eventually { runs(scratch, with: clock) > 0 })
        return (quick, scratch)
    }

    /// A writer that keeps the file open past the half-second cap, then
    /// closes it with nothing written since (an upload's last flush, an
    /// fsync under load): one run, released at the cap; the close makes no
    /// second one.
    @Test func aWriterSlowToCloseIsOneRun() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let file = scratch.file("watched/upload.bin")
        let rwatch = RWatch(["-p", "-q", "-d", "0", "-w", "watched", "--"] + RunLog.command, in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(RunLog.mark(scratch, "zz-ready"))
        let fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        #expect(write(fd, "part", 4) == 4)
        // Released at the cap while still open.
        #expect(eventually { runs(scratch, with: file) == 1 })
        close(fd)
        // A later change's run: the close, read before it, had its chance.
        #expect(RunLog.mark(scratch, "zz-later"))
        #expect(runs(scratch, with: file) == 1, "\(runs(scratch))")
    }
}
