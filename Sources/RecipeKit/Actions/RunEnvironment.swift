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
///   complete, private (0600 in a 0700 directory, `EventsDirectory`) and
///   removed when the run ends.
///
/// Paths go into the variables byte for byte, whether UTF-8 or not.
struct RunEnvironment: Sendable {
    static let pathsLimit = 64 * 1024

    /// The variables, as bytes (`ProcessOptions.environmentBytes`).
    private(set) var variables: [String: [UInt8]] = [:]
    private var eventsFile: String?
    private let directory: EventsDirectory?

    /// The variables for `changes`, with the events file made in
    /// `directory` (none without one: a world on virtual time writes no file).
    init(_ changes: ChangeBatch?, directory: EventsDirectory? = .shared) {
        self.directory = directory
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
        if let directory, let file = Self.writeEvents(changes?.events ?? [], in: directory) {
            eventsFile = file
            variables["RWATCH_EVENTS_FILE"] = Array(file.utf8)
        }
    }

    /// Deletes the events file, and the private directory with the last
    /// one. Later calls do nothing (a run can end both by exiting and by
    /// being disposed).
    func remove() {
        guard let eventsFile, let directory else { return }
        directory.remove(eventsFile)
    }

    /// Deletes the private directory unless a run still uses a file in it
    /// (at the end of `RecipeRunner.run`).
    static func removeDirectory() {
        EventsDirectory.shared.removeIfEmpty()
    }

    private static func writeEvents(_ events: [FileEvent], in directory: EventsDirectory) -> String? {
        guard let (fd, path) = directory.makeFile() else { return nil }
        defer { close(fd) }
        var text = ""
        for event in events { text += JSONLine.encode(event) + "\n" }
        do {
            _ = try FileDescriptor(rawValue: fd).writeAll(text.utf8)
        } catch {
            directory.remove(path)
            return nil
        }
        return path
    }
}
