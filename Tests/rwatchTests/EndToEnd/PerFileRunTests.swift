import Glibc
import Testing
import TestSupport

/// `{}` and `{+}` end to end: one run per changed path (or every path as
/// words), `-j`, the busy policy over the whole set, `--once`, and names
/// that try to break the command line, with real processes.
@Suite struct PerFileRunTests {
    /// Moves a new directory holding `names` into `watched` as `name`: its
    /// files arrive as one batch (the reader reports what a directory
    /// moved in holds together with it).
    private func moveIn(_ names: [[UInt8]], as name: String, into watched: String, scratch: Scratch) {
        let stage = scratch.file("stage-\(name)")
        mkdir(stage, 0o755)
        for file in names { Scratch.write(bytes: Array((stage + "/").utf8) + file, "x\n") }
        #expect(rename(stage, watched + "/" + name) == 0)
    }

    /// The words the command wrote, NUL-terminated, into `file`.
    private func words(in file: String) -> [[UInt8]] {
        Scratch.readBytes(file).split(separator: 0, omittingEmptySubsequences: false).dropLast().map(Array.init)
    }

    /// Writes `probe` in `watched` until the command recorded a run in `file`.
    private func arm(_ watched: String, until file: String) -> Bool {
        var attempt = 0
        return eventually {
            attempt += 1
            if attempt % 40 == 1 { TemporaryDirectory.writeFile(watched + "/probe", "\(attempt)\n") }
            return !Scratch.readBytes(file).isEmpty
        }
    }

    @Test func hostileNamesReachEachRunByteForByte() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let watched = scratch.file("watched")
        mkdir(watched, 0o755)
        let out = scratch.file("words")
        let names: [[UInt8]] = [
            Array("new\nline".utf8), Array("-rf".utf8), Array("f".utf8) + [0xFF, 0xFE] + Array(".c".utf8),
            Array(repeating: UInt8(ascii: "n"), count: 255), Array("$(touch pwned) `id` 'q' \"d\"".utf8),
        ]
        for shell in [false, true] {
            unlink(out)
            let command = shell ? ["--shell", "sh", #"printf '%s\0' {} >> "# + out]
                : ["--", "sh", "-c", #"printf '%s\0' "$1" >> "$0""#, out, "{}"]
            let rwatch = RWatch(["-w", "watched"] + command, in: scratch.path, scratch: scratch)
            #expect(arm(watched, until: out), "\(rwatch.stderr)")
            moveIn(names, as: shell ? "s" : "d", into: watched, scratch: scratch)
            let expected = names.map { Array((shell ? "watched/s/" : "watched/d/").utf8) + $0 }
            #expect(eventually { expected.allSatisfy(words(in: out).contains) }, "\(words(in: out).map { String(decoding: $0, as: UTF8.self) })")
            rwatch.interrupt()
        }
        #expect(access(scratch.file("pwned"), F_OK) != 0)
        #expect(access(scratch.file("watched/pwned"), F_OK) != 0)
    }

    @Test func aCommandWithAPlaceholderWaitsForAChangeAndADeletedFileGetsItsRun() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let watched = scratch.file("watched")
        mkdir(watched, 0o755)
        scratch.write("watched/doomed", "x")
        let out = scratch.file("words")
        let script = #"if [ -e "$1" ]; then printf 'present %s\0' "$1"; else printf 'gone %s\0' "$1"; fi >> "$0""#
        let rwatch = RWatch(["-w", "watched", "--", "sh", "-c", script, out, "{}"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(arm(watched, until: out))
        // No run without a file at start: the first run was the probe's.
        #expect(words(in: out).first == Array("present watched/probe".utf8))
        unlink(scratch.file("watched/doomed"))
        #expect(eventually { words(in: out).contains(Array("gone watched/doomed".utf8)) }, "\(rwatch.stderr)")
    }

    @Test func jobsRunPerFileRunsSideBySide() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let watched = scratch.file("watched")
        mkdir(watched, 0o755)
        mkdir(scratch.file("marks"), 0o755)
        // Each .txt run waits until both have started: only -j 2 lets them finish.
        let script = #"case "$1" in *.txt) touch "$0/$(basename "$1")"; while [ "$(ls "$0" | wc -l)" -lt 2 ]; do sleep 0.01; done; printf '%s\0' "$1" >> "$0.done";; esac"#
        let rwatch = RWatch(["-p", "-j", "2", "-w", "watched", "--", "sh", "-c", script, scratch.file("marks"), "{}"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually(.seconds(30)) {
            attempt += 1
            if attempt % 400 == 1 { moveIn([Array("a.txt".utf8), Array("b.txt".utf8)], as: "batch\(attempt)", into: watched, scratch: scratch) }
            return words(in: scratch.file("marks.done")).count >= 2
        }, "\(rwatch.stderr)")
    }

    @Test func aRestartStopsEveryRunOfTheSet() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let watched = scratch.file("watched")
        mkdir(watched, 0o755)
        let pids = scratch.file("pids")
        let script = #"case "$1" in *.txt) echo "$$" >> "$0"; exec sleep 1000;; esac"#
        let rwatch = RWatch(["-r", "-j", "2", "-w", "watched", "--", "sh", "-c", script, pids, "{}"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let recorded = { scratch.read("pids").split(separator: "\n").compactMap { pid_t($0) } }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 400 == 1, recorded().isEmpty {
                moveIn([Array("a.txt".utf8), Array("b.txt".utf8)], as: "batch\(attempt)", into: watched, scratch: scratch)
            }
            return recorded().count >= 2
        }, "\(rwatch.stderr)")
        let first = Array(recorded().prefix(2))
        scratch.write("watched/c.txt", "c")
        #expect(eventually { recorded().count > first.count }, "\(rwatch.stderr)")
        // The new set starts only once the old one is gone: both ended.
        #expect(!first.contains(where: isAlive), "\(first) \(rwatch.stderr)")
    }

    @Test func onceExitsWithTheWorstStatusOfTheSet() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let watched = scratch.file("watched")
        mkdir(watched, 0o755)
        let script = #"case "$1" in *bad*) exit 3;; *worse*) exit 5;; esac"#
        let rwatch = RWatch(["-1", "-w", "watched", "--", "sh", "-c", script, "sh", "{}"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 400 == 1 {
                moveIn(["ok", "bad", "worse", "fine"].map { Array($0.utf8) }, as: "batch\(attempt)", into: watched, scratch: scratch)
            }
            return rwatch.exitStatus() != nil
        })
        #expect(rwatch.exitStatus() == 5, "\(rwatch.stderr)")
        #expect(rwatch.stderr.contains("2 of 5 runs failed, worst exited 5"), "\(rwatch.stderr)")
    }

    @Test func allPathsComeAsWordsSplitAtTheArgumentLimit() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let watched = scratch.file("watched")
        mkdir(watched, 0o755)
        let out = scratch.file("words")
        // A 256 KiB stack makes the kernel's limit for arguments and
        // environment 128 KiB: 1,000 names of 100 bytes need two runs.
        let wrapper = ["sh", "-c", "ulimit -s 256 && exec \"$@\"", "limit"]
        let rwatch = RWatch(["-w", "watched", "--", "sh", "-c", #"printf '%s\0' "$@" >> "$0"; echo run >> "$0.runs""#, out, "{+}"],
                            in: scratch.path, wrapper: wrapper, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(arm(watched, until: out), "\(rwatch.stderr)")
        let names = (0..<1000).map { Array((String(repeating: "x", count: 96) + String(1000 + $0)).utf8) }
        moveIn(names, as: "many", into: watched, scratch: scratch)
        let expected = Set(names.map { Array("watched/many/".utf8) + $0 })
        #expect(eventually { Set(words(in: out)).isSuperset(of: expected) }, "\(rwatch.stderr.prefix(2000))")
        #expect(words(in: out).filter(expected.contains).count == 1000, "every path once")
        #expect(scratch.read("words.runs").split(separator: "\n").count >= 3, "the probe's run, then at least two")
        #expect(!rwatch.stderr.contains("error"), "\(rwatch.stderr.prefix(2000))")
    }
}
