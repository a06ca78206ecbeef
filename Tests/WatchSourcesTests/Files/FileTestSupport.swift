import Glibc
import SystemPackage
@testable import Signals
@testable import WatchSources
import TestSupport

/// A temporary directory, removed with everything in it by `remove()`.
struct TempDir {
    let path: String

    init() { path = TemporaryDirectory(prefix: "rwatch-files").path }

    func at(_ relative: String) -> String { path + "/" + relative }

    func remove() { Disk.removeTree(path) }
}

/// Plain file-system operations for tests, each one syscall or a few.
enum Disk {
    static func write(_ path: String, _ text: String = "x\n", flags: Int32 = O_WRONLY | O_CREAT | O_TRUNC) {
        let fd = open(path, flags | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "open \(path): \(errno)")
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    static func append(_ path: String, _ text: String) { write(path, text, flags: O_WRONLY | O_APPEND) }

    static func makeDirectories(_ path: String) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            mkdir(current, 0o755)
        }
    }

    static func rename(_ from: String, _ to: String) { precondition(Glibc.rename(from, to) == 0, "rename \(from): \(errno)") }
    static func remove(_ path: String) { unlink(path) }

    static func removeTree(_ path: String) { TemporaryDirectory.removeTree(path) }
}

/// Collects what a subscription receives.
final class Recorder: Sendable {
    let events = Locked<[FileEvent]>([])
    let failure = Locked<FileWatchError?>(nil)
    let completed = Locked(false)

    var snapshot: [FileEvent] { events.withLock { $0 } }

    func has(_ kind: FileEvent.Kind, _ path: String) -> Bool {
        has(kind, FilePath(path))
    }

    func has(_ kind: FileEvent.Kind, _ path: FilePath) -> Bool {
        snapshot.contains { $0.kind == kind && $0.path == path }
    }

    func events(for path: String) -> [FileEvent] { snapshot.filter { $0.path == FilePath(path) } }
}

/// Subscribes a recorder to `FileWatcher.watch`; the watch is armed on return.
func record(_ paths: [String], options: WatchOptions = WatchOptions()) -> (Recorder, any Disposable) {
    let recorder = Recorder()
    let subscription = FileWatcher.watch(paths, options: options).subscribe(
        onNext: { event in recorder.events.withLock { $0.append(event) } },
        onError: { error in recorder.failure.withLock { $0 = error as? FileWatchError } },
        onCompleted: { recorder.completed.withLock { $0 = true } }
    )
    return (recorder, subscription)
}

/// Writes a marker file and waits for its event: everything done before it
/// has been read by then (inotify keeps order within one instance).
func settle(_ recorder: Recorder, in directory: String, name: String = "zz-marker") -> Bool {
    let marker = directory + "/" + name
    Disk.write(marker)
    return eventually { recorder.has(.closedWrite, marker) }
}
