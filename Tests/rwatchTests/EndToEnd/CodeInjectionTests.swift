import Glibc
import Testing
import TestSupport

/// A file name never becomes code: `{}` inside a shell's `-c` script (or
/// other inline code) is refused at start, and every spelling the docs
/// allow gets hostile names as data, with a canary that must never appear.
@Suite struct CodeInjectionTests {
    /// Names that run `touch CANARY` if a shell ever parses them, and names
    /// that break a word apart if anything splits or quotes them wrongly.
    static let hostileNames: [[UInt8]] = [
        "$(touch CANARY)", "`touch CANARY`", "x;touch CANARY", "x'q';touch CANARY;'", #"x"d";touch CANARY;""#,
        "new\ntouch CANARY", "-rf", "a b", "$HOME", "\\", "x&touch CANARY&",
    ].map { Array($0.utf8) } + [Array("bad".utf8) + [0xFF, 0xFE] + Array("$(touch CANARY)".utf8)]

    /// Each refused spelling exits 2 before anything runs, with one line
    /// that names the safe spelling.
    @Test(arguments: [
        ["sh", "-c", "echo start {}; touch ran; echo end {}"],
        ["-j", "2", "sh", "-c", "echo start {}; touch ran"],
        ["--", "bash", "-ec", "cat {+}; touch ran"],
        ["env", "A=1", "nice", "-n", "5", "timeout", "10", "dash", "-c", "touch ran {}"],
        ["--", "busybox", "sh", "-c", "touch ran {}"],
        ["--", "/bin/zsh", "-c", "touch ran {}"],
        ["--", "fish", "-c", "touch ran {}"],
        ["--", "python3", "-c", "open('ran', 'w'); print('{}')"],
        ["--shell", "sh", "touch ran; sh -c 'echo {}'"],
        ["-r", "--build", "sh -c 'touch ran {}'", "--", "true"],
    ])
    func aPlaceholderInsideCodeIsRefusedAtStart(command: [String]) {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-d", "0"] + command, in: scratch.path, scratch: scratch)
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("would run file names as code"), "\(result.stderr)")
        #expect(result.stderr.contains("--unsafe-paste-into-code"), "\(result.stderr)")
        #expect(access(scratch.file("ran"), F_OK) != 0)
    }

    @Test func theRefusalSpellsTheUsersCommandSafely() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-e", "py", "-j", "2", "sh", "-c", "echo start {}; sleep 1; echo end {}"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"sh -c 'echo start "${1}"; sleep 1; echo end "${1}"' sh {}"#), "\(result.stderr)")
    }

    /// Every spelling the docs allow, as (arguments before the name list's
    /// words, the word each name should arrive as).
    private static func forms(_ out: String) -> [(arguments: [String], word: ([UInt8]) -> [UInt8])] {
        let record = #"printf '%s\0' "$@" >> "$0""#
        let same: ([UInt8]) -> [UInt8] = { $0 }
        return [
            (["--", "sh", "-c", record, out, "{}"], same),
            (["--", "sh", "-c", record, out, "--out={}.o"], { Array("--out=".utf8) + $0 + Array(".o".utf8) }),
            (["--", "sh", "-c", record, out, "{+}"], same),
            (["--", "env", "A=1", "sh", "-c", record, out, "pre{+}"], { Array("pre".utf8) + $0 }),
            (["--shell", "sh", "printf '%s\\0' {} >> " + out], same),
            (["--shell", "bash", "printf '%s\\0' \"in {}\" >> " + out], { Array("in ".utf8) + $0 }),
            (["--shell", "sh", "printf '%s\\0' 'sq{}' >> " + out], { Array("sq".utf8) + $0 }),
            (["--shell", "sh", "printf '%s\\0' {+} >> " + out], same),
        ]
    }

    @Test func hostileNamesThroughEverySafeSpellingAreDataNeverCode() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let watched = scratch.file("watched")
        mkdir(watched, 0o755)
        let out = scratch.file("words")
        for (number, form) in Self.forms(out).enumerated() {
            unlink(out)
            let rwatch = RWatch(["-w", "watched", "-d", "50ms"] + form.arguments, in: scratch.path, scratch: scratch)
            // A probe file proves the watch is armed and the form runs.
            var attempt = 0
            #expect(eventually {
                attempt += 1
                if attempt % 40 == 1 { scratch.write("watched/probe", "\(attempt)\n") }
                return !Scratch.readBytes(out).isEmpty
            }, "\(form.arguments): \(rwatch.stderr)")
            // Every name arrives in one batch: a directory moved in whole.
            let stage = scratch.file("stage\(number)")
            mkdir(stage, 0o755)
            for name in Self.hostileNames { Scratch.write(bytes: Array((stage + "/").utf8) + name, "x\n") }
            #expect(rename(stage, watched + "/d\(number)") == 0)
            let expected = Self.hostileNames.map { form.word(Array("watched/d\(number)/".utf8) + $0) }
            #expect(eventually { expected.allSatisfy(words(in: out).contains) },
                    "\(form.arguments): \(words(in: out).map { String(decoding: $0, as: UTF8.self) }) \(rwatch.stderr)")
            rwatch.interrupt()
        }
        for directory in [scratch.path, watched] + (0..<Self.forms(out).count).map({ watched + "/d\($0)" }) {
            #expect(access(directory + "/CANARY", F_OK) != 0, "a name ran as code in \(directory)")
        }
    }

    @Test func unsafePasteIntoCodePastesAsAsked() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o755)
        let rwatch = RWatch(["-w", "watched", "--unsafe-paste-into-code", "-1", "--", "sh", "-c", "printf %s {} > out"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/plain.txt", "\(attempt)\n") }
            return rwatch.exitStatus() != nil
        }, "\(rwatch.stderr)")
        #expect(Scratch.read(scratch.file("out")) == "watched/plain.txt")
    }

    /// The words the command wrote, NUL-terminated, into `file`.
    private func words(in file: String) -> [[UInt8]] {
        Scratch.readBytes(file).split(separator: 0, omittingEmptySubsequences: false).dropLast().map(Array.init)
    }
}
