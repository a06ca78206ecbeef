import Glibc
import SystemPackage
@testable import RecipeKit
import Testing
import TestSupport

/// `settlingVCS(of:)` between a real watch and `batched` on virtual time:
/// changes made while git holds the index wait, then make one batch.
@Suite struct SettlingVCSTests {
    @Test func changesMadeWhileTheIndexIsLockedMakeOneBatchOnceItIsReleased() {
        let dir = TemporaryDirectory(prefix: "rwatch-settle")
        defer { dir.remove() }
        mkdir(dir.file(".git"), 0o755)
        mkdir(dir.file("src"), 0o755)
        dir.write(".git/index.lock", "")
        let scheduler = TestScheduler()
        let seen = Locked<Set<FilePath>>([]), passed = Locked<Set<FilePath>>([]), batches = Locked<[ChangeBatch]>([])
        let subscription = FileWatcher.watch([dir.file("src")])
            .on(next: { event in _ = seen.withLock { $0.insert(event.path) } })
            .settlingVCS(of: [dir.file("src")])
            .on(next: { events in passed.withLock { $0.formUnion(events.map(\.path)) } })
            .batched(.milliseconds(50), maxWait: .seconds(1), scheduler: scheduler)
            .subscribe(onNext: { batch in batches.withLock { $0.append(batch) } })
        defer { subscription.dispose() }
        let files = (0..<20).map { FilePath(dir.file("src/file\($0).txt")) }
        for file in files { TemporaryDirectory.write(file: file.string, "x\n") }
        #expect(eventually { seen.withLock { $0.isSuperset(of: files) } })
        // Long past the quiet period and the cap: nothing got through the gate.
        scheduler.advance(by: .seconds(10))
        #expect(passed.withLock { $0.isEmpty })
        #expect(batches.withLock { $0.isEmpty })
        // git renames the lock onto the index when it is done: everything
        // goes at once, in one array, which arms the batch's timer.
        #expect(rename(dir.file(".git/index.lock"), dir.file(".git/index")) == 0)
        #expect(eventually { passed.withLock { $0.isSuperset(of: files) } && scheduler.pendingCount > 0 })
        scheduler.advance(by: .seconds(10))
        #expect(eventually { !batches.withLock { $0.isEmpty } })
        let result = batches.withLock { $0 }
        #expect(result.count == 1)
        #expect(Set(result.first?.paths ?? []) == Set(files))
    }

    @Test func withoutALockChangesPassAtOnce() {
        let dir = TemporaryDirectory(prefix: "rwatch-settle")
        defer { dir.remove() }
        mkdir(dir.file(".git"), 0o755)
        let passed = Locked<[FilePath]>([])
        let subscription = FileWatcher.watch([dir.path]).settlingVCS(of: [dir.path])
            .subscribe(onNext: { events in passed.withLock { $0 += events.map(\.path) } })
        defer { subscription.dispose() }
        dir.write("a.txt", "x\n")
        #expect(eventually { passed.withLock { $0.contains(FilePath(dir.file("a.txt"))) } })
    }
}

extension TemporaryDirectory {
    /// Writes `text` to the file at `path`, replacing it.
    static func write(file path: String, _ text: String) {
        guard let handle = fopen(path, "w") else { fatalError("cannot write \(path)") }
        fputs(text, handle)
        fclose(handle)
    }
}
