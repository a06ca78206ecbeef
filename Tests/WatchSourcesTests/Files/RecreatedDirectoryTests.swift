@testable import Signals
import Testing
#if canImport(Glibc)
import Glibc
#endif
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

    /// A watched single file deleted with its directory while someone still
    /// holds it open (which keeps the dead directory, and its watch, alive
    /// until the close), the directory made again at once: the new
    /// directory gets a watch of its own, and the file made in it again
    /// is reported, round after round.
    @Test func aWaitedForFilesDirectoryMadeAgainIsWatchedAgain() {
        let dir = TempDir()
        defer { dir.remove() }
        let logs = dir.at("logs")
        let log = dir.at("logs/app.log")
        Disk.makeDirectories(logs)
        Disk.write(log)
        let (recorder, subscription) = watchWaiting(log)
        defer { subscription.dispose() }
        func count(_ kind: FileEvent.Kind) -> Int { recorder.events(for: log).filter { $0.kind == kind }.count }
        for round in 1...20 {
            let (deleted, created) = (count(.deleted), count(.created))
            let held = Glibc.open(log, O_RDONLY | O_CLOEXEC)
            Disk.removeTree(logs)
            Disk.makeDirectories(logs)
            Glibc.close(held)
            #expect(eventually { count(.deleted) > deleted })
            Disk.write(log)
            let reported = eventually { count(.created) > created }
            guard reported else {
                Issue.record("round \(round): the file made again was not reported")
                return
            }
        }
    }

    /// A watched single file's directory deleted, then another directory,
    /// the file already in it, renamed into its place (both names in one
    /// watched directory, so the kernel reports the rename whole): the
    /// file is reported and watched again.
    @Test func aDirectoryRenamedIntoAWaitedForFilesPlaceIsWatched() {
        let dir = TempDir()
        defer { dir.remove() }
        let (logs, staged, log) = (dir.at("logs"), dir.at("staged"), dir.at("logs/app.log"))
        Disk.makeDirectories(logs)
        Disk.write(log)
        let (recorder, subscription) = watchWaiting(log)
        defer { subscription.dispose() }
        Disk.removeTree(logs)
        #expect(eventually { recorder.has(.deleted, log) })
        Disk.makeDirectories(staged)
        Disk.write(staged + "/app.log")
        #expect(rename(staged, logs) == 0)
        #expect(eventually { recorder.has(.created, log) })
        Disk.write(log, "more\n", flags: O_WRONLY | O_APPEND)
        #expect(eventually { recorder.has(.modified, log) })
    }

    /// Watches the single file `log` through inotify, waiting for it to
    /// come back when it goes.
    private func watchWaiting(_ log: String) -> (Recorder, any Disposable) {
        var options = WatchOptions(onRootDeleted: .waitForReappearance)
        options.usesService = false
        return record([log], options: options, backend: .inotify)
    }
}
