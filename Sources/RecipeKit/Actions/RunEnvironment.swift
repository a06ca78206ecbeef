import Glibc
import SystemPackage

/// The environment variables that tell a command what changed, and the
/// events file behind `RWATCH_EVENTS_FILE`:
///
/// - `RWATCH_PATHS`: the changed paths, one per line, cut at 64 KiB (at a
///   line end), in which case `RWATCH_PATHS_TRUNCATED=1` is set too;
/// - `RWATCH_COMMON_PATH`: the deepest directory holding every changed path;
/// - `RWATCH_EVENTS_FILE`: a file with the whole batch as JSON lines
///   (`{"path":…,"kind":…,"isDirectory":…}`, see `JSONLine`), always
///   complete, private (0600 in a 0700 directory) and removed when the run
///   ends.
///
/// Paths go into the variables byte for byte, whether UTF-8 or not.
struct RunEnvironment: Sendable {
    static let pathsLimit = 64 * 1024

    /// The variables, as bytes (`ProcessOptions.environmentBytes`).
    private(set) var variables: [String: [UInt8]] = [:]
    private var eventsFile: String?

    init(_ changes: ChangeBatch?) {
        let paths = changes?.paths ?? []
        var joined: [UInt8] = []
        var truncated = false
        for path in paths {
            let bytes = path.bytes
            let extra = (joined.isEmpty ? 0 : 1) + bytes.count
            if joined.count + extra > Self.pathsLimit {
                truncated = true
                break
            }
            if !joined.isEmpty { joined.append(UInt8(ascii: "\n")) }
            joined += bytes
        }
        variables["RWATCH_PATHS"] = joined
        if truncated { variables["RWATCH_PATHS_TRUNCATED"] = Array("1".utf8) }
        variables["RWATCH_COMMON_PATH"] = changes?.commonRoot?.bytes ?? []
        if let file = Self.writeEvents(changes?.events ?? []) {
            eventsFile = file
            variables["RWATCH_EVENTS_FILE"] = Array(file.utf8)
        }
    }

    /// Deletes the events file, and the private directory with the last
    /// one. Later calls do nothing (a run can end both by exiting and by
    /// being disposed).
    func remove() {
        guard let eventsFile else { return }
        let wasLive = Self.directory.withLock { $0.live.remove(eventsFile) != nil }
        guard wasLive else { return }
        unlink(eventsFile)
        Self.removeDirectory()
    }

    // MARK: The private directory

    private struct Directory {
        var path: String?
        /// Events files written and not yet removed.
        var live: Set<String> = []
        var counter = 0
        /// Set when a stop signal ends rwatch: no directory is made after
        /// the last one was removed (a run starting meanwhile gets none).
        var closed = false
    }

    private static let directory = Locked(Directory())

    /// Deletes the private directory unless a run still uses a file in it
    /// (after the last events file goes, and at the end of `RecipeRunner.run`).
    static func removeDirectory() {
        directory.withLock { state in
            guard let path = state.path, state.live.isEmpty else { return }
            rmdir(path)
            state.path = nil
        }
    }

    /// Registers, once, the directory's removal for when a stop signal ends
    /// rwatch.
    private static let removeOnStop: Void = ProcessSupervisor.onStop { removeDirectoryOnStop() }

    /// Deletes the private directory and what is left in it, when a stop
    /// signal ends rwatch (every child is stopped by then).
    private static func removeDirectoryOnStop() {
        guard let path = directory.withLock({ state in
            defer {
                state.path = nil
                state.closed = true
            }
            return state.path
        }) else { return }
        if let handle = opendir(path) {
            while let entry = readdir(handle) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name.hasPrefix("events-") { unlink(path + "/" + name) }
            }
            closedir(handle)
        }
        rmdir(path)
    }

    /// Creates the next events file in the private directory (made on
    /// first use, 0700) and returns its descriptor and path.
    private static func createEventsFile() -> (Int32, String)? {
        // Registered before the first directory exists, so a stop signal
        // can never come between the two.
        _ = removeOnStop
        return directory.withLock { state -> (Int32, String)? in
            guard !state.closed else { return nil }
            if state.path == nil {
                let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
                var template = Array("\(base)/rwatch-XXXXXX".utf8CString)
                guard let made = mkdtemp(&template) else { return nil }
                state.path = String(cString: made)
            }
            guard let dir = state.path else { return nil }
            state.counter += 1
            let path = "\(dir)/events-\(state.counter).jsonl"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return nil }
            state.live.insert(path)
            return (fd, path)
        }
    }

    private static func writeEvents(_ events: [FileEvent]) -> String? {
        guard let (fd, path) = createEventsFile() else { return nil }
        defer { close(fd) }
        var text = ""
        for event in events { text += JSONLine.encode(event) + "\n" }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                unlink(path)
                _ = directory.withLock { $0.live.remove(path) }
                return nil
            }
            offset += written
        }
        bytes.removeAll()
        return path
    }
}
