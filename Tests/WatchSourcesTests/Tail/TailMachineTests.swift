import Testing
@testable import WatchSources

/// `TailMachine` alone: what `tail -F` decides about one name, with no
/// file, thread or wait.
@Suite struct TailMachineTests {
    /// A machine following a regular file opened at subscription.
    private func following(_ kind: TailMachine.Kind = .file) -> TailMachine {
        var machine = TailMachine()
        machine.subscribed(.opened(kind))
        return machine
    }

    @Test func aFileOpenedAtSubscriptionIsFollowedWithoutANotice() {
        var machine = TailMachine()
        machine.subscribed(.opened(.file))
        #expect(machine.state == .following(.file))
        #expect(machine.looked(.openFile) == [])
    }

    @Test func aNameThatAppearsIsOpenedAndReadFromItsBeginning() {
        var machine = TailMachine()
        machine.subscribed(.nothing)
        #expect(machine.looked(.missing) == [])
        #expect(machine.state == .waiting)
        #expect(machine.looked(.otherFile) == [.open])
        #expect(machine.opened(.opened(.file)) == [.notice(.appeared), .readToEnd])
        #expect(machine.state == .following(.file))
    }

    /// logrotate `create`: the name goes (the old file is still read),
    /// then a new file takes it: the old one's rest and last line first.
    @Test func renameAndRecreateReadsTheOldFileToItsEndFirst() {
        var machine = following()
        #expect(machine.looked(.missing) == [])
        #expect(machine.state == .orphaned(.file))
        #expect(machine.looked(.otherFile) == [.readToEnd, .finishLine, .close, .open])
        #expect(machine.opened(.opened(.file)) == [.notice(.rotated), .readToEnd])
        #expect(machine.state == .following(.file))
    }

    @Test func aFileRenamedBackIsFollowedAgain() {
        var machine = following()
        _ = machine.looked(.missing)
        #expect(machine.looked(.openFile) == [])
        #expect(machine.state == .following(.file))
    }

    /// A new file that cannot be opened (a directory, or gone again) is
    /// waited for; the next look tries again, as an appearance.
    @Test func aRotationWhoseNewFileCannotBeOpenedWaits() {
        var machine = following()
        _ = machine.looked(.otherFile)
        #expect(machine.opened(.nothing) == [])
        #expect(machine.state == .waiting)
        #expect(machine.looked(.otherFile) == [.open])
        #expect(machine.opened(.opened(.file)) == [.notice(.appeared), .readToEnd])
    }

    @Test func aDeletedFileIsClosedAndItsNameWaitedFor() {
        var machine = following()
        #expect(machine.openFileDeleted() == [.finishLine, .close])
        #expect(machine.state == .gone)
        #expect(machine.looked(.missing) == [.notice(.waiting)])
        #expect(machine.looked(.missing) == [])
        #expect(machine.looked(.otherFile) == [.open])
        #expect(machine.opened(.opened(.file)) == [.notice(.appeared), .readToEnd])
    }

    /// Deleted and made again between two looks: an appearance, not a rotation.
    @Test func aFileDeletedAndMadeAgainAppears() {
        var machine = following()
        _ = machine.openFileDeleted()
        #expect(machine.looked(.otherFile) == [.open])
        #expect(machine.opened(.opened(.file)) == [.notice(.appeared), .readToEnd])
    }

    /// copytruncate: shorter than what was read means start over.
    @Test func aShorterFileIsReadAgainFromItsBeginning() {
        let machine = following()
        #expect(machine.sized(10, offset: 10) == [])
        #expect(machine.sized(20, offset: 10) == [])
        #expect(machine.sized(0, offset: 10) == [.finishLine, .startOver, .notice(.truncated)])
    }

    @Test func aFIFOIsOpenedAgainForItsNextWriter() {
        var machine = following(.stream)
        #expect(machine.streamEnded(reopens: true) == [.finishLine, .reopen])
        #expect(machine.opened(.opened(.stream)) == [])
        #expect(machine.state == .following(.stream))
    }

    @Test func aFIFOReplacedByAFileIsARotation() {
        var machine = following(.stream)
        _ = machine.streamEnded(reopens: true)
        #expect(machine.opened(.opened(.file)) == [.notice(.rotated), .readToEnd])
    }

    @Test func aFIFOGoneAtItsEndIsWaitedFor() {
        var machine = following(.stream)
        _ = machine.streamEnded(reopens: true)
        #expect(machine.opened(.nothing) == [.notice(.waiting)])
        #expect(machine.state == .waiting)
    }

    @Test func aPipeAtItsEndFinishesTheName() {
        var machine = following(.stream)
        #expect(machine.streamEnded(reopens: false) == [.finishLine, .close])
        #expect(machine.isFinished)
        #expect(machine.looked(.otherFile) == [])
        #expect(machine.openFileDeleted() == [])
    }

    @Test func aDeletedStreamIsDrainedBeforeItIsClosed() {
        var machine = following(.stream)
        #expect(machine.openFileDeleted() == [.drainStream, .finishLine, .close])
    }

    @Test func aStreamReplacedUnderItsNameIsDrainedFirst() {
        var machine = following(.stream)
        #expect(machine.looked(.otherFile) == [.drainStream, .finishLine, .close, .open])
    }

    /// Only an open stream ends; only an open file is deleted.
    @Test func eventsThatDoNotApplyChangeNothing() {
        var machine = following()
        #expect(machine.streamEnded(reopens: true) == [])
        #expect(machine.state == .following(.file))
        var waiting = TailMachine()
        #expect(waiting.openFileDeleted() == [])
        #expect(waiting.opened(.opened(.file)) == [])
        #expect(waiting.state == .waiting)
    }
}
