@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// The followed file's directory deleted and made again, over and over, as
/// fast as one thread can: the follower must find every new file, whatever
/// moment its events reach it.
@Suite struct TailRecreateTests {
    /// How the directory comes back after it was removed.
    enum Recreation: CaseIterable {
        /// mkdir, then the next line written in the open that creates the file.
        case lineWithTheFile
        /// mkdir and an empty file made at once; the next line appended later.
        case emptyFileThenLine
        /// mkdir only; the next line creates the file.
        case directoryOnly
    }

    @Test(arguments: Recreation.allCases)
    func aDirectoryDeletedAndMadeAgainAtOnceIsFollowedEveryTime(_ recreation: Recreation) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let logs = directory + "/logs"
        let log = logs + "/app.log"
        #expect(mkdir(logs, 0o755) == 0)
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log]))
        defer { tail.dispose() }
        var expected: [String] = []
        for round in 1...150 {
            writeFile(log, "line \(round)\n", append: recreation != .directoryOnly || round == 1)
            expected.append("line \(round)")
            guard arrive(expected, tail, "round \(round)") else { return }
            // In process: unlink, rmdir, and mkdir right after.
            TemporaryDirectory.removeTree(logs)
            #expect(mkdir(logs, 0o755) == 0)
            switch recreation {
            case .lineWithTheFile:
                writeFile(log, "made \(round)\n")
                expected.append("made \(round)")
            case .emptyFileThenLine:
                close(open(log, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644))
            case .directoryOnly:
                break
            }
        }
        #expect(arrive(expected, tail, "at the end"))
    }

    /// A directory removed while a file in it is open lives on until that
    /// file is closed: here, until the follower closes the deleted log, just
    /// before it looks for the name again. Right then, or up to 10 µs later
    /// (a different moment each round), the new directory, its file already
    /// in it, is renamed into place, to land while the follower looks.
    @Test func aDirectoryBackWhileTheFollowerLooksForItIsFollowed() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let logs = directory + "/logs"
        let staged = directory + "/staged"
        let log = logs + "/app.log"
        #expect(mkdir(logs, 0o755) == 0)
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log]))
        defer { tail.dispose() }
        var expected: [String] = []
        for round in 1...150 {
            writeFile(log, "line \(round)\n", append: true)
            expected.append("line \(round)")
            guard arrive(expected, tail, "round \(round)") else { return }
            #expect(mkdir(staged, 0o755) == 0)
            writeFile(staged + "/app.log", "made \(round)\n")
            expected.append("made \(round)")
            let death = DirectoryDeath(logs)
            TemporaryDirectory.removeTree(logs)
            #expect(death.wait())
            death.close()
            // A random phase, not a wait for anything: the test passes at
            // every one.
            let stagger = ContinuousClock.now + .nanoseconds(Int.random(in: 0..<10_000))
            while ContinuousClock.now < stagger {}
            #expect(rename(staged, logs) == 0)
        }
        #expect(arrive(expected, tail, "at the end"))
    }

    /// Waits for `expected`; records what arrived instead if it does not.
    private func arrive(_ expected: [String], _ tail: TailRecorder, _ when: String) -> Bool {
        let arrived = eventually { tail.texts == expected }
        if !arrived {
            Issue.record("\(when): expected \(expected.suffix(2)), got \(tail.texts.suffix(3)) \(String(describing: tail.error))")
        }
        return arrived
    }
}

/// The test's own inotify watch on a directory, to learn the instant it is
/// gone for good: a directory removed while a file in it is open dies when
/// that file is closed.
private struct DirectoryDeath {
    let inotify: Int32

    init(_ directory: String) {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        precondition(inotify >= 0 && inotify_add_watch(inotify, directory, UInt32(IN_DELETE_SELF)) >= 0)
    }

    /// Spins (no sleep: the moment matters) until the directory is gone,
    /// or the deadline passes.
    func wait(_ timeout: Duration = .seconds(20)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            let count = read(inotify, &buffer, buffer.count)
            if count >= 16 {
                // Any event of this watch means death: IN_DELETE_SELF or IN_IGNORED.
                return true
            }
        }
        return false
    }

    func close() { Glibc.close(inotify) }
}

