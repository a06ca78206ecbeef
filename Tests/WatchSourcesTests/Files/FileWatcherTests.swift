import Glibc
import SystemPackage
import Testing
@testable import Signals
@testable import WatchSources
import TestSupport

@Suite struct FileWatcherTests {
    @Test(arguments: Backend.allCases) func reportsCreateModifyDelete(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        let file = dir.at("a.txt")
        Disk.write(file)
        #expect(eventually { recorder.has(.created, file) && recorder.hasWrite(file, backend) })
        Disk.append(file, "more")
        #expect(eventually { recorder.has(.modified, file) })
        Disk.remove(file)
        #expect(eventually { recorder.has(.deleted, file) })
    }

    /// A file renamed to a backup name (ignored) may be an editor's save
    /// beginning, so its move is held for a moment; when nothing takes the
    /// name back, the move is reported. The poller handed that hold a wall
    /// clock reading while the coalescer counts on the monotonic clock, so
    /// its deadline lay decades ahead and the move was never reported.
    @Test(arguments: Backend.allCases) func aFileRenamedToABackupNameAndLeftThereIsReported(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("notes.txt")
        Disk.write(file, "x\n")
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        #expect(settle(recorder, in: dir.path, backend: backend))
        Disk.rename(file, file + "~")
        #expect(eventually { recorder.has(.movedFrom, file) || recorder.has(.deleted, file) }, "\(recorder.snapshot)")
    }

    @Test(arguments: Backend.allCases) func watchesSubdirectoriesThatExistedAtStart(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at("x/y/z"))
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        let file = dir.at("x/y/z/deep.txt")
        Disk.write(file)
        #expect(eventually { recorder.hasWrite(file, backend) })
    }

    @Test(arguments: Backend.allCases) func reportsFilesMadeInsideANewDirectoryBeforeItsWatchLanded(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        // mkdir -p a/b/c && touch a/b/c/f, in one go.
        Disk.makeDirectories(dir.at("a/b/c"))
        Disk.write(dir.at("a/b/c/f"))
        #expect(eventually { recorder.has(.created, dir.at("a/b/c/f")) })
        #expect(recorder.has(.created, dir.at("a/b/c")))
        // And the new directories are watched from now on.
        Disk.write(dir.at("a/b/c/later"))
        #expect(eventually { recorder.hasWrite(dir.at("a/b/c/later"), backend) })
        #expect(settle(recorder, in: dir.path, backend: backend))
        #expect(recorder.events(for: dir.at("a/b/c/f")).filter { $0.kind == .created }.count == 1)
    }

    @Test(arguments: Backend.allCases) func pairsAFileRenameByCookie(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at("old.txt"))
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        Disk.rename(dir.at("old.txt"), dir.at("new.txt"))
        #expect(eventually { recorder.has(.movedTo, dir.at("new.txt")) })
        let from = recorder.events(for: dir.at("old.txt")).first { $0.kind == .movedFrom }
        let to = recorder.events(for: dir.at("new.txt")).first { $0.kind == .movedTo }
        #expect(from != nil && from?.cookie == to?.cookie && to?.cookie != 0)
    }

    @Test(arguments: Backend.allCases) func keepsPathsRightAfterADirectoryRename(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at("before/inner"))
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        Disk.rename(dir.at("before"), dir.at("after"))
        #expect(eventually { recorder.has(.movedTo, dir.at("after")) })
        let file = dir.at("after/inner/file.txt")
        Disk.write(file)
        #expect(eventually { recorder.hasWrite(file, backend) })
        #expect(!recorder.snapshot.contains { $0.path.string.hasPrefix(dir.at("before/")) })
    }

    @Test(arguments: Backend.allCases) func reportsMovesOutOfAndIntoTheTree(_ backend: Backend) {
        let dir = TempDir()
        let outside = TempDir()
        defer { dir.remove(); outside.remove() }
        Disk.write(dir.at("leaving.txt"))
        Disk.makeDirectories(outside.at("incoming/sub"))
        Disk.write(outside.at("incoming/sub/payload.txt"))
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        Disk.rename(dir.at("leaving.txt"), outside.at("leaving.txt"))
        #expect(eventually { recorder.has(backend.movedOut, dir.at("leaving.txt")) })
        Disk.rename(outside.at("incoming"), dir.at("incoming"))
        #expect(eventually { recorder.has(backend.movedIn, dir.at("incoming")) })
        #expect(eventually { recorder.has(.created, dir.at("incoming/sub/payload.txt")) })
        // The moved-in tree is watched.
        Disk.write(dir.at("incoming/sub/new.txt"))
        #expect(eventually { recorder.hasWrite(dir.at("incoming/sub/new.txt"), backend) })
    }

    @Test(arguments: Backend.allCases) func stopsWatchingADirectoryMovedOut(_ backend: Backend) {
        let dir = TempDir()
        let outside = TempDir()
        defer { dir.remove(); outside.remove() }
        Disk.makeDirectories(dir.at("gone"))
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        Disk.rename(dir.at("gone"), outside.at("gone"))
        #expect(eventually { recorder.has(backend.movedOut, dir.at("gone")) })
        Disk.write(outside.at("gone/after.txt"))
        #expect(settle(recorder, in: dir.path, backend: backend))
        #expect(!recorder.snapshot.contains { $0.path.string.hasSuffix("after.txt") })
    }

    @Test func sharesOneSetOfWatchesAndRemovesThemOnLastDispose() {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at("one/two"))
        let first = record([dir.path])
        let second = record([dir.path])
        let third = record([dir.path], options: WatchOptions(extensions: ["txt"]))
        // Three subscribers, two of them to the very same signal: one kernel watch per directory.
        #expect(kernelWatches(dir.at("one/two")) == 1)
        Disk.write(dir.at("one/two/f"))
        #expect(eventually { first.0.has(.closedWrite, dir.at("one/two/f")) && second.0.has(.closedWrite, dir.at("one/two/f")) })
        first.1.dispose()
        third.1.dispose()
        Disk.write(dir.at("one/g"))
        #expect(eventually { second.0.has(.closedWrite, dir.at("one/g")) })
        #expect(kernelWatches(dir.at("one/two")) == 1)
        second.1.dispose()
        // The last subscriber left: the tree's watches are removed.
        #expect(eventually { kernelWatches(dir.path) == 0 && kernelWatches(dir.at("one/two")) == 0 })
    }

    @Test(arguments: Backend.allCases) func nonexistentPathFailsNamingIt(_ backend: Backend) {
        let (recorder, subscription) = record(["/nonexistent/rwatch-\(getpid())/x"], backend: backend)
        defer { subscription.dispose() }
        #expect(eventually { recorder.failure.withLock { $0 } != nil })
        let error = recorder.failure.withLock { $0 }
        #expect(error?.reason == .noSuchPath(FilePath("/nonexistent/rwatch-\(getpid())/x")))
        #expect(error?.description.contains("/nonexistent/rwatch-\(getpid())/x: no such file or directory") == true)
    }

    @Test func watchLimitErrorNamesTheLimitAndTheSysctl() {
        let dir = TempDir()
        defer { dir.remove() }
        for name in ["a", "b", "c", "d"] { Disk.makeDirectories(dir.at(name)) }
        // Only with inotify forced: `.auto` polls what finds no watch.
        let options = WatchOptions(backend: .inotify)
        let seams = ReaderSeams()
        seams.limitWatches(of: FilePath(dir.path), to: 2)
        let (recorder, subscription) = record([dir.path], options: options, reader: FileWatcher.Reader(seams: seams))
        defer { subscription.dispose() }
        let error = recorder.failure.withLock { $0 }
        #expect(error?.description.contains("fs.inotify.max_user_watches = 2") == true)
        #expect(error?.description.contains("sysctl fs.inotify.max_user_watches=") == true)
    }

    @Test func runningOutOfWatchesPollsWhatHasNone() {
        let dir = TempDir()
        defer { dir.remove() }
        for name in ["a", "b", "c", "d"] { Disk.makeDirectories(dir.at(name + "/inner")) }
        let warnings = Locked<[WatchNotice]>([])
        let notices = FileWatcher.notices.subscribe(onNext: { notice in
            if notice.isWarning, notice.path.string.hasPrefix(dir.path) { warnings.withLock { $0.append(notice) } }
        })
        defer { notices.dispose() }
        let options = WatchOptions()
        let seams = ReaderSeams()
        seams.limitWatches(of: FilePath(dir.path), to: 3)
        let (recorder, subscription) = record([dir.path], options: options, reader: FileWatcher.Reader(seams: seams))
        defer { subscription.dispose() }
        #expect(recorder.failure.withLock { $0 } == nil)
        // Every directory is watched by one backend or the other.
        for name in ["a", "b", "c", "d"] {
            let file = dir.at(name + "/inner/f.txt")
            Disk.write(file)
            #expect(eventually { recorder.has(.created, file) })
        }
        // One warning at most (once per process: another test may have had
        // it), and with it the line naming who holds the most watches.
        let limits = warnings.withLock { $0.filter { if case .polling = $0.kind { true } else { false } } }
        #expect(limits.count <= 1)
        #expect(limits.first?.description.contains("sudo sysctl fs.inotify.max_user_watches=") ?? true)
        if !limits.isEmpty {
            #expect(eventually { warnings.withLock { $0.contains { $0.description.hasPrefix("the most inotify watches of this user are held by ") } } })
        }
    }

    @Test(arguments: Backend.allCases) func subscribersOfDifferentTreesSeeOnlyTheirOwn(_ backend: Backend) {
        let left = TempDir()
        let right = TempDir()
        defer { left.remove(); right.remove() }
        let (l, ls) = record([left.path], backend: backend)
        let (r, rs) = record([right.path], backend: backend)
        defer { ls.dispose(); rs.dispose() }
        Disk.write(left.at("l.txt"))
        Disk.write(right.at("r.txt"))
        #expect(eventually { l.hasWrite(left.at("l.txt"), backend) && r.hasWrite(right.at("r.txt"), backend) })
        #expect(!l.snapshot.contains { $0.path.string.hasPrefix(right.path) })
        #expect(!r.snapshot.contains { $0.path.string.hasPrefix(left.path) })
    }
}

/// How many inotify watches in this process are on `path`'s inode (read
/// from /proc/self/fdinfo, so it counts what the kernel really holds).
func kernelWatches(_ path: String) -> Int {
    var info = stat()
    guard stat(path, &info) == 0, let fds = FileSystem.entries("/proc/self/fd") else { return 0 }
    let inode = " ino:" + String(info.st_ino, radix: 16) + " "
    var count = 0
    for entry in fds {
        guard let text = FileSystem.read(FilePath("/proc/self/fdinfo/\(entry.name)")), text.contains("inotify wd:") else { continue }
        count += text.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") && $0.contains(inode) }.count
    }
    return count
}

/// Whether some inotify watch in this process is on `path`.
func watching(_ path: String) -> Bool { kernelWatches(path) > 0 }
