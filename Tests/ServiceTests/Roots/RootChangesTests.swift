import Glibc
import Signals
import Testing
import TestSupport
@testable import Service

/// A root's `changes`: one hot signal per root, the tick after each batch
/// applied (what subscriptions will run their queries on), sent with no
/// lock held.
@Suite struct RootChangesTests {
    @Test func aChangeSendsTheTickItReached() throws {
        let tree = TemporaryDirectory(prefix: "rwatch-changes")
        defer { tree.remove() }
        let roots = RootTable(environment: [:])
        let root = try roots.watch(Array(tree.path.utf8))
        defer { _ = roots.deleteAll() }
        let seen = Locked<[UInt32]>([])
        let subscription = root.changes.subscribe(onNext: { tick in
            // Using the root here deadlocks if a lock were held (subscriptions will query it).
            root.drain()
            _ = root.state.withLock { $0.table.tick }
            seen.withLock { $0.append(tick) }
        })
        defer { subscription.dispose() }
        let before = root.state.withLock { $0.table.tick }
        tree.write("new", "x")
        #expect(eventually { seen.withLock { $0.contains { $0 > before } } })
        #expect(throws: Never.self) { try root.sync(timeout: .seconds(10)) }
        let id = Array("new".utf8).withUnsafeBufferPointer { buffer in root.state.withLock { $0.table.lookup(path: buffer) } }
        #expect(id != nil)
    }
}
