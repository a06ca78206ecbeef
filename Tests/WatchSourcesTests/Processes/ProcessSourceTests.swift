@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

@Suite struct ProcessSourceTests {
    @Test func exitCodeIsReportedLastThenCompletes() {
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "exit 3"]))
        #expect(run.waitUntilFinished())
        #expect(run.isCompleted)
        #expect(run.events.count == 2)
        #expect(run.events.last == .exited(.exited(3)))
        #expect(run.exit?.shellCode == 3)
        #expect(run.exit?.succeeded == false)
    }

    @Test func deathBySignalIsReportedAsSignal() {
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "kill -KILL $$"]))
        #expect(run.waitUntilFinished())
        #expect(run.exit == .signaled(SIGKILL))
        #expect(run.exit?.shellCode == 128 + SIGKILL)
    }

    @Test func startedCarriesTheProcessGroupID() {
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "cut -d' ' -f5 /proc/$$/stat"]))
        #expect(run.waitUntilFinished())
        let pid = run.pid
        #expect(pid != nil)
        #expect(run.stdout.map { $0.trimmingSpaces } == [pid.map { String($0) } ?? "?"])
        #expect(run.events.first == .started(pid: pid ?? -1))
        #expect(run.exit == .exited(0))
    }

    @Test func linesAreSplitStrippedAndKeptInOrderPerStream() {
        let script = #"printf 'one\ntwo\r\nthree'; printf 'err1\n' >&2; printf '\nlast\n'; printf 'err2' >&2"#
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", script]))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["one", "two", "three", "last"])
        #expect(run.stderr == ["err1", "err2"])
        #expect(run.events.last == .exited(.exited(0)))
    }

    @Test func aFinalLineWithoutNewlineIsKept() {
        let run = ProcessRecorder(ProcessSource.run(["printf", "no newline"]))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["no newline"])
    }

    @Test func invalidUTF8IsDecodedLossily() {
        let run = ProcessRecorder(ProcessSource.run(["printf", #"\377\376ok\n\303\n"#]))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["\u{FFFD}\u{FFFD}ok", "\u{FFFD}"])
    }

    @Test func aTenMegabyteLineArrivesWhole() {
        let script = #"head -c 10485760 /dev/zero | tr '\0' x; echo; echo after"#
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", script]))
        #expect(run.waitUntilFinished())
        let lines = run.stdout
        #expect(lines.count == 2)
        #expect(lines.first?.utf8.count == 10_485_760)
        #expect(lines.first?.utf8.allSatisfy { $0 == UInt8(ascii: "x") } == true)
        #expect(lines.last == "after")
    }

    @Test func argumentsReachTheCommandUnexpandedWithoutAShell() {
        let run = ProcessRecorder(ProcessSource.run(["echo", "$HOME", "a b", "$(id)"]))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["$HOME a b $(id)"])
    }

    @Test func aNamedShellRunsTheJoinedArguments() {
        let options = ProcessOptions(environment: ["RWATCH_TEST_VALUE": "from env"], shell: "sh")
        let run = ProcessRecorder(ProcessSource.run(["echo", "\"$RWATCH_TEST_VALUE\"", "|", "tr a-z A-Z"], options: options))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["FROM ENV"])
    }

    @Test func environmentAdditionsAndWorkingDirectoryApply() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let options = ProcessOptions(environment: ["RWATCH_ADDED": "yes", "HOME": "/nowhere"], workingDirectory: directory)
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", #"echo "$RWATCH_ADDED $HOME"; pwd; echo "${PATH:+inherited}""#], options: options))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["yes /nowhere", directory, "inherited"])
    }

    @Test func standardInputIsEmpty() {
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "cat; echo end"]))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["end"])
    }
}

extension String {
    var trimmingSpaces: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

@Suite struct ProcessOutputOptionTests {
    @Test func uncapturedOutputGivesOnlyStartedAndExited() {
        let options = ProcessOptions(captureOutput: false)
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "exit 4"], options: options))
        #expect(run.waitUntilFinished())
        #expect(run.events == [.started(pid: run.pid ?? -1), .exited(.exited(4))])
    }
}

@Suite struct ProcessVolumeTests {
    @Test func manyLinesArriveCompleteAndInOrder() {
        let run = ProcessRecorder(ProcessSource.run(["seq", "200000"]))
        #expect(run.waitUntilFinished())
        let lines = run.stdout
        #expect(lines.count == 200_000)
        #expect(lines == (1...200_000).map { String($0) })
    }

    @Test func disposingDuringHeavyOutputStopsTheGroup() {
        let run = ProcessRecorder(ProcessSource.run(["yes", "spam"]))
        #expect(eventually { run.stdout.count > 1000 })
        let pgid = run.pid ?? -1
        run.dispose()
        #expect(eventually { groupIsGone(pgid) && !isChildOfThisProcess(pgid) })
        #expect(!run.isFinished)  // disposed: no exited event, no completion
    }
}
