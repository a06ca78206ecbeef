import Glibc
import Signals
import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

@Suite struct RootAndOverflowTests {
    @Test func overflowGivesAnOverflowEventThenWhatChanged() {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at("untouched.txt"))
        Disk.makeDirectories(dir.at("old"))
        let seams = ReaderSeams()
        let (recorder, subscription) = record([dir.path], reader: FileWatcher.Reader(seams: seams))
        defer { subscription.dispose() }
        // Events from here on are lost, as when the kernel queue overflows.
        seams.deafen(root: FilePath(dir.path))
        Disk.write(dir.at("lost-1.txt"))
        Disk.makeDirectories(dir.at("newdir/deeper"))
        Disk.write(dir.at("newdir/deeper/lost-2.txt"))
        Disk.removeTree(dir.at("old"))
        seams.injectOverflow(root: FilePath(dir.path))
        #expect(eventually { recorder.has(.modified, dir.at("newdir/deeper/lost-2.txt")) })
        let events = recorder.snapshot
        let overflowAt = events.firstIndex { $0.kind == .overflow }
        let lostAt = events.firstIndex { $0.path.string == dir.at("lost-1.txt") }
        #expect(overflowAt != nil && lostAt != nil && overflowAt! < lostAt!)
        #expect(recorder.has(.created, dir.at("newdir")))
        #expect(recorder.has(.deleted, dir.at("old")))
        // The rescan watched the new directories too.
        Disk.write(dir.at("newdir/deeper/after.txt"))
        #expect(eventually { recorder.has(.closedWrite, dir.at("newdir/deeper/after.txt")) })
    }

    @Test(arguments: Backend.allCases) func deletingTheRootReportsItThenFails(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let root = dir.at("project")
        Disk.makeDirectories(root + "/src")
        let (recorder, subscription) = record([root], backend: backend)
        defer { subscription.dispose() }
        Disk.removeTree(root)
        #expect(eventually { recorder.failure.withLock { $0 } != nil })
        #expect(recorder.has(.deleted, root))
        let error = recorder.failure.withLock { $0 }
        #expect(error?.reason == .rootDeleted(FilePath(root)))
        #expect(error?.description == "watched path \(root) was deleted or moved away")
    }

    @Test(arguments: Backend.allCases) func movingTheRootAwayCountsAsDeletion(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let root = dir.at("project")
        Disk.makeDirectories(root)
        let (recorder, subscription) = record([root], backend: backend)
        defer { subscription.dispose() }
        Disk.rename(root, dir.at("elsewhere"))
        #expect(eventually { recorder.failure.withLock { $0 }?.reason == .rootDeleted(FilePath(root)) })
    }

    @Test(arguments: Backend.allCases) func waitsForADeletedRootToReappear(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let root = dir.at("a/b/project")
        Disk.makeDirectories(root)
        let (recorder, subscription) = record([root], options: WatchOptions(onRootDeleted: .waitForReappearance), backend: backend)
        defer { subscription.dispose() }
        Disk.removeTree(dir.at("a"))
        #expect(eventually { recorder.has(.deleted, root) })
        Disk.makeDirectories(root + "/src")
        Disk.write(root + "/src/main.swift")
        #expect(eventually { recorder.has(.created, root + "/src/main.swift") })
        #expect(recorder.has(.created, root))
        Disk.write(root + "/src/later.swift")
        #expect(eventually { recorder.hasWrite(root + "/src/later.swift", backend) })
        #expect(recorder.failure.withLock { $0 } == nil)
    }

    /// The race `waitsForADeletedRootToReappear` lost once under load, made
    /// to happen every time: while the root's ancestors come back (`mkdir
    /// -p`), one appears just before the watch waiting for it lands on its
    /// parent, so no event will ever tell of it; the rest of the root's
    /// path comes after. The watcher must look below each watch it lands.
    @Test func aRootWhoseAncestorsReappearBeforeTheirWatchLandsIsStillFound() {
        let dir = TempDir()
        defer { dir.remove() }
        let root = dir.at("a/b/project")
        Disk.makeDirectories(root)
        let seams = ReaderSeams()
        let reader = FileWatcher.Reader(seams: seams)
        let (recorder, subscription) = record([root], options: WatchOptions(onRootDeleted: .waitForReappearance), reader: reader)
        defer { subscription.dispose() }
        Disk.removeTree(dir.at("a"))
        #expect(eventually { recorder.has(.deleted, root) })
        // Every deletion read: the watcher now waits at the temporary directory.
        reader.reader.barrier()
        let seamRan = Locked(false)
        seams.beforeWatching(FilePath(dir.at("a"))) {
            Disk.makeDirectories(dir.at("a/b"))
            seamRan.withLock { $0 = true }
        }
        Disk.makeDirectories(dir.at("a"))
        #expect(eventually { seamRan.withLock { $0 } })
        reader.reader.barrier()
        Disk.makeDirectories(root + "/src")
        Disk.write(root + "/src/main.swift")
        #expect(eventually { recorder.has(.created, root + "/src/main.swift") })
        #expect(recorder.has(.created, root))
        #expect(recorder.failure.withLock { $0 } == nil)
    }

    @Test(arguments: Backend.allCases) func deletingAWatchedFileReportsItThenFails(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("only.txt")
        Disk.write(file)
        let (recorder, subscription) = record([file], backend: backend)
        defer { subscription.dispose() }
        Disk.remove(file)
        #expect(eventually { recorder.failure.withLock { $0 }?.reason == .rootDeleted(FilePath(file)) })
        #expect(recorder.has(.deleted, file))
    }
}
