import Glibc
import Testing
import RecipeKit
import TestSupport

/// The ad-hoc mode against real files and processes. Logs live outside the
/// watched directory so that the commands do not trigger themselves.
@Suite struct WatchTests {
    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func aBurstOfSavesGivesOneRun() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["-w", "watched", "-d", "1s", "--max-wait", "30s", "--", "sh", "-c", "printf '[%s]\\n' \"$RWATCH_PATHS\" | tr '\\n' ' ' >> runs; echo >> runs", ],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // The run at start proves the watch is in place.
        #expect(eventually { lines(scratch.read("runs")).count == 1 })
        for index in 0..<50 { scratch.write("watched/file\(index % 5)", "save \(index)\n") }
        #expect(eventually { lines(scratch.read("runs")).count == 2 })
        scratch.write("watched/sentinel", "end\n")
        // Complete lines only: a run appends its paths, then its newline.
        #expect(eventually { lines(scratch.read("runs")).contains { $0.contains("sentinel") } })
        let runs = lines(scratch.read("runs"))
        #expect(runs.count == 3, "\(runs)")
        #expect(runs.count == 3 && (0..<5).allSatisfy { runs[1].contains("file\($0)") })
    }

    @Test func postponeWaitsForTheFirstChange() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["-p", "-w", "watched", "-d", "0", "--", "sh", "-c", "printf '[%s]\\n' \"$RWATCH_PATHS\" >> runs"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // Save until a run comes (the watch may need a moment to be in place).
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/a", "\(attempt)") }
            return !scratch.read("runs").isEmpty
        })
        #expect(scratch.read("runs").hasPrefix("[" + scratch.file("watched/a")))
    }

    @Test func restartStopsTheOldGroupWithItsGrandchildrenBeforeTheNewRun() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let script = "sleep 300 & echo $! >> ../grandchildren; echo $$ >> ../children; wait"
        let rwatch = RWatch(["-r", "-d", "100ms", "--", "sh", "-c", script], in: scratch.file("watched"), scratch: scratch)
        #expect(eventually { lines(scratch.read("children")).count == 1 && lines(scratch.read("grandchildren")).count == 1 })
        scratch.write("watched/change", "x")
        #expect(eventually { lines(scratch.read("children")).count >= 2 })
        let oldChild = pid_t(lines(scratch.read("children"))[0]) ?? 0
        let oldGrandchild = pid_t(lines(scratch.read("grandchildren"))[0]) ?? 0
        // The new run started only after the old group had exited.
        #expect(oldChild > 0 && !isAlive(oldChild))
        #expect(oldGrandchild > 0 && !isAlive(oldGrandchild))
        #expect(rwatch.interrupt() == 130)
    }

    @Test func ctrlCStopsEveryChildAndExits130() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let script = "sleep 300 & echo $! > ../grandchild; echo $$ > ../child; wait"
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["--", "sh", "-c", script], in: scratch.file("watched"), scratch: scratch)
        #expect(eventually { !scratch.read("child").isEmpty && !scratch.read("grandchild").isEmpty })
        let child = pid_t(scratch.read("child").split(separator: "\n").first ?? "") ?? 0
        let grandchild = pid_t(scratch.read("grandchild").split(separator: "\n").first ?? "") ?? 0
        #expect(rwatch.interrupt() == 130)
        #expect(eventually { !isAlive(child) && !isAlive(grandchild) }, "child \(child) alive: \(isAlive(child)), grandchild \(grandchild) alive: \(isAlive(grandchild)); \(rwatch.stderr)")
    }

    @Test func ctrlCRemovesThePrivateEventsDirectory() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        mkdir(scratch.file("tmp"), 0o700)
        let rwatch = RWatch(["-w", "watched", "-d", "0", "--", "sh", "-c", "cat \"$RWATCH_EVENTS_FILE\" >> events"],
                            in: scratch.path, environment: ["TMPDIR": scratch.file("tmp")], scratch: scratch)
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/a", "\(attempt)") }
            return scratch.read("events").contains("watched/a")
        })
        #expect(rwatch.interrupt() == 130)
        #expect(entries(of: scratch.file("tmp")).isEmpty, "left behind: \(entries(of: scratch.file("tmp")))")
    }

    /// With no `TMPDIR`, a run's events file is made in the session's
    /// runtime directory (kept in memory), not on a disk's `/tmp`.
    @Test func theEventsFileIsInTheRuntimeDirectoryWhenNoTMPDIRIsSet() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("run"), 0o700)
        let (rwatch, written) = firstEventsFile(environment: ["XDG_RUNTIME_DIR": scratch.file("run")], unsetting: ["TMPDIR"], scratch)
        #expect(written.hasPrefix(scratch.file("run") + "/rwatch-"), "\(written)")
        #expect(rwatch.interrupt() == 130)
        #expect(entries(of: scratch.file("run")).isEmpty, "left behind: \(entries(of: scratch.file("run")))")
    }

    /// With neither `TMPDIR` nor `XDG_RUNTIME_DIR`, a run's events file is
    /// made in `/dev/shm` where that is the shared in-memory directory,
    /// else in `/tmp`, and its directory goes when rwatch stops.
    @Test func theEventsFileIsInMemoryWithoutARuntimeDirectory() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let (rwatch, written) = firstEventsFile(unsetting: ["TMPDIR", "XDG_RUNTIME_DIR"], scratch)
        let base = EventsDirectory.isSharedMemoryDirectory("/dev/shm") ? "/dev/shm" : "/tmp"
        #expect(written.hasPrefix(base + "/rwatch-"), "\(written)")
        #expect(rwatch.interrupt() == 130)
        let directory = String(written[..<(written.lastIndex(of: "/") ?? written.endIndex)])
        #expect(access(directory, F_OK) != 0, "left behind: \(directory)")
    }

    /// Runs `rwatch -d 0` on `watched` in `scratch`, its command noting
    /// `RWATCH_EVENTS_FILE`, saves until a run has noted it, and returns
    /// rwatch (still running) and the first events file's path.
    private func firstEventsFile(environment: [String: String] = [:], unsetting: [String], _ scratch: Scratch) -> (RWatch, String) {
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["-w", "watched", "-d", "0", "--", "sh", "-c", "printf '%s\\n' \"$RWATCH_EVENTS_FILE\" >> where"],
                            in: scratch.path, environment: environment, unsetting: unsetting, scratch: scratch)
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/a", "\(attempt)") }
            return !scratch.read("where").isEmpty
        })
        return (rwatch, scratch.read("where").split(separator: "\n").first.map(String.init) ?? "")
    }

    private func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A watched directory that goes away (make clean, a checkout without
    /// it) is waited for, as tail -F waits: its deletion runs the command,
    /// a line says so, and once it is back its changes run the command
    /// again. rwatch used to exit with status 2.
    @Test func aWatchedDirectoryThatGoesAwayIsWaitedFor() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["-p", "-d", "0", "-w", "watched", "--", "sh", "-c", "printf '%s\\n' \"$RWATCH_PATHS\" >> runs"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/ready", "\(attempt)") }
            return scratch.read("runs").contains("watched/ready")
        })
        TemporaryDirectory.removeTree(scratch.file("watched"))
        #expect(eventually { rwatch.stderr.contains("rwatch: watched is gone; waiting for it to come back") }, "\(rwatch.stderr)")
        #expect(eventually { scratch.read("runs").split(separator: "\n").contains { $0 == scratch.file("watched") } }, "\(scratch.read("runs"))")
        mkdir(scratch.file("watched"), 0o700)
        attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/back", "\(attempt)") }
            return scratch.read("runs").contains("watched/back")
        })
        #expect(rwatch.stderr.contains("rwatch: watched is back"))
        #expect(rwatch.exitStatus() == nil, "\(rwatch.stderr)")
    }

    /// The same for a watched file deleted and written again later than an
    /// editor's save would (a deploy tool, a generator).
    @Test func aWatchedFileThatGoesAwayIsWaitedFor() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("conf.yaml", "a: 1\n")
        let rwatch = RWatch(["-p", "-d", "0", "-w", "conf.yaml", "--", "sh", "-c", "cat conf.yaml >> runs 2>/dev/null; echo >> runs"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("conf.yaml", "a: \(attempt)\n") }
            return !scratch.read("runs").isEmpty
        })
        #expect(unlink(scratch.file("conf.yaml")) == 0)
        #expect(eventually { rwatch.stderr.contains("rwatch: conf.yaml is gone; waiting for it to come back") }, "\(rwatch.stderr)")
        scratch.write("conf.yaml", "b: 2\n")
        #expect(eventually { scratch.read("runs").contains("b: 2") }, "\(scratch.read("runs")) \(rwatch.stderr)")
        #expect(rwatch.exitStatus() == nil, "\(rwatch.stderr)")
    }

    @Test func extensionAndIgnoreFiltersDecideWhatTriggersARun() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        mkdir(scratch.file("watched/skip"), 0o700)
        let rwatch = RWatch(["-p", "-w", "watched", "-e", "txt", "-i", "**/skip/**", "-d", "200ms", "--",
                             "sh", "-c", "printf '%s\\n' \"$RWATCH_PATHS\" >> runs"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // Save until the watch is in place and a run comes.
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 {
                scratch.write("watched/code.swift", "\(attempt)")  // wrong extension
                scratch.write("watched/skip/note.txt", "\(attempt)")  // ignored directory
                scratch.write("watched/note.txt", "\(attempt)")
            }
            return !scratch.read("runs").isEmpty
        })
        let runs = scratch.read("runs")
        #expect(runs.contains(scratch.file("watched/note.txt")))
        #expect(!runs.contains("code.swift"), "\(runs)")
        #expect(!runs.contains("skip/"), "\(runs)")
    }

    @Test func hostileFileNamesReachTheCommandIntactAndExecuteNothing() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let names = ["with space", "new\nline", "quote\"s'", "$(touch pwned)", "`touch pwned`", "; touch pwned"]
        let rwatch = RWatch(["-w", "watched", "-d", "300ms", "--", "sh", "-c", "printf '%s' \"$RWATCH_PATHS\" > out.tmp; mv out.tmp out"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { access(scratch.file("out"), F_OK) == 0 })
        for name in names { scratch.write("watched/" + name, "x") }
        let expected = names.map { scratch.file("watched/" + $0) }
        #expect(eventually {
            let out = scratch.read("out")
            return expected.allSatisfy { out.contains($0) }
        })
        #expect(access(scratch.file("pwned"), F_OK) != 0)
        #expect(access(scratch.file("watched/pwned"), F_OK) != 0)
    }
}
