import Testing
@testable import WatchSources

/// How one pass's appearances and disappearances become events.
@Suite struct PollChangesTests {
    private func item(_ path: String, inode: UInt64, size: Int64 = 1, modified: Int64 = 100, directory: Bool = false,
                      reported: Bool = true, replaced: Bool = false) -> PollChanges.Item {
        PollChanges.Item(path: Array(path.utf8), identity: .init(device: 1, inode: inode), size: size, modified: modified,
                         isDirectory: directory, reported: reported, replaced: replaced)
    }

    private func summary(_ events: [FileEvent]) -> [String] { events.map { "\($0.kind.rawValue) \($0.path)" } }

    @Test func anInodeUnderANewNameIsAMoveWithOneCookie() {
        var changes = PollChanges()
        changes.vanished = [item("/t/a", inode: 7)]
        changes.appeared = [item("/t/sub/b", inode: 7)]
        let events = changes.events()
        #expect(summary(events) == ["movedFrom /t/a", "movedTo /t/sub/b"])
        #expect(events[0].cookie == events[1].cookie && events[0].cookie != 0)
    }

    @Test func aReusedInodeNumberWithAnotherMtimeIsNotAMove() {
        var changes = PollChanges()
        changes.vanished = [item("/t/old", inode: 7, modified: 100)]
        changes.appeared = [item("/t/new", inode: 7, modified: 250)]
        #expect(summary(changes.events()) == ["deleted /t/old", "created /t/new"])
    }

    @Test func aReplacedFileIsOneModification() {
        // write to a temporary name, rename over: the path stays, its inode changes.
        var changes = PollChanges()
        changes.vanished = [item("/t/main.swift", inode: 7, replaced: true)]
        changes.appeared = [item("/t/main.swift", inode: 9, replaced: true)]
        #expect(summary(changes.events()) == ["modified /t/main.swift"])
    }

    @Test func aRenameOverAnotherFileIsAMoveOnly() {
        var changes = PollChanges()
        changes.vanished = [item("/t/a", inode: 7), item("/t/b", inode: 8, replaced: true)]
        changes.appeared = [item("/t/b", inode: 7, replaced: true)]
        #expect(summary(changes.events()) == ["movedFrom /t/a", "movedTo /t/b"])
    }

    @Test func unreportedPathsStayQuiet() {
        var changes = PollChanges()
        changes.vanished = [item("/t/x.o", inode: 3, reported: false)]
        changes.appeared = [item("/t/y.o", inode: 4, reported: false), item("/t/dir", inode: 5, directory: true)]
        #expect(summary(changes.events()) == ["created /t/dir"])
    }

    @Test func deletionsComeBeforeMovesAndCreations() {
        var changes = PollChanges()
        changes.appeared = [item("/t/new", inode: 2)]
        changes.vanished = [item("/t/gone", inode: 1)]
        changes.directoryMoves = [.init(from: Array("/t/d1".utf8), to: Array("/t/d2".utf8), fromReported: true, toReported: true)]
        #expect(summary(changes.events()) == ["deleted /t/gone", "movedFrom /t/d1", "movedTo /t/d2", "created /t/new"])
    }
}
