@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ProcessErrorTests {
    @Test func aMissingCommandGivesAnErrorNamingIt() {
        let run = ProcessRecorder(ProcessSource.run(["rwatch-no-such-command", "arg"]))
        #expect(run.waitUntilFinished())
        let error = run.error as? ProcessError
        #expect(error?.reason == .notFound)
        #expect(error.map(String.init(describing:)) == "command not found: rwatch-no-such-command")
        #expect(run.events.isEmpty)
    }

    @Test func aMissingPathGivesAnErrorNamingIt() {
        let run = ProcessRecorder(ProcessSource.run(["/tmp/rwatch no such dir/tool"]))
        #expect(run.waitUntilFinished())
        #expect((run.error as? ProcessError).map(String.init(describing:)) == "command not found: '/tmp/rwatch no such dir/tool'")
    }

    @Test func aMissingShellGivesAnErrorNamingTheShell() {
        let run = ProcessRecorder(ProcessSource.run(["true"], options: ProcessOptions(shell: "rwatch-no-such-shell")))
        #expect(run.waitUntilFinished())
        #expect((run.error as? ProcessError)?.command == "rwatch-no-such-shell")
    }

    @Test func aFileWithoutExecutePermissionIsNotExecutable() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let script = directory + "/script.sh"
        writeFile(script, "#!/bin/sh\necho hi\n", mode: 0o644)
        // Root passes access(X_OK) checks only when some execute bit is set.
        let run = ProcessRecorder(ProcessSource.run([script]))
        #expect(run.waitUntilFinished())
        let error = run.error as? ProcessError
        #expect(error?.reason == .notExecutable)
        #expect(error.map(String.init(describing:))?.hasPrefix("cannot execute \(script): ") == true)
    }

    @Test func aDirectoryIsNotExecutable() {
        let run = ProcessRecorder(ProcessSource.run(["/tmp"]))
        #expect(run.waitUntilFinished())
        #expect((run.error as? ProcessError).map(String.init(describing:)) == "cannot execute /tmp: is a directory")
    }

    @Test func aMissingWorkingDirectoryIsNamed() {
        let options = ProcessOptions(workingDirectory: "/tmp/rwatch-no-such-directory")
        let run = ProcessRecorder(ProcessSource.run(["true"], options: options))
        #expect(run.waitUntilFinished())
        let error = run.error as? ProcessError
        #expect(error?.reason == .badWorkingDirectory("/tmp/rwatch-no-such-directory"))
        #expect(error.map(String.init(describing:)) == "cannot run true in /tmp/rwatch-no-such-directory: No such file or directory")
    }

    @Test func anEmptyCommandIsAnError() {
        let run = ProcessRecorder(ProcessSource.run([]))
        #expect(run.waitUntilFinished())
        #expect((run.error as? ProcessError)?.reason == .emptyCommand)
    }

    @Test func namesWithNewlinesAreQuotedOnOneLine() {
        let run = ProcessRecorder(ProcessSource.run(["bad\nname $(x)"]))
        #expect(run.waitUntilFinished())
        let text = (run.error as? ProcessError).map(String.init(describing:)) ?? ""
        #expect(text == #"command not found: 'bad\nname $(x)'"#)
    }
}

@Suite struct ProcessArgumentCheckTests {
    @Test func anArgumentWithANulByteIsRefusedNotCutShort() {
        let run = ProcessRecorder(ProcessSource.run(["echo", "a\u{0}b"]))
        #expect(run.waitUntilFinished())
        let error = run.error as? ProcessError
        #expect(error?.reason == .spawnFailed(EINVAL))
        #expect(error.map(String.init(describing:))?.hasPrefix("cannot start echo: ") == true)
    }

    @Test func anEnvironmentNameWithAnEqualsSignIsRefused() {
        let run = ProcessRecorder(ProcessSource.run(["true"], options: ProcessOptions(environment: ["A=B": "c"])))
        #expect(run.waitUntilFinished())
        #expect((run.error as? ProcessError)?.reason == .spawnFailed(EINVAL))
    }
}
