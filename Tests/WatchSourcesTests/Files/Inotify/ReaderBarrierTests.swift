import Dispatch
import Glibc
import Signals
import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// The reader thread serves every watch of the process: one watch's
/// stream of changes must not keep it from the others' requests.
@Suite struct ReaderBarrierTests {
    /// `rwatch serve` syncs a root with `FileWatcher.flushReads()`: what
    /// the kernel queued before the call is delivered. A writer that keeps
    /// the queue from ever emptying (another root's build) must not keep
    /// that call from returning: the reader reads what was queued when it
    /// began, not until the queue is empty. (Before, the call returned
    /// only once the writer stopped.)
    @Test func aBarrierReturnsWhileAWriterKeepsTheQueueFromEmptying() {
        let dir = TempDir()
        defer { dir.remove() }
        let seen = Locked(0)
        let subscription = FileWatcher.watch([dir.path], options: WatchOptions(backend: .inotify))
            .subscribe(onNext: { _ in seen.withLock { $0 += 1 } })
        defer { subscription.dispose() }

        let writer = QueueFiller(path: dir.at("storm"))
        defer { writer.stop() }
        #expect(eventually { seen.withLock { $0 } > 100 }, "the writer's changes were not seen")

        let returned = DispatchSemaphore(value: 0)
        DetachedThread.start {
            FileWatcher.flushReads()
            returned.signal()
        }
        // A deadline for a condition, not a measurement.
        #expect(returned.wait(timeout: .now() + .seconds(60)) == .success, "the barrier waited for the writer to stop")
        #expect(writer.isWriting, "the queue emptied: the writer stopped early")
    }

    /// A sync of `rwatch serve` skips the barrier's two thread wake-ups
    /// when the root's reader is caught up: waiting in `poll` with all it
    /// read delivered, and nothing queued. It must never say so while a
    /// record is unread (a change would be missing from the answer).
    @Test func aReaderIsCaughtUpOnlyWithNothingQueuedOrUndelivered() {
        let dir = TempDir()
        defer { dir.remove() }
        let seams = ReaderSeams()
        let reader = FileWatcher.Reader(seams: seams)
        let seen = Locked<[FileEvent]>([])
        // As the service watches: a new file is not held back as a possible temporary one.
        var options = WatchOptions(backend: .inotify)
        options.coalescesSaves = false
        let subscription = FileWatcher.batches([FilePath(dir.path)], options: options, reader: reader)
            .subscribe(onNext: { events in seen.withLock { $0 += events } })
        defer { subscription.dispose() }
        #expect(eventually { reader.isCaughtUp() }, "an idle reader never said it was caught up")

        // Held in a command, the reader reads nothing: the change waits in the queue.
        let release = seams.holdReaders()
        Disk.write(dir.at("new"))
        #expect(!reader.isCaughtUp(), "caught up with a record unread")
        // Spinning for it ends, unanswered: the reader is held.
        #expect(!reader.waitUntilCaughtUp(spinningAtMost: .milliseconds(1)))
        release()

        #expect(eventually { reader.isCaughtUp() })
        // Caught up means delivered: the change is there, no barrier needed.
        #expect(seen.withLock { $0 }.contains { $0.path == FilePath(dir.at("new")) })
    }
}

/// A thread that keeps the process's inotify queue holding records
/// (rewriting one file) without filling it: it writes while
/// fewer than 32 KB are queued, and otherwise waits a millisecond, so it
/// takes little of the machine.
private final class QueueFiller: Sendable {
    private let stopping = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        DetachedThread.start { [self] in
            while !stopping.withLock({ $0 }) {
                guard Self.queuedBytes() < 32 << 10 else {
                    usleep(1000)  // the pace of the refill, not a wait for an outcome
                    continue
                }
                for _ in 0..<50 {
                    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                    guard fd >= 0 else { continue }
                    _ = write(fd, "x", 1)
                    close(fd)
                }
            }
            done.signal()
        }
    }

    /// Still writing (not stopped).
    var isWriting: Bool { !stopping.withLock { $0 } }

    func stop() {
        stopping.withLock { $0 = true }
        done.wait()
    }

    /// What the process's inotify instances hold queued (`FIONREAD`).
    static func queuedBytes() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var total = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let fd = Int32(name) else { continue }
            var target = [CChar](repeating: 0, count: 64)
            let length = readlink("/proc/self/fd/" + name, &target, target.count - 1)
            guard length > 0, String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "anon_inode:inotify" else { continue }
            var queued: Int32 = 0
            if ioctl(fd, UInt(FIONREAD), &queued) == 0 { total += Int(queued) }
        }
        return total
    }
}
