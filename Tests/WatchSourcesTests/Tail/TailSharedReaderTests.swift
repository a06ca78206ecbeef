@testable import Signals
@testable import WatchSources
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A process that tails a log and watches files holds one inotify
/// instance: `Tail` is a client of the reader every `FileWatcher` watch
/// shares.
@Suite struct TailSharedReaderTests {
    /// A `FileWatcher` watch (inotify) and a `Tail` of a log in the same
    /// directory, at once: one instance of the process watches that
    /// directory, before and after the tail subscribed, and it is the
    /// instance that was there before.
    ///
    /// Counted among the instances that watch the test's own directory
    /// (`/proc/self/fdinfo` lists each instance's watches by inode), not
    /// among all the process's instances: other tests, running meanwhile,
    /// open and close instances of their own.
    @Test func tailingBesideAFileWatcherAddsNoInotifyInstance() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let watched = try #require(InotifyInstances.Inode(of: directory))
        var options = WatchOptions()
        options.backend = .inotify
        options.usesService = false
        let watcher = FileWatcher.watch([directory], options: options).subscribe(onNext: { _ in })
        defer { watcher.dispose() }
        let before = InotifyInstances.watching(watched)
        #expect(before.count == 1, "instances watching the directory with FileWatcher alone: \(before)")
        let tail = TailRecorder(Tail.follow([log], backend: .inotify))
        defer { tail.dispose() }
        // The tail is in place: what is written now arrives.
        writeFile(log, "line\n", append: true)
        #expect(eventually { tail.texts == ["line"] })
        let after = InotifyInstances.watching(watched)
        #expect(after == before, "instances watching the directory with FileWatcher and Tail: \(after), before: \(before)")
    }

    /// The name's subscription to the reader is the tail's own business:
    /// the name is announced as followed, never as watched (a recipe that
    /// tails a log would otherwise say it watches it too).
    @Test func aTailedLogIsAnnouncedAsFollowedOnly() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let notices = Locked<[WatchNotice.Kind]>([])
        let listening = FileWatcher.notices.subscribe(onNext: { notice in
            if notice.path == FilePath(log) { notices.withLock { $0.append(notice.kind) } }
        })
        defer { listening.dispose() }
        let tail = TailRecorder(Tail.follow([log], backend: .inotify))
        defer { tail.dispose() }
        writeFile(log, "line\n", append: true)
        #expect(eventually { tail.texts == ["line"] })
        let kinds = notices.withLock { $0 }
        #expect(kinds.count == 1 && kinds.allSatisfy { if case .following = $0 { true } else { false } }, "\(kinds)")
    }
}

/// The process's inotify instances, as `/proc/self` shows them.
private enum InotifyInstances {
    /// A directory as inotify's fdinfo names it: the inode, and the device
    /// in the kernel's encoding (major << 20 | minor).
    struct Inode: Equatable {
        let inode: UInt64
        let device: UInt64

        init?(of path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            inode = UInt64(info.st_ino)
            // glibc's encoding of st_dev (gnu_dev_major, gnu_dev_minor).
            let dev = UInt64(info.st_dev)
            let major = (dev >> 8) & 0xfff | (dev >> 32) & ~0xfff
            let minor = dev & 0xff | (dev >> 12) & ~0xff
            device = major << 20 | minor
        }
    }

    /// The descriptors of the process's inotify instances that hold a
    /// watch on `inode`.
    static func watching(_ inode: Inode) -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let fd = Int32(name), isInotify(fd), watches(fd, inode) else { continue }
            found.append(fd)
        }
        return found.sorted()
    }

    /// Whether descriptor `fd` is an inotify instance (its link says so).
    private static func isInotify(_ fd: Int32) -> Bool {
        var target = [UInt8](repeating: 0, count: 64)
        let count = readlink("/proc/self/fd/\(fd)", &target, target.count)
        return count > 0 && target[0..<count] == Array("anon_inode:inotify".utf8)[...]
    }

    /// Whether instance `fd` holds a watch on `inode`: its fdinfo has a
    /// line `inotify wd:… ino:<hex> sdev:<hex> …` for it.
    private static func watches(_ fd: Int32, _ inode: Inode) -> Bool {
        guard let file = fopen("/proc/self/fdinfo/\(fd)", "r") else { return false }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        let wanted = "ino:\(String(inode.inode, radix: 16)) sdev:\(String(inode.device, radix: 16)) "
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.contains(wanted) { return true }
        }
        return false
    }
}
