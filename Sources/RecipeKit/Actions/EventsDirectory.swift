import Glibc
import SystemPackage
import WatchSources

/// The private directory that holds the runs' events files
/// (`RWATCH_EVENTS_FILE`): made on first use (mode 0700, under
/// `temporaryBase`: `$TMPDIR`, else `$XDG_RUNTIME_DIR`, else `/dev/shm`,
/// else `/tmp`), removed with its last file, and closed for good when a
/// stop signal ends rwatch: from then on no run makes a file or a
/// directory again, so nothing is left behind by a run that starts while
/// rwatch exits.
package final class EventsDirectory: Sendable {
    /// The process's directory; closed by the stop-signal cleanup.
    package static let shared: EventsDirectory = {
        let directory = EventsDirectory()
        // Registered before any directory exists; if the stop came first,
        // this closes it at once.
        ProcessSupervisor.onStop { directory.close() }
        return directory
    }()

    private struct State {
        var path: String?
        /// Events files made and not yet removed.
        var live: Set<String> = []
        var counter = 0
        /// Set by `close()`: nothing is made any more.
        var closed = false
    }

    private let state = Locked(State())
    /// Where the directory is made; nil for `temporaryBase`.
    private let base: String?

    /// A directory made under `base` when first needed (`temporaryBase` by default).
    init(base: String? = nil) {
        self.base = base
    }

    /// Creates the next events file (making the directory if needed) and
    /// returns its open descriptor and path; nil once closed, or when the
    /// file cannot be made.
    func makeFile() -> (descriptor: Int32, path: String)? {
        state.withLock { state in
            guard !state.closed else { return nil }
            if state.path == nil {
                var template = Array("\(base ?? Self.temporaryBase)/rwatch-XXXXXX".utf8CString)
                guard let made = mkdtemp(&template) else { return nil }
                state.path = String(cString: made)
            }
            guard let directory = state.path else { return nil }
            state.counter += 1
            let path = "\(directory)/events-\(state.counter).jsonl"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return nil }
            state.live.insert(path)
            return (fd, path)
        }
    }

    /// Deletes `file`, and the directory with the last file. A file
    /// already removed (a run ends both by exiting and by being disposed,
    /// or `close()` took it) is left alone.
    func remove(_ file: String) {
        state.withLock { state in
            guard state.live.remove(file) != nil else { return }
            unlink(file)
            if state.live.isEmpty, let path = state.path {
                rmdir(path)
                state.path = nil
            }
        }
    }

    /// Deletes the directory unless a run still uses a file in it.
    func removeIfEmpty() {
        state.withLock { state in
            guard let path = state.path, state.live.isEmpty else { return }
            rmdir(path)
            state.path = nil
        }
    }

    /// Deletes the directory and every file left in it, and makes nothing
    /// from now on (when a stop signal ends rwatch: every child is gone).
    func close() {
        state.withLock { state in
            state.closed = true
            for file in state.live { unlink(file) }
            state.live.removeAll()
            if let path = state.path { rmdir(path) }
            state.path = nil
        }
    }

    /// Whether the directory exists now (tests).
    var path: String? { state.withLock { $0.path } }

    /// `$TMPDIR` when set (the user's choice); else the user's runtime
    /// directory, `$XDG_RUNTIME_DIR`, private and in memory where a
    /// session has one; else `/dev/shm` when it is the shared, sticky
    /// in-memory directory (`isSharedMemoryDirectory`); else `/tmp`. Each
    /// run makes its file there, and a disk's `/tmp` costs a run 0.2 ms,
    /// and more than a millisecond while the disk is busy, where memory
    /// costs 13 µs (BENCHMARKS.md, "Where a save → `sh -c` command's time
    /// goes"). The directory is 0700 and its files 0600 wherever it is.
    package static var temporaryBase: String {
        for name in ["TMPDIR", "XDG_RUNTIME_DIR"] {
            // The directory's path is kept as text (it is handed to the run
            // as RWATCH_EVENTS_FILE): a value that is not UTF-8 is passed
            // over rather than decoded into another path.
            if let value = getenv(name).flatMap({ String(validatingCString: $0) }), !value.isEmpty { return value }
        }
        return sharedMemoryIsUsable ? "/dev/shm" : "/tmp"
    }

    /// Whether `/dev/shm` is usable for the directory, asked once.
    private static let sharedMemoryIsUsable = isSharedMemoryDirectory("/dev/shm")

    /// Whether `path` is a directory on tmpfs that anyone may make an
    /// entry in and only its owner remove (mode 1777 and owned by root,
    /// as `/tmp`), and this process may write to: somewhere a private
    /// directory can be made in memory without trusting anyone else's.
    package static func isSharedMemoryDirectory(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
              info.st_mode & 0o1777 == 0o1777, info.st_uid == 0,
              access(path, W_OK | X_OK) == 0 else { return false }
        return MountTable.fileSystemType(of: FilePath(path)) == "tmpfs"
    }
}
