import Glibc
import SystemPackage
@testable import Signals
@testable import WatchSources
import TestSupport
import Testing

/// A temporary directory, removed with everything in it by `remove()`.
struct TempDir {
    let path: String

    init() { path = TemporaryDirectory(prefix: "rwatch-files").path }

    func at(_ relative: String) -> String { path + "/" + relative }

    func remove() { Disk.removeTree(path) }
}

/// Plain file-system operations for tests, each one syscall or a few.
enum Disk {
    /// Opens, writes and closes with no child being spawned meanwhile
    /// (`withoutSpawns`), so the close is reported when it happens.
    static func write(_ path: String, _ text: String = "x\n", flags: Int32 = O_WRONLY | O_CREAT | O_TRUNC) {
        withoutSpawns {
            let fd = open(path, flags | O_CLOEXEC, 0o644)
            precondition(fd >= 0, "open \(path): \(errno)")
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        }
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

/// The backends the behaviour tests run on: inotify, and polling a local
/// tree (often, so that the tests stay quick). Polling cannot see a file
/// being closed, nor where a file moved out of the tree went: those
/// expectations differ, and say so.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inotify, poll

    var watchBackend: WatchBackend {
        switch self {
        case .inotify: return .inotify
        case .poll: return .poll(interval: .milliseconds(20))
        }
    }

    /// Options with this backend.
    func options(_ options: WatchOptions = WatchOptions()) -> WatchOptions {
        var options = options
        options.backend = watchBackend
        return options
    }

    /// How a finished write of an existing file is reported: inotify sees
    /// the close, polling sees the new size and mtime.
    var written: FileEvent.Kind { self == .inotify ? .closedWrite : .modified }

    /// How a move out of the tree is reported: polling sees only that the name is gone.
    var movedOut: FileEvent.Kind { self == .inotify ? .movedFrom : .deleted }

    /// How a move into the tree is reported: polling sees only a new name.
    var movedIn: FileEvent.Kind { self == .inotify ? .movedTo : .created }

    var testDescription: String { rawValue }
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

    /// Whether writing `path` (new or not) was reported: its close under
    /// inotify; its creation or change when polled.
    func hasWrite(_ path: String, _ backend: Backend) -> Bool {
        switch backend {
        case .inotify: return has(.closedWrite, path)
        case .poll: return has(.created, path) || has(.modified, path)
        }
    }
}

/// Subscribes a recorder to `FileWatcher.watch`; the watch is armed on
/// return. `backend`, when given, replaces the options' backend; `reader`,
/// when given, reads it instead of the process's reader (a test's
/// `ReaderSeams` are given to a reader of its own).
func record(_ paths: [String], options: WatchOptions = WatchOptions(), backend: Backend? = nil,
            reader: FileWatcher.Reader? = nil) -> (Recorder, any Disposable) {
    let recorder = Recorder()
    let options = backend?.options(options) ?? options
    let watch = reader.map { FileWatcher.flattened(FileWatcher.batches(paths.map { FilePath($0) }, options: options, reader: $0)) }
        ?? FileWatcher.watch(paths, options: options)
    let subscription = watch.subscribe(
        onNext: { event in recorder.events.withLock { $0.append(event) } },
        onError: { error in recorder.failure.withLock { $0 = error as? FileWatchError } },
        onCompleted: { recorder.completed.withLock { $0 = true } }
    )
    return (recorder, subscription)
}

/// Writes a marker file and waits until it is reported: everything done
/// before it has been reported by then. inotify keeps order within one
/// instance; a poll pass started after the marker was written sees
/// everything before it (`PollScanner.fence`).
func settle(_ recorder: Recorder, in directory: String, name: String = "zz-marker", backend: Backend = .inotify) -> Bool {
    let marker = directory + "/" + name
    Disk.write(marker)
    switch backend {
    case .inotify:
        return eventually { recorder.has(.closedWrite, marker) }
    case .poll:
        PollScanner.shared.fence()
        return recorder.hasWrite(marker, .poll)
    }
}

/// Whether `path` is watched: an inotify watch on it, or (polled) a
/// snapshot of it.
func watching(_ path: String, _ backend: Backend) -> Bool {
    switch backend {
    case .inotify:
        return kernelWatches(path) > 0
    case .poll:
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return PollScanner.shared.polledDirectories().contains(.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }
}
