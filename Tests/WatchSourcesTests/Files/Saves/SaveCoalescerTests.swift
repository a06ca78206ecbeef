import SystemPackage
import Testing
@testable import WatchSources

/// Each editor's save, as the reader feeds it to the coalescer (ignored
/// names already dropped), on a clock the test moves: what comes out, and
/// when.
@Suite struct SaveCoalescerTests {
    private let path = FilePath("/src/app.c")

    private func event(_ kind: FileEvent.Kind) -> FileEvent { FileEvent(path: path, kind: kind) }

    /// Feeds `steps` (an event, or a clock reading to expire at) and
    /// returns what was delivered after each step.
    private func run(_ coalescer: inout SaveCoalescer, _ steps: [(Double, FileEvent.Kind?)]) -> [[FileEvent.Kind]] {
        steps.map { time, kind in
            guard let kind else { return coalescer.expire(now: time).map(\.kind) }
            return coalescer.pass(event(kind), now: time).map(\.kind)
        }
    }

    @Test func anInPlaceWriteIsDeliveredWholeWhenClosed() {
        var coalescer = SaveCoalescer()
        let out = run(&coalescer, [(0, .modified), (0.001, .modified), (0.002, .closedWrite)])
        #expect(out == [[], [], [.modified, .closedWrite]])
    }

    @Test func aWriterThatKeepsTheFileOpenIsNotWaitedForLongerThanTheCap() {
        var coalescer = SaveCoalescer(openWriteCap: 0.5)
        let out = run(&coalescer, [(0, .modified), (0.2, .modified), (0.49, nil), (0.5, nil), (0.7, .modified), (1.2, nil)])
        #expect(out == [[], [], [], [.modified], [], [.modified]])
        // Remembered until its close, or for `flushedMemory`.
        #expect(coalescer.expire(now: 1.2 + coalescer.flushedMemory).isEmpty)
        #expect(coalescer.isEmpty)
    }

    /// A writer held up between its last write and its close (an fsync
    /// under load, an upload's last flush) past the cap: what it wrote went
    /// out at the cap, and the close, with nothing written since, completes
    /// that change. It is delivered (a script waits for it), marked, so
    /// that batching for runs leaves it out: unmarked, it made a second run
    /// of one save (vim's in-place write at load 8).
    @Test func aCloseLongAfterTheLastWriteCompletesTheReportedWrite() {
        var coalescer = SaveCoalescer(openWriteCap: 0.5, settle: 0.1)
        let out = run(&coalescer, [(0, .modified), (0.001, .modified), (0.5, nil)])
        #expect(out == [[], [], [.modified]])
        let close = coalescer.pass(event(.closedWrite), now: 0.9)
        #expect(close == [FileEvent(path: path, kind: .closedWrite, closesReportedWrite: true)])
        // The save's attribute change is part of it, as after any save.
        #expect(coalescer.pass(event(.attributes), now: 0.95).isEmpty)
        #expect(coalescer.expire(now: 1.0).isEmpty)
        #expect(coalescer.isEmpty)
    }

    /// Only that close is marked: an ordinary one, and a close after a
    /// further write, are not.
    @Test func onlyACloseWithNothingNewToReportIsMarked() {
        var coalescer = SaveCoalescer(openWriteCap: 0.5)
        let ordinary = coalescer.pass(event(.modified), now: 0) + coalescer.pass(event(.closedWrite), now: 0.1)
        #expect(ordinary.allSatisfy { !$0.closesReportedWrite })
        _ = coalescer.pass(event(.modified), now: 1)
        _ = coalescer.expire(now: 1.5)
        let rewritten = coalescer.pass(event(.modified), now: 1.6) + coalescer.pass(event(.closedWrite), now: 1.7)
        #expect(rewritten.map(\.kind) == [.modified, .closedWrite])
        #expect(rewritten.allSatisfy { !$0.closesReportedWrite })
    }

    /// What a writer adds after the cap released its first part is a new
    /// change, delivered whole at its close.
    @Test func aWriteAfterTheCapIsDeliveredAtTheClose() {
        var coalescer = SaveCoalescer(openWriteCap: 0.5)
        let out = run(&coalescer, [(0, .modified), (0.5, nil), (0.7, .modified), (0.8, .closedWrite)])
        #expect(out == [[], [.modified], [], [.modified, .closedWrite]])
    }

    /// A symbolic link, a FIFO or one more link to a file is complete when
    /// it appears: no write follows, so its creation is not held for one,
    /// only for the fresh window (`ln -sf` renames a link made under a
    /// temporary name over the old one).
    @Test func aNameMadeWholeAtOnceWaitsOnlyTheFreshWindow() {
        var coalescer = SaveCoalescer(openWriteCap: 0.5, freshWindow: 0.2)
        #expect(coalescer.pass(event(.created), now: 0, origin: .complete).isEmpty)
        #expect(coalescer.expire(now: 0.19).isEmpty)
        #expect(coalescer.expire(now: 0.2).map(\.kind) == [.created])
        #expect(coalescer.isEmpty)
    }

    /// A save that links the new file in place of the old one (link(2)
    /// after a rename to a backup name) is one modification, as any other.
    @Test func aLinkInPlaceOfAVanishedPathIsOneModification() {
        var coalescer = SaveCoalescer()
        #expect(coalescer.hold(FileEvent(path: path, kind: .movedFrom), now: 0).isEmpty)
        #expect(coalescer.pass(event(.created), now: 0.001, origin: .complete).map(\.kind) == [.modified])
    }

    /// What is held below a directory that moves away would come out later
    /// under a path that no longer exists, after events that happened after
    /// it: it goes out before the move, in the order it happened.
    @Test func whatIsHeldBelowADirectoryMovedAwayGoesOutBeforeTheMove() {
        var coalescer = SaveCoalescer()
        let first = FileEvent(path: "/src/d/first", kind: .created)
        let second = FileEvent(path: "/src/d/sub/second", kind: .created)
        let outside = FileEvent(path: "/src/dx/other", kind: .created)
        #expect(coalescer.pass(first, now: 0).isEmpty)
        #expect(coalescer.pass(second, now: 0.1).isEmpty)
        #expect(coalescer.pass(outside, now: 0.2).isEmpty)
        let move = FileEvent(path: "/src/d", kind: .movedFrom, isDirectory: true, cookie: 7)
        #expect(coalescer.pass(move, now: 0.3) == [first, second, move])
        // A sibling whose name merely starts the same stays held.
        #expect(coalescer.expire(now: .infinity) == [outside])
    }

    @Test func vimsBackupRenameWriteAndChmodAreOneModification() {
        var coalescer = SaveCoalescer()
        var delivered = coalescer.hold(FileEvent(path: path, kind: .movedFrom), now: 0).map(\.kind)
        delivered += run(&coalescer, [(0.001, .created), (0.002, .modified), (0.003, .closedWrite), (0.004, .attributes)])
            .flatMap { $0 }
        #expect(delivered == [.modified, .closedWrite])
        // Nothing left to release later.
        #expect(coalescer.expire(now: .infinity).isEmpty)
    }

    /// Polling: one pass finds the file renamed to its backup name, a
    /// later one the file written anew, whole (`origin: .scan`).
    @Test func aBackupRenameThenTheFileFoundByAScanIsOneModification() {
        var coalescer = SaveCoalescer()
        #expect(coalescer.hold(FileEvent(path: path, kind: .movedFrom), now: 0).isEmpty)
        let out = coalescer.pass(FileEvent(path: path, kind: .created), now: 0.3, origin: .scan)
        #expect(out.map(\.kind) == [.modified])
        #expect(coalescer.expire(now: .infinity).isEmpty)
    }

    @Test func aSaveThroughATemporaryNameIsOneModificationAndLeavesNothingHeld() {
        // JetBrains: app.c → app.c___jb_old___ (held), app.c___jb_tmp___ → app.c.
        var coalescer = SaveCoalescer()
        #expect(coalescer.hold(FileEvent(path: path, kind: .movedFrom), now: 0).isEmpty)
        let out = coalescer.pass(FileEvent(path: path, kind: .modified), now: 0.001, origin: .replacement)
        #expect(out.map(\.kind) == [.modified])
        #expect(coalescer.expire(now: .infinity).isEmpty)
    }

    @Test func touchIsOneDelivery() {
        var coalescer = SaveCoalescer()
        #expect(run(&coalescer, [(0, .attributes), (0.001, .closedWrite)]) == [[], [.attributes, .closedWrite]])
    }

    /// A new file is delivered whole once its writer closed it and it
    /// stayed for the fresh window.
    @Test func aNewFileIsDeliveredOnceClosedAndThere() {
        var coalescer = SaveCoalescer(freshWindow: 0.2)
        let out = run(&coalescer, [(0, .created), (0.001, .modified), (0.002, .closedWrite), (0.15, nil), (0.202, nil)])
        #expect(out == [[], [], [], [], [.created, .modified, .closedWrite]])
        #expect(coalescer.isEmpty)
    }

    /// Written again before the window ends, it is held to that close too.
    @Test func aNewFileWrittenAgainIsHeldToItsNextClose() {
        var coalescer = SaveCoalescer(freshWindow: 0.2)
        let out = run(&coalescer, [(0, .created), (0.01, .closedWrite), (0.1, .modified), (0.25, nil), (0.3, .closedWrite), (0.5, nil)])
        #expect(out == [[], [], [], [], [], [.created, .closedWrite, .modified]])
    }

    /// vim's `4913` probe, gofmt's backup: made and deleted before anyone
    /// heard of it, while written or after: no change at all.
    @Test(arguments: [0.001, 0.1]) func aNewFileDeletedBeforeItWasReportedIsNoChange(_ deletedAt: Double) {
        var coalescer = SaveCoalescer(freshWindow: 0.2)
        let steps: [(Double, FileEvent.Kind?)] = deletedAt < 0.002 ? [(0, .created), (deletedAt, .deleted)]
            : [(0, .created), (0.002, .closedWrite), (deletedAt, .deleted)]
        #expect(run(&coalescer, steps).allSatisfy { $0.isEmpty })
        #expect(coalescer.expire(now: .infinity).isEmpty)
        #expect(coalescer.isEmpty)
    }

    /// A temporary file whose fsync outlasts the open-write cap (a loaded
    /// disk) is still waited for, up to the vanishing window: then it is
    /// released, as any new file written that long.
    @Test func aNewFileIsWaitedForPastTheOpenWriteCap() {
        var coalescer = SaveCoalescer(window: 1, openWriteCap: 0.5, freshWindow: 0.2)
        let temporary = FilePath("/src/.tmpAb12Cd")
        var out = coalescer.pass(FileEvent(path: temporary, kind: .created), now: 0)
        out += coalescer.expire(now: 0.6)
        out += coalescer.pass(FileEvent(path: temporary, kind: .closedWrite), now: 0.8)
        #expect(out.isEmpty)
        let renamed = coalescer.renamed(from: FileEvent(path: temporary, kind: .movedFrom, cookie: 1),
                                        to: FileEvent(path: path, kind: .movedTo, cookie: 1), now: 0.81)
        #expect(renamed.map(\.kind) == [.modified])
        _ = coalescer.pass(FileEvent(path: temporary, kind: .created), now: 2)
        #expect(coalescer.expire(now: 2.9).isEmpty)
        #expect(coalescer.expire(now: 3).map(\.kind) == [.created])
    }

    /// A file that existed and is deleted while written: what was held goes out first.
    @Test func aFileDeletedWhileWrittenReleasesWhatWasHeld() {
        var coalescer = SaveCoalescer()
        #expect(run(&coalescer, [(0, .modified), (0.001, .deleted)]) == [[], [.modified, .deleted]])
        #expect(coalescer.isEmpty)
    }

    /// `NAME.tmp.123` (or `.NAME.swp~tmp`, an atomic-write library's name,
    /// `sed -i`'s) written, closed, renamed over `NAME`: one modification
    /// of `NAME`, nothing of the temporary file.
    @Test func aTemporaryFileRenamedOverTheRealOneIsAModificationOfItOnly() {
        var coalescer = SaveCoalescer(freshWindow: 0.2)
        let temporary = FilePath("/src/app.c.tmp.123")
        var out = coalescer.pass(FileEvent(path: temporary, kind: .created), now: 0)
        out += coalescer.pass(FileEvent(path: temporary, kind: .modified), now: 0.001)
        out += coalescer.pass(FileEvent(path: temporary, kind: .closedWrite), now: 0.002)
        #expect(out.isEmpty)
        let renamed = coalescer.renamed(from: FileEvent(path: temporary, kind: .movedFrom, cookie: 9),
                                        to: FileEvent(path: path, kind: .movedTo, cookie: 9), now: 0.003)
        #expect(renamed == [FileEvent(path: path, kind: .modified)])
        // The save's attribute change is part of it; nothing is left.
        #expect(coalescer.pass(event(.attributes), now: 0.004).isEmpty)
        #expect(coalescer.expire(now: .infinity).isEmpty)
    }

    /// Renamed while still open (written, renamed, then closed), the same.
    @Test func aTemporaryFileRenamedBeforeItsCloseIsAModificationOfTheRealOne() {
        var coalescer = SaveCoalescer()
        let temporary = FilePath("/src/.app.c.swp~tmp")
        #expect(coalescer.pass(FileEvent(path: temporary, kind: .created), now: 0).isEmpty)
        let renamed = coalescer.renamed(from: FileEvent(path: temporary, kind: .movedFrom, cookie: 3),
                                        to: FileEvent(path: path, kind: .movedTo, cookie: 3), now: 0.001)
        #expect(renamed.map(\.kind) == [.modified])
        #expect(coalescer.pass(event(.closedWrite), now: 0.002).map(\.kind) == [.closedWrite])
        #expect(coalescer.expire(now: .infinity).isEmpty)
    }

    /// A new file renamed to a name nobody reports, or out of the tree:
    /// it came and went unseen.
    @Test func aNewFileRenamedAwayIsNoChange() {
        var coalescer = SaveCoalescer()
        let made = FileEvent(path: path, kind: .created)
        _ = coalescer.pass(made, now: 0)
        _ = coalescer.pass(event(.closedWrite), now: 0.001)
        #expect(coalescer.renamed(from: FileEvent(path: path, kind: .movedFrom, cookie: 4), to: nil, now: 0.002).isEmpty)
        _ = coalescer.pass(made, now: 1)
        #expect(coalescer.pass(FileEvent(path: path, kind: .movedFrom, cookie: 5), now: 1.001).isEmpty)
        #expect(coalescer.expire(now: .infinity).isEmpty)
    }

    /// Held past the window, a temporary file was reported; its rename is
    /// then a rename (`ChangeBatch` still drops it when both fall in one batch).
    @Test func aFileRenamedAfterTheWindowIsARename() {
        var coalescer = SaveCoalescer(freshWindow: 0.2)
        let temporary = FilePath("/src/download.part")
        _ = coalescer.pass(FileEvent(path: temporary, kind: .created), now: 0)
        _ = coalescer.pass(FileEvent(path: temporary, kind: .closedWrite), now: 0.01)
        #expect(coalescer.expire(now: 0.3).map(\.kind) == [.created, .closedWrite])
        let renamed = coalescer.renamed(from: FileEvent(path: temporary, kind: .movedFrom, cookie: 2),
                                        to: FileEvent(path: path, kind: .movedTo, cookie: 2), now: 5)
        #expect(renamed.map(\.kind) == [.movedFrom, .movedTo])
    }

    @Test func aVanishedPathThatStaysGoneIsReleasedAfterTheWindow() {
        var coalescer = SaveCoalescer(window: 1)
        #expect(coalescer.hold(FileEvent(path: path, kind: .movedFrom), now: 0).isEmpty)
        #expect(coalescer.expire(now: 0.9).isEmpty)
        #expect(coalescer.expire(now: 1).map(\.kind) == [.movedFrom])
    }

    @Test func anAttributeChangeLongAfterASaveIsItsOwnChange() {
        var coalescer = SaveCoalescer(settle: 0.1)
        _ = run(&coalescer, [(0, .modified), (0.001, .closedWrite)])
        #expect(coalescer.expire(now: 0.2).isEmpty)
        #expect(run(&coalescer, [(5, .attributes), (5.6, nil)]) == [[], [.attributes]])
    }

    @Test func whatAScanFindsIsDeliveredAtOnce() {
        var coalescer = SaveCoalescer()
        #expect(coalescer.pass(event(.created), now: 0, origin: .scan).map(\.kind) == [.created])
        #expect(coalescer.isEmpty)
    }

    @Test func pathsAreReleasedInTheOrderTheirTimeRunsOut() {
        var coalescer = SaveCoalescer(window: 1, openWriteCap: 0.5)
        let renamed = FilePath("/src/a.c"), written = FilePath("/src/b.c")
        #expect(coalescer.hold(FileEvent(path: renamed, kind: .movedFrom), now: 0).isEmpty)
        #expect(coalescer.pass(FileEvent(path: written, kind: .modified), now: 0.2).isEmpty)
        #expect(coalescer.nextDeadline == 0.7)
        #expect(coalescer.expire(now: 2).map(\.path) == [written, renamed])
        // The unclosed write is remembered for its close, then forgotten.
        #expect(coalescer.nextDeadline == 0.7 + coalescer.flushedMemory)
        #expect(coalescer.expire(now: 0.7 + coalescer.flushedMemory).isEmpty)
        #expect(coalescer.isEmpty)
        #expect(coalescer.nextDeadline == nil)
    }

    @Test func aWriteClosedInTimeLeavesNoWakeUpBehind() {
        var coalescer = SaveCoalescer(openWriteCap: 0.5, settle: 0.1)
        #expect(run(&coalescer, [(0, .modified), (0.01, .closedWrite)]) == [[], [.modified, .closedWrite]])
        #expect(coalescer.nextDeadline == 0.11)
        #expect(coalescer.expire(now: 0.11).isEmpty)
        #expect(coalescer.nextDeadline == nil)
    }

    /// A new file written and closed again every 20 ms (a log reopened
    /// per line, a probe a benchmark appends to until it is seen) is held
    /// as new only up to `window` after it appeared: re-arming the wait at
    /// each write held it for as long as the writes went on, and a watcher
    /// armed just before the file appeared never reported it.
    @Test func aNewFileWrittenAndClosedOverAndOverIsReleasedAfterTheWindow() {
        var coalescer = SaveCoalescer(window: 1.0)
        var out = coalescer.pass(event(.created), now: 0)
        var time = 0.0
        while time < 3, out.isEmpty {
            time += 0.02
            out += coalescer.expire(now: time)
            out += coalescer.pass(event(.modified), now: time)
            out += coalescer.pass(event(.closedWrite), now: time + 0.001)
        }
        #expect(out.first?.kind == .created)
        #expect(time <= 1.25, "released at \(time)")
    }
}
