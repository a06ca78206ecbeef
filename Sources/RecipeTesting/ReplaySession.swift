import RecipeKit
import WatchmanProtocol

/// A recorded session: the lines `rwatch events --json` printed, each a
/// file event and the monotonic time it came (`"time"`, in seconds).
package struct ReplaySession: Sendable {
    /// One recorded event.
    package struct Entry: Sendable, Equatable {
        package var event: FileEvent
        package var time: Duration
    }

    /// The events, in the order recorded.
    package var entries: [Entry]

    /// Why a session could not be read: one line, naming the line number.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Reads the JSON lines of `bytes` (empty lines skipped). Times must
    /// not go back: a session is played in order.
    package init(_ bytes: [UInt8]) throws(Failure) {
        entries = []
        var last = Duration.zero
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
            let entry = try Self.entry(Array(line), line: index + 1)
            guard entry.time >= last else {
                throw Failure(description: "line \(index + 1): its time goes back (\(entry.time) after \(last))")
            }
            last = entry.time
            entries.append(entry)
        }
    }

    private static func entry(_ line: [UInt8], line number: Int) throws(Failure) -> Entry {
        let value: WatchmanValue
        do {
            value = try JSONLines.decode(line)
        } catch {
            throw Failure(description: "line \(number): not JSON: \(error)")
        }
        let field = { (name: String) in value.pairs?.first { $0.key == name }?.value }
        let path: FilePath
        switch field("path") {
        case .string(let text): path = FilePath(text)
        case .bytes(let bytes): path = FilePath(bytes: bytes)
        default: throw Failure(description: "line \(number): no \"path\"")
        }
        guard let kindName = field("kind")?.text, let kind = FileEvent.Kind(rawValue: kindName) else {
            throw Failure(description: "line \(number): no known \"kind\"")
        }
        guard let seconds = field("time")?.number, seconds >= 0, seconds.isFinite else {
            throw Failure(description: "line \(number): no \"time\" (record the session with rwatch events --json)")
        }
        let event = FileEvent(path: path, kind: kind, isDirectory: field("isDirectory")?.boolean ?? false)
        return Entry(event: event, time: .nanoseconds(Int64((seconds * 1e9).rounded())))
    }

    /// The tree's changes that make the recorded events, at their times:
    /// a create or a modification is a write, a rename's two halves one
    /// rename (a half alone a delete or a write), a delete a delete. The
    /// close that ends a write is part of it.
    var changes: [(time: Duration, change: VirtualChange)] {
        var result: [(Duration, VirtualChange)] = []
        var index = 0
        while index < entries.count {
            let (event, time) = (entries[index].event, entries[index].time)
            index += 1
            switch event.kind {
            case .created: result.append((time, event.isDirectory ? .makeDirectory(event.path) : .write(event.path, [])))
            case .modified: result.append((time, .write(event.path, [])))
            case .deleted: result.append((time, .remove(event.path)))
            case .attributes: result.append((time, .changeAttributes(event.path)))
            case .movedTo: result.append((time, .write(event.path, [])))
            case .movedFrom:
                if index < entries.count, entries[index].event.kind == .movedTo {
                    result.append((time, .rename(event.path, to: entries[index].event.path)))
                    index += 1
                } else {
                    result.append((time, .remove(event.path)))
                }
            case .closedWrite, .overflow: break
            }
        }
        return result
    }

    /// What must exist before the session starts: every directory above a
    /// path, and each file whose first event is not its creation.
    var existing: (directories: Set<FilePath>, files: Set<FilePath>) {
        var directories = Set<FilePath>()
        var files = Set<FilePath>()
        var seen = Set<FilePath>()
        for entry in entries {
            var parent = entry.event.path.removingLastComponent()
            while !parent.isEmpty, parent != "/", directories.insert(parent).inserted { parent = parent.removingLastComponent() }
            guard seen.insert(entry.event.path).inserted else { continue }
            switch entry.event.kind {
            case .created, .movedTo, .overflow: break
            default: if entry.event.isDirectory { directories.insert(entry.event.path) } else { files.insert(entry.event.path) }
            }
        }
        return (directories, files)
    }
}
