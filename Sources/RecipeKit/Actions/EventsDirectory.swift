import Glibc
import WatchSources

/// The private directory that holds the runs' events files
/// (`RWATCH_EVENTS_FILE`): made on first use (mode 0700, under `$TMPDIR`,
/// else `$XDG_RUNTIME_DIR`, else `/tmp`), removed with its last file, and closed for good when a stop
/// signal ends rwatch: from then on no run makes a file or a directory
/// again, so nothing is left behind by a run that starts while rwatch exits.
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
    /// session has one: each run makes its file there, and a disk's
    /// `/tmp` costs a run up to a millisecond and more while the disk is
    /// busy; else `/tmp`.
    private static var temporaryBase: String {
        for name in ["TMPDIR", "XDG_RUNTIME_DIR"] {
            // The directory's path is kept as text (it is handed to the run
            // as RWATCH_EVENTS_FILE): a value that is not UTF-8 is passed
            // over rather than decoded into another path.
            if let value = getenv(name).flatMap({ String(validatingCString: $0) }), !value.isEmpty { return value }
        }
        return "/tmp"
    }
}
