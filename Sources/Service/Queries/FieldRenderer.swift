import Glibc
import WatchmanProtocol

/// Turns a query's matches into the `files` of its reply: each file an
/// object of the fields asked for, or the one field's value alone.
struct FieldRenderer {
    let fields: FieldList
    let position: ClockPosition
    let basis: SinceBasis
    let times: TickTimes
    /// The absolute path the names are relative to (root, or root/relative_root).
    let base: [UInt8]
    let hashes: ContentHashes?

    func render(_ matches: [QueryMatch]) -> [WatchmanValue] {
        if fields.fields.count == 1 {
            let field = fields.fields[0]
            return matches.map { value(field, of: $0) }
        }
        return matches.map { match in .object(fields.fields.map { (key: $0.rawValue, value: value($0, of: match)) }) }
    }

    func value(_ field: FieldList.Field, of match: QueryMatch) -> WatchmanValue {
        let entry = match.entry
        switch field {
        case .name: return .bytes(match.name)
        case .exists: return .bool(entry.exists)
        case .new: return .bool(isNew(entry))
        case .type: return .string(String(entry.type.letter))
        case .size: return .int(match.details.size)
        case .mode: return .int(Int64(entry.mode))
        case .uid: return .int(Int64(match.details.uid))
        case .gid: return .int(Int64(match.details.gid))
        case .ino: return .int(Int64(bitPattern: match.details.ino))
        case .dev: return .int(Int64(bitPattern: match.details.dev))
        case .nlink: return .int(Int64(match.details.nlink))
        case .mtime, .mtime_ms, .mtime_us, .mtime_ns, .mtime_f: return time(entry.mtime, field)
        case .ctime, .ctime_ms, .ctime_us, .ctime_ns, .ctime_f: return time(entry.ctime, field)
        case .oclock: return .string(ClockPosition(rootNumber: position.rootNumber, tick: UInt64(entry.oclock)).clockString())
        case .cclock: return .string(ClockPosition(rootNumber: position.rootNumber, tick: UInt64(entry.cclock)).clockString())
        case .symlink_target: return symlinkTarget(match)
        case .sha1hex: return contentHash(match)
        }
    }

    /// Whether the file appeared after the `since` basis (every file of a fresh instance).
    private func isNew(_ entry: FileEntry) -> Bool {
        switch basis {
        case .fresh: true
        case .tick(let since): UInt64(entry.cclock) > since
        case .timestamp(let seconds): times.time(of: entry.cclock) > seconds
        }
    }

    /// A time in nanoseconds in the unit the field names.
    private func time(_ nanoseconds: Int64, _ field: FieldList.Field) -> WatchmanValue {
        let seconds = SinceTerm.seconds(nanoseconds)
        let fraction = nanoseconds - seconds * 1_000_000_000
        switch field.rawValue.split(separator: "_").last {
        case "ms": return .int(seconds * 1000 + fraction / 1_000_000)
        case "us": return .int(seconds * 1_000_000 + fraction / 1000)
        case "ns": return .int(nanoseconds)
        case "f": return .real(Double(seconds) + Double(fraction) * 1e-9)
        default: return .int(seconds)
        }
    }

    private func absolutePath(_ match: QueryMatch) -> [UInt8] {
        var path = base
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        return path + match.name
    }

    private func symlinkTarget(_ match: QueryMatch) -> WatchmanValue {
        guard match.entry.exists, match.entry.type == .symlink else { return .null }
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let path = absolutePath(match).map { CChar(bitPattern: $0) } + [0]
        let count = buffer.withUnsafeMutableBufferPointer { target in
            target.withMemoryRebound(to: CChar.self) { readlink(path, $0.baseAddress!, $0.count) }
        }
        return count < 0 ? .null : .bytes(Array(buffer[0..<count]))
    }

    private func contentHash(_ match: QueryMatch) -> WatchmanValue {
        let entry = match.entry
        guard entry.exists else { return .null }
        switch entry.type {
        case .regular:
            let path = absolutePath(match)
            let result = hashes?.digest(path, ino: match.details.ino, size: match.details.size, mtime: entry.mtime) ?? ContentHashes.hashFile(path)
            switch result {
            case .success(let digest): return .string(digest)
            case .failure(let error): return .object([(key: "error", value: .string("\(String(decoding: match.name, as: UTF8.self)): \(error)"))])
            }
        case .symlink:
            return .object([(key: "error", value: .string("\(String(decoding: match.name, as: UTF8.self)): file is a symlink"))])
        default:
            return .null
        }
    }
}
