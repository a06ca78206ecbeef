import Glibc
import Testing
import TestSupport

/// Why a run happened: `-v` names the paths and event kinds behind each
/// run in one line before the command's output, and a command that keeps
/// starting itself by writing into the watched tree is told once.
@Suite struct WhyTests {
    @Test func verboseSaysWhyInOneLineBeforeTheCommandsOutput() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o755)
        let rwatch = RWatch(["-v", "-p", "-w", "watched", "--", "sh", "-c", "echo COMMAND OUTPUT >&2; echo ran >> runs"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("watching ") })
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/new\nname.txt", "\(attempt)") }
            return !scratch.read("runs").isEmpty
        }, "\(rwatch.stderr)")
        let lines = rwatch.stderr.split(separator: "\n").map(String.init)
        guard let why = lines.firstIndex(where: { $0.hasPrefix("rwatch: why: ") }),
              let output = lines.firstIndex(of: "COMMAND OUTPUT") else { Issue.record("\(lines)"); return }
        #expect(why < output)
        #expect(lines[why].hasPrefix("rwatch: why: ") && lines[why].hasSuffix(" 'watched/new\\nname.txt'"), "\(lines[why])")
    }

    /// Issue 36: each `sed -i` made four `ignored …/sedXXXXXX` lines (one
    /// per event of its temporary file). A default ignore is named once,
    /// with the first name it dropped; five `sed -i` give one such line.
    @Test func verboseNamesEachKindOfIgnoredTemporaryNameOnce() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o755)
        scratch.write("watched/app.c", "int x = 0;\n")
        let rwatch = RWatch(["-v", "-p", "-w", "watched", "--"] + RunLog.command, in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(RunLog.mark(scratch, "zz-ready"))
        for round in 1...5 {
            let sed = Command.run(["sed", "-i", "s/x = [0-9]*/x = \(round)/", scratch.file("watched/app.c")])
            #expect(sed.status == 0, "\(sed.errors)")
        }
        // A run for a marker written after the last sed: every sed's events were read before it.
        #expect(RunLog.mark(scratch, "zz-after"))
        let ignored = rwatch.stderr.split(separator: "\n").filter { $0.contains("ignored ") && $0.contains("/sed") }
        #expect(ignored.count == 1, "\(rwatch.stderr)")
        #expect(ignored.first?.contains("default ignore sed??????") == true, "\(ignored)")
    }

    @Test func aCommandThatKeepsStartingItselfIsToldOnceAndKeepsGoing() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("dist"), 0o755)
        scratch.write("src.txt", "x")
        // A build that writes into the tree it is watched for.
        let rwatch = RWatch(["--", "sh", "-c", "echo built >> dist/app.js"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let builds = { scratch.read("dist/app.js").split(separator: "\n").count }
        #expect(eventually { builds() >= 8 }, "\(rwatch.stderr)")
        let warnings = rwatch.stderr.split(separator: "\n").filter { $0.contains("were started only by files it wrote") }
        #expect(warnings.count == 1, "\(rwatch.stderr)")
        #expect(warnings.first?.contains("(dist/app.js); if it keeps starting itself, ignore them: -i 'dist/**'") == true, "\(warnings)")
    }

    /// A server under `-r` is alive at every save of its source: saves at a
    /// person's pace are edits, never the server starting itself.
    @Test func savesOfARestartedServersSourceAtAPersonsPaceAreNoLoop() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o755)
        scratch.write("src/srv.py", "v0")
        let rwatch = RWatch(["-r", "-w", "src", "--", "sh", "-c", "echo up >> starts; exec sleep 60"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let starts = { scratch.read("starts").split(separator: "\n").count }
        #expect(eventually { starts() == 1 }, "\(rwatch.stderr)")
        for edit in 1...5 {
            // A person's pace: the save comes well after the restart (the input, not a wait).
            usleep(600_000)
            scratch.write("src/srv.py", "v\(edit)")
            #expect(eventually { starts() == edit + 1 }, "\(rwatch.stderr)")
        }
        #expect(!rwatch.stderr.contains("started only by files"), "\(rwatch.stderr)")
    }
}
