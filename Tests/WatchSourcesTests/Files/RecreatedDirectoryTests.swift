@testable import Signals
import Testing
@testable import WatchSources
import TestSupport

@Suite struct RecreatedDirectoryTests {
    @Test(arguments: Backend.allCases) func aDirectoryDeletedAndMadeAgainIsWatchedAgain(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at("cache/inner"))
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        for round in 1...3 {
            Disk.removeTree(dir.at("cache"))
            #expect(eventually { recorder.events(for: dir.at("cache")).filter { $0.kind == .deleted }.count == round })
            Disk.makeDirectories(dir.at("cache/inner"))
            #expect(eventually { recorder.events(for: dir.at("cache")).filter { $0.kind == .created }.count == round })
            // inner may be watched only after f is written: then the scan reports f as created.
            let file = dir.at("cache/inner/f\(round)")
            Disk.write(file)
            #expect(eventually { recorder.has(.created, file) })
            let later = dir.at("cache/inner/g\(round)")
            Disk.write(later)
            #expect(eventually { recorder.has(.created, later) })
        }
    }

    @Test(arguments: Backend.allCases) func aSubscriptionMadeInsideAnEventHandlerDoesNotDeadlock(_ backend: Backend) {
        let dir = TempDir()
        let other = TempDir()
        defer { dir.remove(); other.remove() }
        let inner = Recorder()
        let innerSubscription = Locked<(any Disposable)?>(nil)
        let outer = FileWatcher.watch([dir.path], options: backend.options()).subscribe(onNext: { event in
            guard event.path.string.hasSuffix("trigger"), event.kind == .created else { return }
            // Runs on the reader thread: subscribing here must not wait for itself.
            let made = FileWatcher.watch([other.path], options: backend.options()).subscribe(onNext: { seen in
                inner.events.withLock { $0.append(seen) }
            })
            innerSubscription.withLock { $0 = made }
        })
        defer { outer.dispose(); innerSubscription.withLock { $0?.dispose() } }
        Disk.write(dir.at("trigger"))
        #expect(eventually { innerSubscription.withLock { $0 != nil } })
        // Armed a moment later, on the reader's next turn: keep writing until seen.
        var round = 0
        #expect(eventually {
            round += 1
            Disk.write(other.at("f\(round)"))
            return !inner.snapshot.isEmpty
        })
    }
}
