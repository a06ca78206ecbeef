@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import SystemPackage

/// Who holds the user's inotify watches, read from /proc.
@Suite struct InotifyUsageTests {
    @Test func eachWatchIsOneLineOfFdinfo() {
        let fdinfo = """
            pos:\t0
            flags:\t02004000
            mnt_id:\t15
            ino:\t1057
            inotify wd:2 ino:1a sdev:800001 mask:fce ignored_mask:0 fhandle-bytes:8
            inotify wd:1 ino:2 sdev:800001 mask:fce ignored_mask:0 fhandle-bytes:8

            """
        #expect(InotifyUsage.watchLines(in: Array(fdinfo.utf8)) == 2)
    }

    @Test func theSummaryNamesTheTopThreeAndThisProcess() {
        let holders = [
            InotifyUsage.Holder(pid: 812, name: "code", watches: 81920), .init(pid: 99, name: "node", watches: 2048),
            .init(pid: 7, name: "esc\u{1B}", watches: 100), .init(pid: 5, name: "rwatch", watches: 10),
        ]
        #expect(InotifyUsage.summary(holders, own: 5)
            == "the most inotify watches of this user are held by code (pid 812): 81,920; node (pid 99): 2,048; esc\\e (pid 7): 100; this rwatch holds 10")
        #expect(InotifyUsage.summary(Array(holders.prefix(2)), own: 99)
            == "the most inotify watches of this user are held by code (pid 812): 81,920; node (pid 99, this one): 2,048")
        #expect(InotifyUsage.summary([], own: 1) == nil)
    }

    @Test func thisProcessIsCountedWithTheWatchesItHolds() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for index in 0..<20 { mkdir(dir.file("d\(index)"), 0o755) }
        let subscription = FileWatcher.watch([FilePath(dir.path)], options: WatchOptions(backend: .inotify)).subscribe()
        defer { subscription.dispose() }
        #expect(eventually { InotifyUsage.watchCount(of: getpid()) >= 21 })
        #expect(InotifyUsage.holders().contains { $0.pid == getpid() && $0.watches >= 21 })
    }
}
