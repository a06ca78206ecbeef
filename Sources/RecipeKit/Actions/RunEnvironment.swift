import Glibc

/// The environment variables that tell a command what changed, and the
/// events file behind `RWATCH_EVENTS_FILE`:
///
/// - `RWATCH_PATHS`: the changed paths, one per line, cut at 64 KiB (at a
///   line end), in which case `RWATCH_PATHS_TRUNCATED=1` is set too;
/// - `RWATCH_COMMON_PATH`: the deepest directory holding every changed path;
/// - `RWATCH_EVENTS_FILE`: a file with the whole batch as JSON lines
///   (`{"path":…,"kind":…,"isDirectory":…}`), always complete, private
///   (0600 in a 0700 directory) and removed when the run ends.
struct RunEnvironment: Sendable {
    static let pathsLimit = 64 * 1024

    private(set) var variables: [String: String] = [:]
    private var eventsFile: String?

    init(_ changes: ChangeBatch?) {
        let paths = changes?.paths ?? []
        var joined = ""
        var truncated = false
        for path in paths {
            let extra = (joined.isEmpty ? 0 : 1) + path.utf8.count
            if joined.utf8.count + extra > Self.pathsLimit {
                truncated = true
                break
            }
            if !joined.isEmpty { joined += "\n" }
            joined += path
        }
        variables["RWATCH_PATHS"] = joined
        if truncated { variables["RWATCH_PATHS_TRUNCATED"] = "1" }
        variables["RWATCH_COMMON_PATH"] = changes?.commonRoot ?? ""
        if let file = Self.writeEvents(changes?.events ?? []) {
            eventsFile = file
            variables["RWATCH_EVENTS_FILE"] = file
        }
    }

    /// Deletes the events file.
    func remove() {
        if let eventsFile { unlink(eventsFile) }
    }

    // MARK: The private directory

    private static let directory = Locked<String?>(nil)
    private static let counter = Locked(0)

    /// Deletes the private directory (at the end of `RecipeRunner.run`).
    static func removeDirectory() {
        guard let path = directory.withLock({ $0 }) else { return }
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }

    private static func privateDirectory() -> String? {
        directory.withLock { current in
            if let current { return current }
            let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array("\(base)/rwatch-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { return nil }
            current = String(cString: made)
            return current
        }
    }

    private static func writeEvents(_ events: [FileEvent]) -> String? {
        guard let dir = privateDirectory() else { return nil }
        let number = counter.withLock { value -> Int in
            value += 1
            return value
        }
        let path = "\(dir)/events-\(number).jsonl"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text = ""
        for event in events { text += JSONLine.encode(event) + "\n" }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return nil
            }
            offset += written
        }
        bytes.removeAll()
        return path
    }
}
