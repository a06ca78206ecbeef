import Glibc
import SystemPackage
import Testing
import TestSupport
@testable import WatchSources

/// Arguments and environment values given as bytes reach the child exactly,
/// whether UTF-8 or not.
@Suite struct ByteArgumentTests {
    private static let bad: [UInt8] = Array("/d/bad".utf8) + [0xFF, 0xFE, 0xC3] + Array("(.txt".utf8)

    @Test func aPathArgumentReachesArgvByteForByte() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = FilePath(bytes: Self.bad)
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", #"printf %s "$1" > "$0""#, CommandWord(dir.file("out")), .path(path)]))
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(0))
        #expect(TemporaryDirectory.readBytes(dir.file("out")) == Self.bad)
    }

    @Test func aShellCommandKeepsTheBytesOfItsWords() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var options = ProcessOptions()
        options.shell = "/bin/sh"
        let run = ProcessRecorder(ProcessSource.run(["printf %s", CommandWord(bytes: [0x27] + Self.bad + [0x27]), ">", CommandWord(dir.file("out"))], options: options))
        #expect(run.waitUntilFinished())
        #expect(TemporaryDirectory.readBytes(dir.file("out")) == Self.bad)
    }

    @Test func anEnvironmentValueGivenAsBytesReachesTheChildExactly() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var options = ProcessOptions(environment: ["CHANGED": "text"])
        options.environmentBytes = ["CHANGED": Self.bad]
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", #"printf %s "$CHANGED" > "$0""#, dir.file("out")], options: options))
        #expect(run.waitUntilFinished())
        #expect(TemporaryDirectory.readBytes(dir.file("out")) == Self.bad)
    }

    @Test func aProgramWhosePathIsNotUTF8Runs() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let program = Array(dir.path.utf8) + Array("/run".utf8) + [0xFF]
        TemporaryDirectory.write(bytes: program, "#!/bin/sh\necho ran\n")
        #expect(FilePath(bytes: program).withPlatformString { chmod($0, 0o755) } == 0)
        let run = ProcessRecorder(ProcessSource.run([CommandWord(bytes: program)]))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["ran"])
    }
}
