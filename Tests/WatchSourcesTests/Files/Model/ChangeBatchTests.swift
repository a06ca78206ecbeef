import SystemPackage
import Testing
@testable import WatchSources

@Suite struct ChangeBatchTests {
    @Test func collectsPathsInFirstSeenOrderWithTheirKinds() {
        let batch = ChangeBatch([
            FileEvent(path: "/p/b.swift", kind: .modified),
            FileEvent(path: "/p/a.swift", kind: .created),
            FileEvent(path: "/p/b.swift", kind: .closedWrite),
            FileEvent(path: "/p/b.swift", kind: .modified),
        ])
        #expect(batch.paths == ["/p/b.swift", "/p/a.swift"])
        #expect(batch.kinds["/p/b.swift"] == [.modified, .closedWrite])
        #expect(batch.events.count == 3)
    }

    @Test(arguments: [
        (["/p/src/a.swift"], "/p/src"),
        (["/p/src/a.swift", "/p/src/b.swift"], "/p/src"),
        (["/p/src/x/a.swift", "/p/src/y/b.swift"], "/p/src"),
        (["/p/src/a.swift", "/q/b.swift"], "/"),
        (["/p/srcA/a", "/p/srcB/b"], "/p"),
    ])
    func commonRootIsTheDeepestSharedDirectory(_ example: ([String], String)) {
        let batch = ChangeBatch(example.0.map { FileEvent(path: FilePath($0), kind: .modified) })
        #expect(batch.commonRoot == FilePath(example.1))
    }

    @Test func aDirectoryCountsAsItsOwnRoot() {
        let batch = ChangeBatch([FileEvent(path: "/p/new", kind: .created, isDirectory: true),
                                 FileEvent(path: "/p/new/f", kind: .created)])
        #expect(batch.commonRoot == "/p/new")
        #expect(ChangeBatch([]).commonRoot == nil)
    }

    @Test func addingOneByOneCoalescesAsItGoes() {
        var batch = ChangeBatch()
        for _ in 0..<1000 {
            batch.add(FileEvent(path: "/p/a", kind: .modified))
            batch.add(FileEvent(path: "/p/b", kind: .created))
        }
        #expect(batch.events.count == 2)
        #expect(batch == ChangeBatch([FileEvent(path: "/p/a", kind: .modified), FileEvent(path: "/p/b", kind: .created)]))
    }

    /// A file made and renamed away (a temporary file renamed over the
    /// real one) or deleted within the batch was never a change: only
    /// where it went stays.
    @Test func aFileMadeAndGoneWithinTheBatchLeavesIt() {
        let batch = ChangeBatch([
            FileEvent(path: "/p/a.c", kind: .modified),
            FileEvent(path: "/p/.b.c.swp~tmp", kind: .created),
            FileEvent(path: "/p/.b.c.swp~tmp", kind: .closedWrite),
            FileEvent(path: "/p/.b.c.swp~tmp", kind: .movedFrom, cookie: 3),
            FileEvent(path: "/p/b.c", kind: .movedTo, cookie: 3),
            FileEvent(path: "/p/4913", kind: .created),
            FileEvent(path: "/p/4913", kind: .deleted),
        ])
        #expect(batch.paths == ["/p/a.c", "/p/b.c"])
        #expect(batch.events.map(\.path) == ["/p/a.c", "/p/b.c"])
        #expect(batch.kinds["/p/.b.c.swp~tmp"] == nil)
        #expect(batch == ChangeBatch([FileEvent(path: "/p/a.c", kind: .modified), FileEvent(path: "/p/b.c", kind: .movedTo, cookie: 3)]))
    }

    /// What existed before the batch and goes is a change, even when it
    /// comes back and goes again; so is a directory made and removed.
    @Test func whatExistedBeforeTheBatchStaysInIt() {
        let deleted = ChangeBatch([FileEvent(path: "/p/a", kind: .modified), FileEvent(path: "/p/a", kind: .deleted)])
        #expect(deleted.paths == ["/p/a"])
        let again = ChangeBatch([FileEvent(path: "/p/a", kind: .deleted), FileEvent(path: "/p/a", kind: .created),
                                 FileEvent(path: "/p/a", kind: .deleted)])
        #expect(again.paths == ["/p/a"])
        let directory = ChangeBatch([FileEvent(path: "/p/d", kind: .created, isDirectory: true),
                                     FileEvent(path: "/p/d", kind: .deleted, isDirectory: true)])
        #expect(directory.paths == ["/p/d"])
    }

    @Test func mergingKeepsOrderAndCoalesces() {
        let first = ChangeBatch([FileEvent(path: "/a", kind: .modified)])
        let second = ChangeBatch([FileEvent(path: "/b", kind: .deleted), FileEvent(path: "/a", kind: .modified)])
        let merged = first.merging(second)
        #expect(merged.paths == ["/a", "/b"])
        #expect(merged.events.count == 2)
    }
}
