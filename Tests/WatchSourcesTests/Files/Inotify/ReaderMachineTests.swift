import Glibc
import Signals
import SystemPackage
import Testing
@testable import WatchSources

/// The inotify reader's decisions, without a thread, a descriptor or a
/// clock: `ReaderMachine` over an in-memory tree, fed the records the
/// kernel would queue, at moments the test chooses.
@Suite struct ReaderMachineTests {
    /// A file system in memory, and the kernel's watches on it.
    struct MemorySystem: ReaderSystem {
        var directories: Set<FilePath>
        var files: Set<FilePath> = []
        /// Directories there, but closed to this user (`chmod 000`).
        var locked: Set<FilePath> = []
        /// Watched directories and their descriptors.
        var watches: [FilePath: Int32] = [:]
        var nextWD: Int32 = 1
        var watchCalls = 0
        var unwatched: [Int32] = []

        mutating func watch(_ directory: FilePath) -> InotifyInstance.Outcome {
            watchCalls += 1
            guard directories.contains(directory) else { return .failed(errno: ENOENT) }
            guard !locked.contains(directory) else { return .failed(errno: EACCES) }
            if let wd = watches[directory] { return .watching(wd: wd) }
            defer { nextWD += 1 }
            watches[directory] = nextWD
            return .watching(wd: nextWD)
        }

        mutating func unwatch(_ wd: Int32) {
            unwatched.append(wd)
            watches = watches.filter { $0.value != wd }
        }

        func watchLimit() -> Int { 8192 }

        func watchHolders() -> String? { nil }

        func kind(_ path: FilePath, follow: Bool) -> FileSystem.Kind {
            directories.contains(path) ? .directory : files.contains(path) ? .other : .missing
        }

        func isMadeWhole(_ path: FilePath) -> Bool { false }

        func changeTime(_ path: FilePath) -> Double? { files.contains(path) ? 0 : nil }

        func forEachEntry(in directory: FilePath, _ body: (UnsafeBufferPointer<UInt8>, _ isDirectory: Bool) -> Void) -> Bool {
            guard directories.contains(directory), !locked.contains(directory) else { return false }
            for (path, isDirectory) in directories.map({ ($0, true) }) + files.map({ ($0, false) })
            where path != directory && path.removingLastComponent() == directory {
                path.lastComponent!.withBytes { body($0, isDirectory) }
            }
            return true
        }

        mutating func mounts() -> MountTable { MountTable(mounts: []) }

        func tracked(_ lookups: [TrackedFiles.Lookup]) -> [FilePath: TrackedFiles] { [:] }
    }

    typealias Machine = ReaderMachine<MemorySystem>

    private static let options = WatchOptions(useVCSIgnore: false, useProjectIgnore: false, useGlobalIgnore: false, backend: .inotify)
    private static let start = ReaderTime(monotonic: 100, wall: 1_000_000)

    /// /mem/root with a/, a/b/, c/ and a file in each.
    private func machine() -> Machine {
        var system = MemorySystem(directories: ["/mem", "/mem/root", "/mem/root/a", "/mem/root/a/b", "/mem/root/c"])
        system.files = ["/mem/root/top.txt", "/mem/root/a/one.txt", "/mem/root/a/b/two.txt", "/mem/root/c/three.txt"]
        return Machine(system: system, now: Self.start)
    }

    private func client(_ id: Int, _ root: FilePath) -> ReaderClient {
        ReaderClient(id: id, paths: [root], options: Self.options, sink: EventSink(observer: Observer { _ in }, kinds: WatchOptions.allKinds))
    }

    private func record(_ machine: Machine, in directory: FilePath, _ mask: UInt32, _ name: String?, cookie: UInt32 = 0) -> InotifyRecord {
        InotifyRecord(wd: machine.system.watches[directory]!, mask: mask, cookie: cookie, name: name.map { FilePath.Component($0)! })
    }

    /// The events the actions send, in order.
    private func sent(_ actions: [Machine.Action]) -> [FileEvent] {
        actions.flatMap { action -> [FileEvent] in
            if case .send(let events, _) = action { return events }
            return []
        }
    }

    /// What one input sends, plus what the coalescers hold and release later.
    private func settle(_ machine: inout Machine, _ actions: [Machine.Action]) -> [FileEvent] {
        sent(actions) + sent(machine.deadlinePassed(at: ReaderTime(monotonic: 10_000, wall: 2_000_000)))
    }

    @Test func armingWatchesEveryDirectoryOnceAndTwoClientsShareTheWatches() {
        var machine = machine()
        _ = machine.add(client(1, "/mem/root"), gate: nil)
        #expect(machine.table.count == 4)
        #expect(machine.system.watches.count == 4)
        _ = machine.add(client(2, "/mem/root/a"), gate: nil)
        #expect(machine.table.count == 4)
        #expect(machine.system.watches.count == 4)
        let (root, c) = (machine.system.watches["/mem/root"]!, machine.system.watches["/mem/root/c"]!)
        _ = machine.remove(1)
        // The second client's directories stay, watched once.
        #expect(Set(machine.system.unwatched) == [root, c])
        #expect(machine.table.count == 2)
        #expect(Set(machine.system.watches.keys) == ["/mem/root/a", "/mem/root/a/b"])
        _ = machine.remove(2)
        #expect(machine.table.count == 0)
        #expect(machine.system.watches.isEmpty)
    }

    @Test func aDirectoryRenamedWithinTheTreeIsOneMoveAndWhatIsBelowFollows() {
        var machine = machine()
        _ = machine.add(client(1, "/mem/root"), gate: nil)
        let deep = machine.system.watches["/mem/root/a/b"]!
        let moved = machine.read([
            record(machine, in: "/mem/root", InotifyRecord.movedFrom | InotifyRecord.isDirectory, "a", cookie: 7),
            record(machine, in: "/mem/root", InotifyRecord.movedTo | InotifyRecord.isDirectory, "z", cookie: 7),
        ], at: Self.start)
        #expect(sent(moved) == [
            FileEvent(path: "/mem/root/a", kind: .movedFrom, isDirectory: true, cookie: 7),
            FileEvent(path: "/mem/root/z", kind: .movedTo, isDirectory: true, cookie: 7),
        ])
        // The watch of a/b now stands for z/b: no walk, no new watch.
        #expect(machine.table.path(of: machine.table.node(wd: deep)!) == "/mem/root/z/b")
        #expect(machine.table.count == 4)
        let write = InotifyRecord(wd: deep, mask: InotifyRecord.closeWrite, cookie: 0, name: "two.txt")
        #expect(settle(&machine, machine.read([write], at: Self.start)).map(\.path) == ["/mem/root/z/b/two.txt"])
    }

    @Test func aRenameHalfReadAloneWaitsItsGraceThenLeavesTheTree() {
        var machine = machine()
        _ = machine.add(client(1, "/mem/root"), gate: nil)
        let directory = record(machine, in: "/mem/root", InotifyRecord.movedFrom | InotifyRecord.isDirectory, "c", cookie: 9)
        #expect(sent(machine.read([directory], at: Self.start)).isEmpty)
        let grace = Machine.moveHalfGrace
        let waiting = machine.queueEmpty(at: Self.start)
        guard case .waitUntil(let ends) = waiting.0 else { Issue.record("the half did not wait"); return }
        #expect(ends == Self.start.monotonic + grace)
        // More emptyings inside the grace do not extend it.
        let later = ReaderTime(monotonic: Self.start.monotonic + grace / 2, wall: Self.start.wall)
        guard case .waitUntil(ends) = machine.queueEmpty(at: later).0 else { Issue.record("the grace moved"); return }
        let over = ReaderTime(monotonic: ends, wall: Self.start.wall)
        let (state, actions) = machine.queueEmpty(at: over)
        guard case .settled = state else { Issue.record("the grace did not end"); return }
        #expect(settle(&machine, actions) == [FileEvent(path: "/mem/root/c", kind: .movedFrom, isDirectory: true, cookie: 9)])
        // It left the tree: its watch goes.
        #expect(machine.table.count == 3)
        #expect(machine.system.watches["/mem/root/c"] == nil)
    }

    @Test func aRenameHalfLeftUnpairedWhileTheQueueStaysBusyLeavesTheTreeAfterItsGrace() {
        var machine = machine()
        _ = machine.add(client(1, "/mem/root"), gate: nil)
        let half = record(machine, in: "/mem/root", InotifyRecord.movedFrom, "top.txt", cookie: 5)
        #expect(sent(machine.read([half], at: Self.start)).isEmpty)
        let grace = Machine.moveHalfGrace
        let busy = { machine.system.watches["/mem/root/a"]! }()
        let write = InotifyRecord(wd: busy, mask: InotifyRecord.closeWrite, cookie: 0, name: "one.txt")
        // The queue never empties: other records keep coming.
        let within = ReaderTime(monotonic: Self.start.monotonic + grace / 2, wall: Self.start.wall)
        #expect(!sent(machine.read([write], at: within)).contains { $0.path == "/mem/root/top.txt" })
        let over = ReaderTime(monotonic: Self.start.monotonic + grace, wall: Self.start.wall)
        #expect(sent(machine.read([write], at: over)).contains(FileEvent(path: "/mem/root/top.txt", kind: .movedFrom, cookie: 5)))
        #expect(machine.pendingMoves.isEmpty)
    }

    @Test func aRenameHalfWhosePairComesFirstInALateReadIsOneMove() {
        var machine = machine()
        _ = machine.add(client(1, "/mem/root"), gate: nil)
        let from = record(machine, in: "/mem/root", InotifyRecord.movedFrom, "top.txt", cookie: 6)
        #expect(sent(machine.read([from], at: Self.start)).isEmpty)
        // A slow reader: the next read comes long after, its first record the pair.
        let late = ReaderTime(monotonic: Self.start.monotonic + 10 * Machine.moveHalfGrace, wall: Self.start.wall)
        let to = record(machine, in: "/mem/root/c", InotifyRecord.movedTo, "top.txt", cookie: 6)
        #expect(sent(machine.read([to], at: late)) == [
            FileEvent(path: "/mem/root/top.txt", kind: .movedFrom, cookie: 6),
            FileEvent(path: "/mem/root/c/top.txt", kind: .movedTo, cookie: 6),
        ])
    }

    @Test func aNewDirectoryIsWatchedAndWhatItHoldsIsReportedOnce() {
        var machine = machine()
        _ = machine.add(client(1, "/mem/root"), gate: nil)
        machine.system.directories.insert("/mem/root/new")
        machine.system.files.insert("/mem/root/new/made-before-the-watch.txt")
        let created = machine.read([record(machine, in: "/mem/root", InotifyRecord.create | InotifyRecord.isDirectory, "new")],
                                   at: Self.start)
        #expect(machine.system.watches["/mem/root/new"] != nil)
        // The file's own create record, read after the scan found it, is a duplicate.
        let duplicate = machine.read([record(machine, in: "/mem/root/new", InotifyRecord.create, "made-before-the-watch.txt")],
                                     at: Self.start)
        #expect(settle(&machine, created + duplicate) == [
            FileEvent(path: "/mem/root/new", kind: .created, isDirectory: true),
            FileEvent(path: "/mem/root/new/made-before-the-watch.txt", kind: .created),
        ])
    }

    @Test func aDeletedDirectorysWatchIsForgottenNotRemovedAgain() {
        var machine = machine()
        _ = machine.add(client(1, "/mem/root"), gate: nil)
        let c = machine.system.watches["/mem/root/c"]!
        machine.system.directories.remove("/mem/root/c")
        let deleted = machine.read([
            InotifyRecord(wd: c, mask: InotifyRecord.deleteSelf, cookie: 0, name: nil),
            InotifyRecord(wd: c, mask: InotifyRecord.ignored, cookie: 0, name: nil),
            record(machine, in: "/mem/root", InotifyRecord.delete | InotifyRecord.isDirectory, "c"),
        ], at: Self.start)
        #expect(settle(&machine, deleted).contains(FileEvent(path: "/mem/root/c", kind: .deleted, isDirectory: true)))
        #expect(machine.table.count == 3)
        #expect(!machine.system.unwatched.contains(c))
    }

    @Test func anOverflowSaysSoThenReportsWhatChangedSinceTheQueueWasLastEmpty() {
        var machine = machine()
        _ = machine.add(client(1, "/mem/root"), gate: nil)
        machine.system.directories.insert("/mem/root/lost")
        let overflow = machine.read([InotifyRecord(wd: -1, mask: InotifyRecord.queueOverflow, cookie: 0, name: nil)], at: Self.start)
        let events = settle(&machine, overflow)
        #expect(events.first?.kind == .overflow)
        #expect(events.contains(FileEvent(path: "/mem/root/lost", kind: .created, isDirectory: true)))
        #expect(machine.system.watches["/mem/root/lost"] != nil)
    }

    /// The warnings among `actions`.
    private func warnings(_ actions: [Machine.Action]) -> [String] {
        actions.compactMap { action -> String? in
            if case .announce(let notice) = action, case .warning(let text) = notice.kind { return text }
            return nil
        }
    }

    @Test func aDirectoryThatRefusedAWatchIsWatchedOnceAChmodLetsItIn() {
        var machine = machine()
        machine.system.locked = ["/mem/root/c"]
        let armed = machine.add(client(1, "/mem/root"), gate: nil)
        #expect(warnings(armed).count == 1, "\(warnings(armed))")
        #expect(machine.system.watches["/mem/root/c"] == nil)
        let attributes = InotifyRecord.attrib | InotifyRecord.isDirectory
        // Still closed (a chmod that did not open it): no watch, no second warning.
        let stillLocked = machine.read([record(machine, in: "/mem/root", attributes, "c")], at: Self.start)
        #expect(warnings(stillLocked).isEmpty)
        #expect(settle(&machine, stillLocked) == [FileEvent(path: "/mem/root/c", kind: .attributes, isDirectory: true)])
        machine.system.locked = []
        let opened = machine.read([record(machine, in: "/mem/root", attributes, "c")], at: Self.start)
        #expect(machine.system.watches["/mem/root/c"] != nil)
        // What it holds is new to the watch, as in a directory that appeared.
        #expect(settle(&machine, opened) == [
            FileEvent(path: "/mem/root/c", kind: .attributes, isDirectory: true),
            FileEvent(path: "/mem/root/c/three.txt", kind: .created),
        ])
        // Watched now: a later attribute change is only that.
        let again = machine.read([record(machine, in: "/mem/root", attributes, "c")], at: Self.start)
        #expect(settle(&machine, again) == [FileEvent(path: "/mem/root/c", kind: .attributes, isDirectory: true)])
    }
}
