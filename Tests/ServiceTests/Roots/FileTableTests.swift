import Glibc
import Testing
@testable import Service

@Suite struct FileTableTests {
    static let directory = FileStat(ino: 1, mode: UInt32(S_IFDIR) | 0o755)
    static func file(_ ino: UInt64, size: Int64 = 0) -> FileStat { FileStat(size: size, ino: ino, mode: UInt32(S_IFREG) | 0o644) }

    /// Records `path` (relative), its parents as directories.
    @discardableResult
    static func record(_ table: inout FileTable, _ path: String, _ stat: FileStat) -> Int32 {
        var parent: Int32 = 0
        let parts = path.split(separator: "/").map { Array($0.utf8) }
        for (position, part) in parts.enumerated() {
            let stat = position == parts.count - 1 ? stat : directory
            parent = part.withUnsafeBufferPointer { table.record(parent: parent, name: $0, stat).id }
        }
        return parent
    }

    static func lookup(_ table: FileTable, _ path: String) -> Int32? {
        Array(path.utf8).withUnsafeBufferPointer { table.lookup(path: $0) }
    }

    static func changed(_ table: FileTable, after tick: UInt64) -> [Int32] {
        var ids: [Int32] = []
        table.log.forEachChanged(after: tick, oclock: { table[$0].oclock }) { ids.append($0) }
        return ids
    }

    @Test func anEntryIsFoundByItsPath() {
        var table = FileTable(root: Self.directory)
        table.advance(now: 100)
        let id = Self.record(&table, "a/b/c.txt", Self.file(7))
        #expect(Self.lookup(table, "a/b/c.txt") == id)
        #expect(Self.lookup(table, "a/b") != nil)
        #expect(Self.lookup(table, "a/x") == nil)
        #expect(Self.lookup(table, "") == 0)
        #expect(table[id].cclock == 1 && table[id].oclock == 1 && table[id].exists)
    }

    @Test func aChangeMovesOclockButNotCclock() {
        var table = FileTable(root: Self.directory)
        table.advance(now: 100)
        let id = Self.record(&table, "f", Self.file(7))
        table.advance(now: 100)
        #expect(Array("f".utf8).withUnsafeBufferPointer { table.record(parent: 0, name: $0, Self.file(7)).outcome } == .unchanged)
        #expect(table[id].oclock == 1)
        #expect(Array("f".utf8).withUnsafeBufferPointer { table.record(parent: 0, name: $0, Self.file(7, size: 3)).outcome } == .changed)
        #expect(table[id].oclock == 2 && table[id].cclock == 1)
        table.advance(now: 101)
        #expect(Array("f".utf8).withUnsafeBufferPointer { table.record(parent: 0, name: $0, Self.file(8, size: 3)).outcome } == .appeared)
        #expect(table[id].cclock == 3)
    }

    @Test func theLogListsChangesNewestFirstOncePerEntry() {
        var table = FileTable(root: Self.directory)
        table.advance(now: 1)
        let a = Self.record(&table, "a", Self.file(1))
        let b = Self.record(&table, "b", Self.file(2))
        table.advance(now: 1)
        Self.record(&table, "a", Self.file(1, size: 5))
        #expect(Self.changed(table, after: 0) == [a, b])
        #expect(Self.changed(table, after: 1) == [a])
        #expect(Self.changed(table, after: 2) == [])
    }

    @Test func deletingADirectoryDeletesWhatIsBelowIt() {
        var table = FileTable(root: Self.directory)
        table.advance(now: 1)
        let deep = Self.record(&table, "d/e/f", Self.file(1))
        let other = Self.record(&table, "x", Self.file(2))
        let directory = Self.lookup(table, "d")!
        table.advance(now: 2)
        table.markDeleted(directory)
        table.markDeleted(below: [directory])
        #expect(!table[deep].exists && !table[Self.lookup(table, "d/e")!].exists)
        #expect(table[other].exists)
        #expect(table[deep].oclock == 2)
    }

    @Test func ageOutForgetsOldDeletionsAndRemembersTheirClock() {
        var table = FileTable(root: Self.directory)
        table.advance(now: 10)
        let old = Self.record(&table, "old", Self.file(1))
        let kept = Self.record(&table, "dir/kept", Self.file(2))
        table.advance(now: 20)
        table.markDeleted(old)
        table.advance(now: 30)
        let young = Self.record(&table, "young", Self.file(3))
        table.advance(now: 40)
        table.markDeleted(young)
        #expect(table.ageOut(deletedBefore: 35) == 1)
        #expect(Self.lookup(table, "old") == nil)
        #expect(Self.lookup(table, "young") == young)
        #expect(table.lastAgeOut == 2)
        #expect(table[kept].exists)
        // The freed id is reused, and the new entry is found.
        table.advance(now: 50)
        let again = Self.record(&table, "new", Self.file(4))
        #expect(again == old)
        #expect(Self.lookup(table, "new") == again)
    }

    @Test func aDeletedDirectoryStaysWhileSomethingBelowItIsKept() {
        var table = FileTable(root: Self.directory)
        table.advance(now: 10)
        let child = Self.record(&table, "d/child", Self.file(1))
        let directory = Self.lookup(table, "d")!
        table.advance(now: 20)
        table.markDeleted(directory)
        table.advance(now: 40)
        table.markDeleted(child)
        table.ageOut(deletedBefore: 30)
        #expect(Self.lookup(table, "d/child") == child)
    }

    @Test func theIndexSurvivesManyInsertionsAndRemovals() {
        var table = FileTable(root: Self.directory)
        var model: [String: Int32] = [:]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            table.advance(now: Int64(round * 10))
            for _ in 0..<500 {
                let name = "n\(Int.random(in: 0..<3000, using: &generator))"
                model[name] = Self.record(&table, name, Self.file(UInt64(round)))
            }
            for (name, id) in model where Bool.random(using: &generator) {
                table.markDeleted(id)
                model[name] = nil
            }
            table.advance(now: Int64(round * 10 + 5))
            table.ageOut(deletedBefore: Int64(round * 10 + 6))
            for (name, id) in model { #expect(Self.lookup(table, name) == id) }
        }
    }

    @Test func aCrawlPassMarksWhatItDidNotSeeDeleted() {
        var table = FileTable(root: Self.directory)
        table.advance(now: 1)
        let kept = Self.record(&table, "d/kept", Self.file(1))
        let gone = Self.record(&table, "d/gone/deep", Self.file(2))
        let directory = Self.lookup(table, "d")!
        table.advance(now: 2)
        table.clearSeen()
        Self.record(&table, "d/kept", Self.file(1))
        table.finishCrawl([directory])
        #expect(table[kept].exists)
        #expect(!table[gone].exists && !table[Self.lookup(table, "d/gone")!].exists)
    }
}

@Suite struct FileEntryTests {
    @Test func anEntryIs52BytesAndKeepsItsFields() {
        #expect(MemoryLayout<FileEntry>.stride == 52)
        var entry = FileEntry()
        entry.mtime = -1_234_567_890_123
        entry.ctime = 1_700_000_000_123_456_789
        entry.nlinkLow = 65_000
        entry.nameLength = 255
        entry.exists = true
        entry.seen = true
        #expect(entry.mtime == -1_234_567_890_123 && entry.ctime == 1_700_000_000_123_456_789)
        #expect(entry.nlinkLow == 65_000 && entry.nameLength == 255 && entry.exists && entry.seen)
        entry.exists = false
        #expect(entry.nlinkLow == 65_000 && !entry.exists && entry.seen)
    }

    /// An overlay with `xino` puts its layer's number in an inode number's
    /// top bits; a sparse file can be larger than 256 TiB; a tree can hold
    /// more than 16,383 (owner, group, device) triples. Each value comes
    /// back as `lstat` gave it (these were clamped to 48 bits, or shared an
    /// owner slot).
    @Test func everyStatValueComesBackExactlyHoweverLarge() {
        var table = FileTable(root: FileTableTests.directory)
        table.advance(now: 100)
        let large = FileStat(size: Int64(1) << 50 + 7, ino: 0xFFFF_8000_1234_5678, dev: 0xFFFF_FFFF_0000_0001,
                             mode: UInt32(S_IFREG) | 0o644, uid: 4_000_000_000, gid: 7, nlink: 0x0300_0001)
        let id = FileTableTests.record(&table, "big", large)
        #expect(table.details(of: table[id]) == large)
        // Only the high bits change: still a change, and another inode.
        var moved = large
        moved.ino ^= 1 << 40
        let outcome = "big".utf8.withContiguousStorageIfAvailable { table.record(parent: 0, name: $0, moved).outcome }
        #expect(outcome == .appeared)
        #expect(table.details(of: table[id]).ino == moved.ino)
        for index in 0..<20_000 {
            var stat = FileTableTests.file(UInt64(index) + 10, size: Int64(index))
            stat.uid = UInt32(index)
            let file = FileTableTests.record(&table, "owners/\(index)", stat)
            let details = table.details(of: table[file])
            #expect(details.uid == UInt32(index) && details.size == Int64(index) && details.ino == UInt64(index) + 10)
        }
        #expect(table.shared.count > 20_000)
    }
}
