import SystemPackage
import Testing
@testable import WatchSources

/// One rule decides a save, whichever backend saw it: the same save, as
/// the kernel reports it, as poll passes find it and as a service's
/// results say it, comes out as the same events from `SaveCoalescer`.
@Suite struct OneSaveRuleTests {
    private let real = FilePath("/w/app.c")
    private let temporary = FilePath("/w/app.c.tmp.123")
    private typealias File = ServiceChanges.File

    // MARK: A save through a temporary file

    @Test func aTemporaryFileRenamedOverTheRealOneIsOneModificationOnEveryBackend() {
        // The kernel: the temporary file made, written, closed, renamed over.
        var kernel = SaveCoalescer()
        var fromKernel = kernel.pass(FileEvent(path: temporary, kind: .created), now: 1)
        fromKernel += kernel.pass(FileEvent(path: temporary, kind: .modified), now: 1)
        fromKernel += kernel.pass(FileEvent(path: temporary, kind: .closedWrite), now: 1.01)
        fromKernel += kernel.renamed(from: FileEvent(path: temporary, kind: .movedFrom), to: FileEvent(path: real, kind: .movedTo),
                                     now: 1.02)
        fromKernel += kernel.expire(now: .infinity)

        // Polling: one pass sees the temporary file, the next sees it renamed.
        let poll = PollMachineTests.Polling()
        poll.files.write("/w/app.c", size: 3)
        poll.pass()
        poll.files.write("/w/app.c.tmp.123", size: 4)
        var fromPolling = poll.pass(after: 0.05)
        poll.files.remove("/w/app.c")
        poll.files.rename("/w/app.c.tmp.123", to: "/w/app.c")
        for _ in 0..<6 { fromPolling += poll.pass(after: 0.1) }

        // A service: one result has the temporary file, the next the rename.
        var service = ServiceChanges(window: 0.2)
        service.noteExisting(real)
        var fromService = service.take([File(path: temporary, exists: true, isNew: true, isDirectory: false)], now: 1)
        fromService += service.take([File(path: temporary, exists: false, isNew: false, isDirectory: false),
                                     File(path: real, exists: true, isNew: true, isDirectory: false)], now: 1.05)
        fromService += service.releaseAll { _ in true }

        let one = [FileEvent(path: real, kind: .modified)]
        #expect(fromKernel == one)
        #expect(fromPolling == one)
        #expect(fromService == one)
    }

    // MARK: A rewrite in place caught half done

    /// A rewrite in place (truncate, then write) whose writer is held up
    /// between the two: every backend gives one change, not two.
    @Test func aRewriteInPlaceSeenEmptyIsOneChangeOnEveryBackend() {
        // The kernel: held until the close.
        var kernel = SaveCoalescer()
        var fromKernel = kernel.pass(FileEvent(path: real, kind: .modified), now: 1)
        fromKernel += kernel.pass(FileEvent(path: real, kind: .modified), now: 1.1)
        fromKernel += kernel.pass(FileEvent(path: real, kind: .closedWrite), now: 1.1)

        let poll = PollMachineTests.Polling()
        poll.files.write("/w/app.c", size: 7)
        poll.pass()
        poll.files.write("/w/app.c", size: 0)
        var fromPolling = poll.pass(after: 0.05)
        poll.files.write("/w/app.c", size: 12)
        fromPolling += poll.pass(after: 0.05)

        // A service: one result after the truncation, the next after the write.
        var service = ServiceChanges(window: 0.2)
        service.noteExisting(real)
        var fromService = service.take([File(path: real, exists: true, isNew: false, isDirectory: false, size: 0)], now: 1)
        fromService += service.take([File(path: real, exists: true, isNew: false, isDirectory: false, size: 12)], now: 1.1)
        fromService += service.releaseAll { _ in true }

        #expect(fromKernel.map(\.kind) == [.modified, .closedWrite])
        #expect(fromPolling == [FileEvent(path: real, kind: .modified)])
        #expect(fromService == [FileEvent(path: real, kind: .modified)])
    }

    /// Emptied and never written again: the emptying was the change, once
    /// the save window is over.
    @Test func aFileEmptiedForGoodIsOneChangeOnceTheWindowIsOver() {
        var service = ServiceChanges(window: 0.2)
        service.noteExisting(real)
        #expect(service.take([File(path: real, exists: true, isNew: false, isDirectory: false, size: 0)], now: 1).isEmpty)
        #expect(service.expire(now: 1.19) { _ in true }.isEmpty)
        #expect(service.expire(now: 1.2) { _ in true } == [FileEvent(path: real, kind: .modified)])
        #expect(service.take([File(path: real, exists: true, isNew: false, isDirectory: false, size: 3)], now: 2)
                == [FileEvent(path: real, kind: .modified)])
    }

    // MARK: Looks

    /// A look sees a new file complete: held `fresh`, no close awaited,
    /// and released by the first expiry after the window.
    @Test func aNewFileALookFindsIsHeldForTheWindowThenCreated() {
        var rule = SaveCoalescer(freshWindow: 0.2)
        #expect(rule.pass(FileEvent(path: real, kind: .created), now: 1, origin: .look).isEmpty)
        #expect(rule.holdsNew(real))
        // Written again meanwhile: still its making.
        #expect(rule.pass(FileEvent(path: real, kind: .modified), now: 1.1, origin: .look).isEmpty)
        #expect(rule.expire(now: 1.19).isEmpty)
        #expect(rule.expire(now: 1.2) == [FileEvent(path: real, kind: .created)])
        #expect(!rule.holdsNewFiles)
    }

    /// A reported file renamed to a backup name, then a new file under
    /// the real name found by a later look: one modification (vim's save).
    @Test func aBackupRenameThenANewFileFoundByALookIsOneModification() {
        var rule = SaveCoalescer()
        #expect(rule.renamed(from: FileEvent(path: real, kind: .movedFrom), to: nil, now: 1).isEmpty)
        #expect(rule.pass(FileEvent(path: real, kind: .created), now: 1.1, origin: .look) == [FileEvent(path: real, kind: .modified)])
        // The mode set after it, seen by the next look: the same save.
        #expect(rule.pass(FileEvent(path: real, kind: .attributes), now: 1.15, origin: .look).isEmpty)
        #expect(rule.expire(now: .infinity).isEmpty)
    }
}
