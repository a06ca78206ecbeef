import Glibc
import Testing
@testable import Signals
@testable import WatchSources
import TestSupport
import SystemPackage

/// `.auto` on a real FUSE mount (`bindfs`), where inotify is blind to
/// changes made on the other side: they are polled, and reported under the
/// mount's path.
@Suite struct MountPollingTests {
    @Test func changesBehindAFuseMountAreReportedUnderItsPath() throws {
        let source = TempDir()
        let view = TempDir()
        defer { source.remove(); view.remove() }
        let mount = try BindMount(source: source.path, view: view.path)
        defer { mount.unmount() }
        let (recorder, subscription) = record([view.path])
        defer { subscription.dispose() }
        Disk.write(source.at("a.txt"), "one\n")
        #expect(eventually { recorder.has(.created, view.at("a.txt")) })
        Disk.append(source.at("a.txt"), "two\n")
        #expect(eventually { recorder.has(.modified, view.at("a.txt")) })
        Disk.rename(source.at("a.txt"), source.at("b.txt"))
        #expect(eventually { recorder.has(.movedTo, view.at("b.txt")) })
        #expect(recorder.has(.movedFrom, view.at("a.txt")))
        Disk.remove(source.at("b.txt"))
        #expect(eventually { recorder.has(.deleted, view.at("b.txt")) })
        #expect(!recorder.snapshot.contains { $0.path.string.hasPrefix(source.path) })
        #expect(recorder.failure.withLock { $0 } == nil)
    }

    /// The control: inotify alone hears a change made through the mount,
    /// never one made behind it.
    @Test func inotifyAloneIsBlindBehindAFuseMount() throws {
        let source = TempDir()
        let view = TempDir()
        defer { source.remove(); view.remove() }
        let mount = try BindMount(source: source.path, view: view.path)
        defer { mount.unmount() }
        let (recorder, subscription) = record([view.path], backend: .inotify)
        defer { subscription.dispose() }
        Disk.write(source.at("behind.txt"))
        #expect(settle(recorder, in: view.path))
        #expect(!recorder.snapshot.contains { $0.path.string.hasSuffix("behind.txt") })
    }

    @Test func aFuseMountInsideALocalTreeIsPolledAndTheRestWatched() throws {
        let source = TempDir()
        let dir = TempDir()
        defer { source.remove(); dir.remove() }
        Disk.makeDirectories(dir.at("deep/down/mnt"))
        let mount = try BindMount(source: source.path, view: dir.at("deep/down/mnt"))
        defer { mount.unmount() }
        let (recorder, subscription) = record([dir.path])
        defer { subscription.dispose() }
        // The mount is polled, not watched with inotify; the rest is.
        #expect(!watching(dir.at("deep/down/mnt")) && watching(dir.at("deep/down")))
        Disk.write(source.at("remote.txt"))
        #expect(eventually { recorder.has(.created, dir.at("deep/down/mnt/remote.txt")) })
        Disk.write(dir.at("deep/local.txt"))
        #expect(eventually { recorder.has(.closedWrite, dir.at("deep/local.txt")) })
        // Each change once: no backend reports what the other one does.
        #expect(recorder.events(for: dir.at("deep/down/mnt/remote.txt")).count == 1)
    }

    /// A root that `.auto` polls because it is a FUSE mount applies the
    /// same rules as one watched with inotify: the repository's
    /// `.gitignore` above it, followed while watching.
    @Test func aRootOnAFuseMountAppliesTheRulesAboveIt() throws {
        let repo = TestRepository()
        let source = TempDir()
        defer { repo.remove(); source.remove() }
        repo.write(".gitignore", "*.gen\n")
        let view = repo.top + "/src"
        repo.makeDirectories(view)
        let mount = try BindMount(source: source.path, view: view)
        defer { mount.unmount() }
        let (recorder, subscription) = record([view], options: repo.options())
        defer { subscription.dispose() }
        Disk.write(source.at("a.gen"))
        Disk.write(source.at("kept.txt"))
        #expect(eventually { recorder.has(.created, view + "/kept.txt") })
        repo.write(".gitignore", "*.gen\n*.txt\n")
        PollScanner.shared.fence()
        Disk.write(source.at("later.txt"))
        Disk.write(source.at("later.c"))
        #expect(eventually { recorder.has(.created, view + "/later.c") })
        PollScanner.shared.fence()
        let paths = Set(recorder.snapshot.map(\.path.string))
        #expect(paths == [view + "/kept.txt", view + "/later.c"], "\(paths)")
    }

    /// A FUSE mount polled inside a tree watched with inotify: a rule file
    /// outside the tree that changes reaches its poller too.
    @Test func aRuleFileAboveTheTreeReachesAMountPolledInsideIt() throws {
        let repo = TestRepository()
        let source = TempDir()
        defer { repo.remove(); source.remove() }
        let src = repo.top + "/src"
        repo.makeDirectories(src + "/mnt")
        let mount = try BindMount(source: source.path, view: src + "/mnt")
        defer { mount.unmount() }
        let (recorder, subscription) = record([src], options: repo.options())
        defer { subscription.dispose() }
        repo.write(".gitignore", "*.gen\n")
        #expect(eventually {
            // Once the poller has the new rule, a fresh file shows it.
            let probe = source.at("probe-\(UInt32.random(in: 0...UInt32.max))")
            Disk.write(probe + ".gen")
            Disk.write(probe + ".c")
            PollScanner.shared.fence()
            return recorder.has(.created, src + "/mnt/" + String(probe.split(separator: "/").last!) + ".c")
                && !recorder.has(.created, src + "/mnt/" + String(probe.split(separator: "/").last!) + ".gen")
        })
    }

    @Test func aFuseMountAppearingUnderAWatchedDirectoryIsPolledThenWatchedAgainWhenGone() throws {
        let source = TempDir()
        let dir = TempDir()
        defer { source.remove(); dir.remove() }
        Disk.makeDirectories(dir.at("mnt"))
        let mountPoint = dir.at("mnt")
        let polling = Locked(false)
        let notices = FileWatcher.notices.subscribe(onNext: { notice in
            if notice.path == FilePath(mountPoint), case .polling(_, .fileSystem) = notice.kind { polling.withLock { $0 = true } }
        })
        defer { notices.dispose() }
        let (recorder, subscription) = record([dir.path])
        defer { subscription.dispose() }
        let mount = try BindMount(source: source.path, view: mountPoint)
        defer { mount.unmount() }
        #expect(eventually { polling.withLock { $0 } })
        // Its first pass has taken what is there as the starting point.
        PollScanner.shared.fence()
        Disk.write(source.at("remote.txt"))
        #expect(eventually { recorder.has(.created, dir.at("mnt/remote.txt")) })
        // Unmounted: the directory beneath is local again, and inotify watches it.
        mount.unmount()
        #expect(eventually { watching(dir.at("mnt")) })
        Disk.write(dir.at("mnt/local.txt"))
        #expect(eventually { recorder.has(.closedWrite, dir.at("mnt/local.txt")) })
        #expect(recorder.failure.withLock { $0 } == nil)
    }
}
