import Glibc
import SystemPackage
import Testing
@testable import WatchSources

/// Polling's decisions, without a thread, a descriptor or a clock:
/// `PollMachine` over an in-memory tree (`MemoryPollSystem`), its passes
/// at the moments the test chooses.
@Suite struct PollMachineTests {
    /// A machine polling `/w` whole, the tree it sees, and the time.
    final class Polling {
        let files = MemoryPollSystem(root: "/w", at: 1_000)
        let machine: PollMachine
        /// Monotonic seconds of the next pass.
        var now = 50.0
        /// How the subscription was ended (`PollMachine.Action.fail`).
        var failures: [FileWatchError] = []
        /// How many times a pass said a rule file or git's index changed (`PollJob` tells the client's `TrackedFilesRefresh`).
        var rulesChanged = 0

        init(root: String = "/w", isFile: Bool = false, exclude: [String] = [], onRootDeleted: RootDeletion = .fail) {
            let options = WatchOptions(exclude: exclude, useVCSIgnore: false, useProjectIgnore: false, useGlobalIgnore: false,
                                       backend: .poll(interval: .milliseconds(100)))
            machine = PollMachine(rootPath: FilePath(root), filter: PathFilter(root: FilePath(root), options: options),
                                  subtrees: [PollMachine.Subtree(relative: [], path: FilePath(root).bytes, isFile: isFile)],
                                  onRootDeleted: onRootDeleted)
        }

        /// One pass, `after` seconds after the last (the files' clock
        /// moves as much); what it sent, as one list.
        @discardableResult
        func pass(after: Double = 1) -> [FileEvent] {
            now += after
            files.wall += after
            return events(machine.pass(files, now: now, wall: files.wall))
        }

        func events(_ actions: [PollMachine.Action]) -> [FileEvent] {
            var events: [FileEvent] = []
            for action in actions {
                switch action {
                case .send(let sent): events += sent
                case .fail(let error): failures.append(error)
                case .rulesChanged: rulesChanged += 1
                }
            }
            return events
        }
    }

    private func event(_ path: String, _ kind: FileEvent.Kind, directory: Bool = false) -> FileEvent {
        FileEvent(path: FilePath(path), kind: kind, isDirectory: directory)
    }

    @Test func theFirstPassTakesTheBaselineAndReportsNothing() {
        let poll = Polling()
        poll.files.write("/w/a.txt", size: 3)
        poll.files.mkdir("/w/d")
        poll.files.write("/w/d/b.txt", size: 3)
        #expect(poll.pass().isEmpty)
        #expect(poll.pass().isEmpty)
    }

    /// The save rule's `fresh` hold: a new file is announced once it has been there for
    /// the save window (200 ms), however many passes fit in it.
    @Test func aNewFileIsHeldForTheSaveWindowSinceItWasFound() {
        let poll = Polling()
        poll.pass()
        poll.files.write("/w/new.txt", size: 1)
        #expect(poll.pass().isEmpty)
        #expect(poll.pass(after: 0.1).isEmpty)
        #expect(poll.pass(after: 0.05).isEmpty)
        #expect(poll.pass(after: 0.1) == [event("/w/new.txt", .created)])
        #expect(poll.pass().isEmpty)
    }

    /// A temporary file gone before its window ends was never a change.
    @Test func aNewFileDeletedWithinTheWindowIsNoChange() {
        let poll = Polling()
        poll.pass()
        poll.files.write("/w/scratch", size: 1)
        #expect(poll.pass().isEmpty)
        poll.files.remove("/w/scratch")
        #expect(poll.pass(after: 0.1).isEmpty)
        #expect(poll.pass().isEmpty)
    }

    @Test(arguments: ["mtime", "size", "inode"])
    func aContentChangeIsAModification(_ what: String) {
        let poll = Polling()
        poll.files.write("/w/a.txt", size: 3)
        poll.pass()
        switch what {
        case "mtime": poll.files.write("/w/a.txt", size: 3)
        case "size": poll.files.resize("/w/a.txt", 9)
        default:
            poll.files.write("/w/other", size: 3)
            poll.files.rename("/w/other", to: "/w/a.txt")
        }
        #expect(poll.pass() == [event("/w/a.txt", .modified)])
        #expect(poll.pass().isEmpty)
    }

    @Test func aChangeOfCtimeOrModeAloneIsAttributes() {
        let poll = Polling()
        poll.files.write("/w/run.sh", size: 3)
        poll.pass()
        poll.files.chmod("/w/run.sh", 0o755)
        #expect(poll.pass() == [event("/w/run.sh", .attributes)])
    }

    @Test func aFileThatVanishedIsDeleted() {
        let poll = Polling()
        poll.files.write("/w/a.txt", size: 3)
        poll.pass()
        poll.files.remove("/w/a.txt")
        #expect(poll.pass() == [event("/w/a.txt", .deleted)])
    }

    @Test func aDirectoryAppearsWithItsContents() {
        let poll = Polling()
        poll.pass()
        poll.files.mkdir("/w/d")
        poll.files.write("/w/d/x", size: 1)
        poll.files.write("/w/d/y", size: 1)
        #expect(poll.pass() == [event("/w/d", .created, directory: true)])
        #expect(poll.pass(after: 0.25) == [event("/w/d/x", .created), event("/w/d/y", .created)])
    }

    @Test func aDirectoryRemovedReportsWhatItHeldFirst() {
        let poll = Polling()
        poll.files.mkdir("/w/d")
        poll.files.write("/w/d/x", size: 1)
        poll.pass()
        poll.files.remove("/w/d")
        #expect(poll.pass() == [event("/w/d/x", .deleted), event("/w/d", .deleted, directory: true)])
    }

    /// An atomic save: the new content is written under a temporary name,
    /// then renamed over the real file, a pass apart.
    @Test func aSaveThroughATemporaryNameIsAModificationOfTheRealPath() {
        let poll = Polling()
        poll.files.write("/w/a.txt", size: 3)
        poll.pass()
        poll.files.write("/w/a.txt.tmp.42", size: 5)
        #expect(poll.pass().isEmpty)
        poll.files.rename("/w/a.txt.tmp.42", to: "/w/a.txt")
        #expect(poll.pass(after: 0.05) == [event("/w/a.txt", .modified)])
        #expect(poll.pass().isEmpty)
    }

    @Test func aRenameSeenByOnePassIsAMove() {
        let poll = Polling()
        poll.files.write("/w/a.txt", size: 3)
        poll.pass()
        poll.files.rename("/w/a.txt", to: "/w/b.txt")
        let events = poll.pass()
        #expect(events.map(\.kind) == [.movedFrom, .movedTo])
        #expect(events.map(\.path) == [FilePath("/w/a.txt"), FilePath("/w/b.txt")])
        #expect(events[0].cookie == events[1].cookie)
    }

    /// A directory that cannot be opened keeps its snapshot: nothing is
    /// reported while it is unreadable, and what changed meanwhile once it
    /// is readable again.
    @Test func anUnreadableDirectoryIsNeitherDeletedNorForgotten() {
        let poll = Polling()
        poll.files.mkdir("/w/locked")
        poll.files.write("/w/locked/f", size: 1)
        poll.pass()
        poll.files.setReadable("/w/locked", false)
        poll.files.write("/w/locked/f", size: 2)
        #expect(poll.pass().isEmpty)
        poll.files.setReadable("/w/locked", true)
        #expect(poll.pass() == [event("/w/locked/f", .modified)])
    }

    /// A client that waits for its root is told it went, once, and that
    /// it came back; it is never ended.
    @Test func theRootThatVanishedIsReportedOnceAndItsReturnToo() {
        let poll = Polling(onRootDeleted: .waitForReappearance)
        poll.files.write("/w/a.txt", size: 3)
        poll.pass()
        poll.files.remove("/w")
        #expect(poll.pass() == [event("/w/a.txt", .deleted), event("/w", .deleted, directory: true)])
        #expect(poll.pass().isEmpty)
        #expect(poll.failures.isEmpty)
        poll.files.mkdir("/w")
        #expect(poll.pass() == [event("/w", .created, directory: true)])
    }

    /// A watched single file that vanished may be an editor's save under
    /// way: it is deleted only after a second without it.
    @Test func aWatchedFileIsDeletedOnlyAfterItsGrace() {
        let poll = Polling(root: "/w/only.txt", isFile: true)
        poll.files.write("/w/only.txt", size: 1)
        poll.pass()
        poll.files.remove("/w/only.txt")
        #expect(poll.pass(after: 0.5).isEmpty)
        #expect(poll.pass(after: 0.6).isEmpty)
        #expect(poll.pass(after: 0.5) == [event("/w/only.txt", .deleted)])
        #expect(poll.failures.map(\.reason) == [.rootDeleted("/w/only.txt")])
    }

    /// A client that asked to fail when its root goes is ended by the
    /// job itself, once, after the deletions: the reader is not asked.
    @Test func aVanishedRootEndsAClientThatAskedToFail() {
        let poll = Polling()
        poll.files.write("/w/a.txt", size: 3)
        poll.pass()
        poll.files.remove("/w")
        var deletions: [FileEvent] = []
        var failures: [FileWatchError] = []
        poll.now += 1
        poll.files.wall += 1
        for action in poll.machine.pass(poll.files, now: poll.now, wall: poll.files.wall) {
            switch action {
            case .send(let sent):
                #expect(failures.isEmpty)
                deletions += sent
            case .fail(let error): failures.append(error)
            case .rulesChanged: break
            }
        }
        #expect(deletions == [event("/w/a.txt", .deleted), event("/w", .deleted, directory: true)])
        #expect(failures.map(\.reason) == [.rootDeleted("/w")])
        #expect(poll.pass().isEmpty)
        #expect(poll.failures.isEmpty)
    }

    /// vim's backup save, with passes between its steps: the file is
    /// renamed to an ignored backup name (`a.txt~`), written anew, and the
    /// backup removed. Whatever the passes see of it, it is one change.
    @Test func aSaveThroughABackupRenameIsOneModification() {
        let poll = Polling()
        poll.files.write("/w/a.txt", size: 3)
        poll.pass()
        poll.files.rename("/w/a.txt", to: "/w/a.txt~")
        var events = poll.pass()
        poll.files.write("/w/a.txt", size: 4)
        poll.files.remove("/w/a.txt~")
        for _ in 0..<6 { events += poll.pass(after: 0.1) }
        #expect(events == [event("/w/a.txt", .modified)])
    }

    /// A rewrite in place caught between its truncation and its write
    /// waits a pass (`SaveCoalescer.Entry.emptied`): one change, not two.
    @Test func aRewriteInPlaceSeenEmptyIsOneChange() {
        let poll = Polling()
        poll.files.write("/w/app.c", size: 7)
        poll.pass()
        poll.files.write("/w/app.c", size: 0)
        #expect(poll.pass().isEmpty)
        poll.files.write("/w/app.c", size: 12)
        #expect(poll.pass() == [event("/w/app.c", .modified)])
        #expect(poll.pass().isEmpty)
    }

    /// A writer held up between its truncation and its write (a loaded
    /// machine) while passes come every 25 ms: still one change, for the
    /// save window (200 ms) from when a pass first found the file empty,
    /// as a new file is held. A file left empty is reported after it.
    @Test func aRewriteInPlaceWhoseWriteComesSeveralPassesLateIsOneChange() {
        let poll = Polling()
        poll.files.write("/w/app.c", size: 7)
        poll.pass()
        poll.files.write("/w/app.c", size: 0)
        for _ in 0..<6 { #expect(poll.pass(after: 0.025).isEmpty) }
        poll.files.write("/w/app.c", size: 12)
        #expect(poll.pass(after: 0.025) == [event("/w/app.c", .modified)])
        #expect(poll.pass(after: 0.025).isEmpty)

        poll.files.write("/w/app.c", size: 0)
        var events: [FileEvent] = []
        for _ in 0..<8 { events += poll.pass(after: 0.025) }
        #expect(events.isEmpty, "within the window")
        for _ in 0..<2 { events += poll.pass(after: 0.025) }
        #expect(events == [event("/w/app.c", .modified)])
    }

    /// A directory renamed within the tree is one move, whichever of its
    /// two places the pass reaches first; what it holds is not reported.
    @Test(arguments: [("/w/a/d", "/w/z/d"), ("/w/z/d", "/w/a/d")])
    func aDirectoryMovedWithinTheTreeIsOneMove(_ from: String, _ to: String) {
        let poll = Polling()
        poll.files.mkdir("/w/a")
        poll.files.mkdir("/w/z")
        poll.files.mkdir(from)
        poll.files.write(from + "/f", size: 1)
        poll.pass()
        poll.files.rename(from, to: to)
        let events = poll.pass()
        #expect(events.map(\.kind) == [.movedFrom, .movedTo])
        #expect(events.map(\.path) == [FilePath(from), FilePath(to)])
        #expect(events.allSatisfy { $0.isDirectory })
        poll.files.write(to + "/f", size: 2)
        #expect(poll.pass() == [event(to + "/f", .modified)])
    }

    /// An excluded name is kept by name only: never `stat`-ed, never reported.
    @Test func anExcludedNameIsNeverStatted() {
        let poll = Polling(exclude: ["*.log"])
        poll.files.write("/w/a.txt", size: 1)
        poll.pass()
        let stats = poll.files.stats
        for size in 1...3 {
            poll.files.write("/w/build.log", size: Int64(size))
            #expect(poll.pass().isEmpty)
        }
        #expect(poll.files.stats - stats == 3)
    }

    /// The times of a directory older than a second prove its names did
    /// not change: only the subtree's top is listed again, every file `stat`-ed.
    @Test func anUnchangedDirectoryIsNotListedAgain() {
        let poll = Polling()
        for directory in ["/w/a", "/w/b", "/w/b/c"] {
            poll.files.mkdir(directory)
            poll.files.write(directory + "/f", size: 1)
        }
        poll.pass()
        poll.pass(after: 2)
        let (listings, stats) = (poll.files.listings, poll.files.stats)
        poll.pass()
        #expect(poll.files.listings - listings == 1)
        #expect(poll.files.stats - stats == 6)
    }

    /// A pass hands out a directory's changes in the step that scans it,
    /// before the rest of the tree is scanned.
    @Test func aDirectorysChangesGoOutWithTheStepThatScannedIt() {
        let poll = Polling()
        poll.files.write("/w/a.txt", size: 1)
        poll.files.mkdir("/w/z")
        poll.pass()
        poll.files.write("/w/a.txt", size: 2)
        poll.files.wall += 1
        poll.machine.beginPass(wall: poll.files.wall)
        let first = poll.events(poll.machine.step(poll.files, now: 60)!)
        let second = poll.events(poll.machine.step(poll.files, now: 60)!)
        #expect(first.isEmpty)
        #expect(second == [event("/w/a.txt", .modified)])
        while let more = poll.machine.step(poll.files, now: 60) { #expect(poll.events(more).isEmpty) }
        #expect(poll.events(poll.machine.endPass(poll.files, now: 60)).isEmpty)
    }
}

extension PollMachineTests {
    /// What git tracks reaches a job from the client's `TrackedFilesRefresh`
    /// and new rules from the reader, on two paths: a filter the reader
    /// sent with an older answer must not take back the newer one the job
    /// already has.
    @Test func newRulesKeepWhatGitTracksAsTheJobLastHeardIt() {
        let polling = Polling()
        let older = polling.machine.filter
        let newer = TrackedFiles(paths: [Array("build/kept.o".utf8)])
        polling.machine.replaceTracked(newer)
        polling.machine.replace(older)
        #expect(polling.machine.filter.tracked == newer)
    }
}
