import SystemPackage
import Testing
import TestSupport
import WatchmanProtocol
@testable import WatchSources

/// What a service's subscription results become: the events a local watch
/// gives for the same changes, temporary files left out (`ServiceChanges`),
/// and rwatch's own rules applied (`ServiceLoop`). Pure: no service, no
/// thread, time passed in.
@Suite struct ServiceChangesTests {
    private typealias File = ServiceChanges.File
    private let real = FilePath("/t/app.c")
    private let temporary = FilePath("/t/app.c.tmp.123")

    @Test func aSaveThroughATemporaryFileIsAModificationOfTheRealFileOnly() {
        var changes = ServiceChanges(window: 0.2)
        // Both halves in one result: the temporary file came and went.
        let events = changes.take([File(path: temporary, exists: false, isNew: true, isDirectory: false),
                                   File(path: real, exists: true, isNew: false, isDirectory: false)], now: 1)
        #expect(events == [FileEvent(path: real, kind: .modified)])
        #expect(changes.nextDeadline == nil)
    }

    @Test func aRealFileReplacedByARenameIsModifiedAtOnceNotHeldAsNew() {
        var changes = ServiceChanges(window: 0.2)
        // Another inode under the real name: new to the service.
        let events = changes.take([File(path: temporary, exists: false, isNew: true, isDirectory: false),
                                   File(path: real, exists: true, isNew: true, isDirectory: false)], now: 1)
        #expect(events == [FileEvent(path: real, kind: .modified)])
        #expect(changes.newFilesDue == nil)
        // Alone in its result, a new file may be a temporary one: held.
        #expect(changes.take([File(path: FilePath("/t/other.c"), exists: true, isNew: true, isDirectory: false)], now: 2).isEmpty)
    }

    @Test func aNewFileUnderANameThatExistedIsAModificationAtOnce() {
        var changes = ServiceChanges(window: 0.2)
        changes.noteExisting(real)
        // The temporary file was never seen by the service: only the real name, another inode.
        #expect(changes.take([File(path: real, exists: true, isNew: true, isDirectory: false)], now: 1) == [FileEvent(path: real, kind: .modified)])
        // Deleted, then made anew: new again, and held.
        #expect(changes.take([File(path: real, exists: false, isNew: false, isDirectory: false)], now: 2) == [FileEvent(path: real, kind: .deleted)])
        #expect(changes.take([File(path: real, exists: true, isNew: true, isDirectory: false)], now: 3).isEmpty)
    }

    @Test func whatWentWhileNobodyWatchedIsItsDirectoryOrTheTopmostDirectoryGone() {
        var changes = ServiceChanges(window: 0.2)
        for path in ["/t/a.c", "/t/b.c", "/t/sub/c.c", "/t/gone/d.c", "/t/gone/deeper/e.c", "/t/same/f.c"] {
            changes.noteExisting(FilePath(path))
        }
        // Reported by the service since: no longer known.
        _ = changes.take([File(path: FilePath("/t/b.c"), exists: false, isNew: false, isDirectory: false)], now: 1)
        let listings: [FilePath: [FilePath.Component]] = ["/t": ["a.c", "sub", "same"], "/t/sub": [], "/t/same": ["f.c"]]
        let events = changes.vanished { listings[$0] }
        #expect(events == [FileEvent(path: "/t/gone", kind: .deleted, isDirectory: true),
                           FileEvent(path: "/t/sub", kind: .modified, isDirectory: true)])
        // Reported once.
        #expect(changes.vanished { listings[$0] }.isEmpty)
    }

    @Test func aSaveSplitAcrossTwoResultsIsStillOneModification() {
        var changes = ServiceChanges(window: 0.2)
        #expect(changes.take([File(path: temporary, exists: true, isNew: true, isDirectory: false)], now: 1).isEmpty)
        #expect(changes.nextDeadline == 1.2)
        let events = changes.take([File(path: temporary, exists: false, isNew: false, isDirectory: false),
                                   File(path: real, exists: true, isNew: true, isDirectory: false)], now: 1.1)
        #expect(events == [FileEvent(path: real, kind: .modified)])
        #expect(changes.expire(now: 1.3) { _ in true }.isEmpty)
    }

    @Test func aNewFileThatStaysIsCreatedOnceTheWindowHasPassedSinceItWasFirstHeardOf() {
        var changes = ServiceChanges(window: 0.2)
        let new = FilePath("/t/new.c")
        #expect(changes.take([File(path: new, exists: true, isNew: true, isDirectory: false)], now: 1).isEmpty)
        // Written again while held: part of its making, not a second change.
        #expect(changes.take([File(path: new, exists: true, isNew: false, isDirectory: false)], now: 1.1).isEmpty)
        #expect(changes.expire(now: 1.19) { _ in true }.isEmpty)
        #expect(changes.expire(now: 1.2) { _ in true } == [FileEvent(path: new, kind: .created)])
        #expect(changes.nextDeadline == nil)
    }

    @Test func aHeldFileGoneWhenItsWindowEndsIsNoChange() {
        var changes = ServiceChanges(window: 0.2)
        #expect(changes.take([File(path: temporary, exists: true, isNew: true, isDirectory: false)], now: 1).isEmpty)
        #expect(changes.expire(now: 2) { _ in false }.isEmpty)
    }

    @Test func deletionsAndDirectoriesPassAtOnce() {
        var changes = ServiceChanges(window: 0.2)
        let directory = FilePath("/t/sub")
        let events = changes.take([File(path: real, exists: false, isNew: false, isDirectory: false),
                                   File(path: directory, exists: true, isNew: true, isDirectory: true),
                                   File(path: FilePath("/t"), exists: true, isNew: false, isDirectory: true),
                                   File(path: FilePath("/t/gone"), exists: false, isNew: false, isDirectory: true)], now: 1)
        #expect(events == [FileEvent(path: real, kind: .deleted), FileEvent(path: directory, kind: .created, isDirectory: true),
                           FileEvent(path: FilePath("/t/gone"), kind: .deleted, isDirectory: true)])
    }

    @Test func everythingHeldGoesOutWhenTheWatchMovesElsewhere() {
        var changes = ServiceChanges(window: 0.2)
        _ = changes.take([File(path: temporary, exists: true, isNew: true, isDirectory: false)], now: 1)
        #expect(changes.releaseAll { _ in true } == [FileEvent(path: temporary, kind: .created)])
    }

    // MARK: The loop: rwatch's rules over a result

    private func result(_ files: [WatchmanValue], name: String = "s", fresh: Bool = false) -> WatchmanValue {
        ["subscription": .string(name), "unilateral": true, "is_fresh_instance": .bool(fresh), "files": .array(files)]
    }

    private func file(_ name: String, exists: Bool = true, new: Bool = false, type: String = "f") -> WatchmanValue {
        ["name": .bytes(Array(name.utf8)), "exists": .bool(exists), "new": .bool(new), "type": .string(type)]
    }

    private func loop(_ root: TemporaryDirectory) -> ServiceLoop {
        let path = FilePath(root.path)
        return ServiceLoop(served: [(path, "s", ServiceFilter(root: path, options: WatchOptions()))], heard: 0)
    }

    @Test func theDefaultIgnoresAndGitignoreApplyToWhatTheServiceReports() {
        let root = TemporaryDirectory()
        defer { root.remove() }
        root.write(".gitignore", "build/\n*.log\n")
        var loop = loop(root)
        let files: [WatchmanValue] = [file("a.c"), file("x.log"), file("build/out.o"), file(".git/index"),
                                      file("src/.b.c.swp"), file("src/b.c")]
        let events = loop.take(result(files), now: 1, wall: 100)
        let paths: [String] = events.map { $0.path.string }
        #expect(paths == [root.path + "/a.c", root.path + "/src/b.c"], "\(events)")
        #expect(loop.heard == 100)
    }

    @Test func aChangedGitignoreDecidesTheNextChanges() {
        let root = TemporaryDirectory()
        defer { root.remove() }
        var loop = loop(root)
        #expect(loop.take(result([file("x.gen")]), now: 1, wall: 1).count == 1)
        root.write(".gitignore", "*.gen\n")
        let events = loop.take(result([file(".gitignore"), file("y.gen")]), now: 2, wall: 2)
        let paths: [String] = events.map { $0.path.string }
        #expect(paths == [root.path + "/.gitignore"], "\(events)")
    }

    @Test func aFreshInstanceIsAnOverflowAndACancellationEndsTheService() {
        let root = TemporaryDirectory()
        defer { root.remove() }
        var loop = loop(root)
        #expect(loop.take(result([], fresh: true), now: 1, wall: 1) == [FileEvent(path: FilePath(root.path), kind: .overflow)])
        #expect(loop.take(result([file("a")], name: "other"), now: 1, wall: 1).isEmpty)
        #expect(!loop.cancelled)
        _ = loop.take(["subscription": "s", "unilateral": true, "canceled": true], now: 1, wall: 1)
        #expect(loop.cancelled)
    }
}
