import Glibc
import Signals
import WatchSources
import SystemPackage
import WatchmanProtocol

/// The state file (`--statefile`): the triggers of each root, kept across
/// restarts as watchman keeps them — `{"version": …, "watched": [{"path":
/// ROOT, "triggers": [DEFINITION…]}]}`.
///
/// Written whole on each change, atomically: a temporary file beside it,
/// flushed to disk, then renamed over it, so a crash leaves the old file
/// or the new one, never half of one. A file that cannot be read as such
/// is reported and moved aside (`PATH.damaged`), never fatal: the service
/// starts without what it held.
final class TriggerStore: Sendable {
    struct Entry: Sendable, Equatable {
        var path: [UInt8]
        var triggers: [WatchmanValue]
    }

    let path: FilePath?
    let version: String
    private let writing = Lock()
    /// Set while the service stops: the roots let go then are not forgotten.
    private let frozen = Locked(false)

    init(path: FilePath?, version: String) {
        self.path = path
        self.version = version
    }

    /// What the file holds; a damaged file is set aside (with `report`
    /// told why) and reads as empty, as does a missing one.
    func load(report: (String) -> Void) -> [Entry] {
        guard let path, let bytes = Self.contents(path) else { return [] }
        do throws(StoreError) {
            return try Self.parse(bytes)
        } catch {
            let aside = FilePath(path.string + ".damaged")
            let moved = path.withPlatformString { from in aside.withPlatformString { rename(from, $0) } } == 0
            report("the state file \(Quoted.escaped(path)) is damaged (\(error.reason)); "
                + (moved ? "moved it to \(Quoted.escaped(aside)), starting without it" : "starting without it"))
            return []
        }
    }

    struct StoreError: Error {
        var reason: String
    }

    static func parse(_ bytes: [UInt8]) throws(StoreError) -> [Entry] {
        let value: WatchmanValue
        do {
            value = try JSONLines.decode(bytes.last == UInt8(ascii: "\n") ? Array(bytes.dropLast()) : bytes)
        } catch {
            throw StoreError(reason: "not JSON: \(error)")
        }
        guard case .object = value else { throw StoreError(reason: "not a JSON object") }
        guard let watched = value["watched"]?.elements else { return [] }
        return try watched.map { entry throws(StoreError) in
            guard let path = entry["path"]?.stringBytes else { throw StoreError(reason: "a watched root without a path") }
            guard let triggers = (entry["triggers"] ?? []).elements else { throw StoreError(reason: "triggers not an array") }
            return Entry(path: path, triggers: triggers)
        }
    }

    /// Writes `roots` (those with triggers) unless the service is stopping.
    func save(_ roots: [Entry], report: (String) -> Void) {
        guard let path, !frozen.withLock({ $0 }) else { return }
        let watched: [WatchmanValue] = roots.filter { !$0.triggers.isEmpty }
            .sorted { $0.path.lexicographicallyPrecedes($1.path) }
            .map { ["path": .bytes($0.path), "triggers": .array($0.triggers)] }
        let bytes = JSONLines.encode(["version": .string(version), "watched": .array(watched)])
        writing.withLock {
            if let problem = Self.replace(path, with: bytes) { report("cannot save the state file \(Quoted.escaped(path)): \(problem)") }
        }
    }

    /// From now on nothing is saved (the service is stopping).
    func freeze() {
        frozen.withLock { $0 = true }
    }

    /// Writes `bytes` to a temporary file beside `path`, flushes it and
    /// renames it over `path`; the problem, or nil.
    private static func replace(_ path: FilePath, with bytes: [UInt8]) -> String? {
        let temporary = FilePath(path.string + ".tmp-\(getpid())")
        let fd = temporary.withPlatformString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let problem = written == bytes.count && fsync(fd) == 0 ? nil : String(cString: strerror(errno))
        close(fd)
        guard problem == nil, temporary.withPlatformString({ from in path.withPlatformString { rename(from, $0) } }) == 0 else {
            let reason = problem ?? String(cString: strerror(errno))
            _ = temporary.withPlatformString { unlink($0) }
            return reason
        }
        return nil
    }

    private static func contents(_ path: FilePath) -> [UInt8]? {
        let fd = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}
