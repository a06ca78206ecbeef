@testable import Signals
@testable import WatchSources
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// The follower's behaviours, with inotify and polling (`Backend`).
@Suite struct TailTests {
    @Test(arguments: Backend.allCases) func fromEndGivesOnlyNewLines(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "old 1\nold 2\n")
        let tail = TailRecorder(Tail.follow([log], from: .end, backend: backend.watchBackend))
        defer { tail.dispose() }
        writeFile(log, "new 1\nnew 2\n", append: true)
        #expect(eventually { tail.texts == ["new 1", "new 2"] })
    }

    @Test(arguments: Backend.allCases) func fromStartGivesExistingLinesThenNewOnes(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "old 1\r\nold 2\n")
        let tail = TailRecorder(Tail.follow([log], from: .start, backend: backend.watchBackend))
        defer { tail.dispose() }
        #expect(eventually { tail.texts == ["old 1", "old 2"] })
        writeFile(log, "new\n", append: true)
        #expect(eventually { tail.texts == ["old 1", "old 2", "new"] })
    }

    @Test func theSingleFileFormGivesPlainStrings() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "one\n")
        let texts = Locked<[String]>([])
        let subscription = Tail.follow(log, from: .start).subscribe(onNext: { text in texts.withLock { $0.append(text) } })
        defer { subscription.dispose() }
        #expect(eventually { texts.withLock { $0 } == ["one"] })
    }

    @Test(arguments: Backend.allCases) func aFileCreatedLaterIsReadFromItsBeginning(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/late.log"
        let tail = TailRecorder(Tail.follow([log], backend: backend.watchBackend))
        defer { tail.dispose() }
        writeFile(log, "first\nsecond\n")
        #expect(eventually { tail.texts == ["first", "second"] }, "\(tail.texts) \(String(describing: tail.error))")
        writeFile(log, "third\n", append: true)
        #expect(eventually { tail.texts == ["first", "second", "third"] })
    }

    @Test(arguments: Backend.allCases) func aPartialLineIsHeldUntilItsNewline(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log], backend: backend.watchBackend))
        defer { tail.dispose() }
        // "par" is read together with "first": once "first" is here, the
        // follower holds "par".
        writeFile(log, "first\npar", append: true)
        #expect(eventually { tail.texts == ["first"] })
        writeFile(log, "tial\n", append: true)
        #expect(eventually { tail.texts.count >= 2 })
        #expect(tail.texts == ["first", "partial"])
    }

    @Test(arguments: Backend.allCases) func truncationIsFollowedFromTheBeginning(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log], backend: backend.watchBackend))
        defer { tail.dispose() }
        writeFile(log, "a long first line\nanother one\n", append: true)
        #expect(eventually { tail.texts.count == 2 })
        // copytruncate: the same file, emptied in place, then written again.
        #expect(truncate(log, 0) == 0)
        writeFile(log, "after\n", append: true)
        #expect(eventually { tail.texts == ["a long first line", "another one", "after"] })
    }

    @Test(arguments: Backend.allCases) func renameAndRecreateRotationReadsTheOldFileFirst(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log], backend: backend.watchBackend))
        defer { tail.dispose() }
        writeFile(log, "before rotation\n", append: true)
        #expect(eventually { tail.texts == ["before rotation"] })
        #expect(rename(log, log + ".1") == 0)
        // The writer still has the old file open and finishes its line there.
        writeFile(log + ".1", "late in old\nunfinished", append: true)
        writeFile(log, "in new\n")
        #expect(eventually { tail.texts.count == 4 })
        #expect(tail.texts == ["before rotation", "late in old", "unfinished", "in new"])
        writeFile(log, "more\n", append: true)
        #expect(eventually { tail.texts.last == "more" })
    }

    @Test(arguments: Backend.allCases) func deleteAndRecreateIsFollowed(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log], backend: backend.watchBackend))
        defer { tail.dispose() }
        writeFile(log, "one\n", append: true)
        #expect(eventually { tail.texts == ["one"] })
        #expect(unlink(log) == 0)
        writeFile(log, "two\n")
        #expect(eventually { tail.texts == ["one", "two"] })
    }

    @Test(arguments: Backend.allCases) func severalFilesAreMergedAndTaggedWithTheirPath(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let first = directory + "/a.log"
        let second = directory + "/sub dir/b.log"
        #expect(mkdir(directory + "/sub dir", 0o755) == 0)
        writeFile(first, "")
        let tail = TailRecorder(Tail.follow([first, second], backend: backend.watchBackend))
        defer { tail.dispose() }
        writeFile(first, "from a\n", append: true)
        #expect(eventually { tail.all.count == 1 })
        writeFile(second, "from b\n")
        #expect(eventually { tail.all.count == 2 })
        writeFile(first, "a again\n", append: true)
        #expect(eventually { tail.all.count == 3 })
        #expect(tail.all == [
            Tail.Line(path: FilePath(first), text: "from a"),
            Tail.Line(path: FilePath(second), text: "from b"),
            Tail.Line(path: FilePath(first), text: "a again"),
        ])
    }

    @Test func invalidUTF8IsDecodedLossily() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/bin.log"
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var bytes: [UInt8] = [0xFF, 0x41, 0x0A]
        #expect(write(fd, &bytes, bytes.count) == 3)
        close(fd)
        let tail = TailRecorder(Tail.follow([log], from: .start))
        defer { tail.dispose() }
        #expect(eventually { tail.texts == ["\u{FFFD}A"] })
    }

    @Test(arguments: Backend.allCases) func aMissingDirectoryIsWaitedFor(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/not/yet/app.log"
        let tail = TailRecorder(Tail.follow([log], backend: backend.watchBackend))
        defer { tail.dispose() }
        #expect(mkdir(directory + "/not", 0o755) == 0)
        #expect(mkdir(directory + "/not/yet", 0o755) == 0)
        writeFile(log, "arrived\n")
        #expect(eventually { tail.texts == ["arrived"] })
        #expect(tail.error == nil)
    }

    @Test(arguments: Backend.allCases) func aDeletedAndRecreatedDirectoryIsFollowed(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let logs = directory + "/logs"
        let log = logs + "/app.log"
        #expect(mkdir(logs, 0o755) == 0)
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log], backend: backend.watchBackend))
        defer { tail.dispose() }
        writeFile(log, "first\n", append: true)
        #expect(eventually { tail.texts == ["first"] })
        removeTree(logs)
        #expect(access(logs, F_OK) != 0)
        #expect(mkdir(logs, 0o755) == 0)
        writeFile(log, "second\n")
        #expect(eventually { tail.texts == ["first", "second"] }, "\(tail.texts) \(String(describing: tail.error))")
    }

    @Test(arguments: Backend.allCases) func aParentThatIsAFileIsAClearError(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        writeFile(directory + "/plain", "")
        let tail = TailRecorder(Tail.follow([directory + "/plain/x.log"], backend: backend.watchBackend))
        #expect(eventually { tail.error != nil })
        #expect(tail.error == "cannot follow \(directory)/plain/x.log: \(directory)/plain is not a directory")
    }

    @Test(arguments: Backend.allCases) func aDirectoryIsAClearError(_ backend: Backend) {
        let tail = TailRecorder(Tail.follow(["/tmp"], backend: backend.watchBackend))
        #expect(eventually { tail.error != nil })
        #expect(tail.error == "cannot follow /tmp: is a directory")
    }
}

@Suite struct TailVolumeTests {
    @Test func manyLinesWrittenInPiecesArriveInOrder() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/big.log"
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log]))
        defer { tail.dispose() }
        let expected = (1...20_000).map { "line \($0)" }
        let text = expected.joined(separator: "\n") + "\n"
        // Odd-sized pieces, so that lines straddle the writes.
        var rest = Substring(text)
        while !rest.isEmpty {
            let piece = rest.prefix(4_093)
            writeFile(log, String(piece), append: true)
            rest = rest.dropFirst(piece.count)
        }
        #expect(eventually { tail.texts.count >= expected.count })
        #expect(tail.texts == expected)
    }

    @Test func aDisposedFollowerDeliversNothingMore() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let disposed = TailRecorder(Tail.follow([log]))
        let witness = TailRecorder(Tail.follow([log]))
        defer { witness.dispose() }
        writeFile(log, "one\n", append: true)
        #expect(eventually { disposed.texts == ["one"] && witness.texts == ["one"] })
        disposed.dispose()
        writeFile(log, "two\n", append: true)
        #expect(eventually { witness.texts == ["one", "two"] })
        #expect(disposed.texts == ["one"])
    }
}
