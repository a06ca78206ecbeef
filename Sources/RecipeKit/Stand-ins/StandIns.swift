// TEMPORARY STAND-INS (issue 6 only): the file shapes of /work/brief/APIS.md so
// that RecipeKit builds before issue 4 lands. Delete this whole folder when
// WatchSources provides the real FileWatcher, FileEvent, ChangeBatch and Glob.
import Glibc
import Signals

public struct FileEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case created, modified, closedWrite, deleted, movedFrom, movedTo, attributes, overflow }
    public var path: String
    public var kind: Kind
    public var isDirectory: Bool
    public var cookie: UInt32
    public init(path: String, kind: Kind, isDirectory: Bool = false, cookie: UInt32 = 0) {
        self.path = path; self.kind = kind; self.isDirectory = isDirectory; self.cookie = cookie
    }
}

public struct WatchOptions: Sendable {
    public var include: [String] = []
    public var exclude: [String] = []
    public var extensions: [String] = []
    public var useVCSIgnore = true
    public var useDefaultIgnore = true
    public init() {}
    public static func matching(_ globs: String...) -> WatchOptions { var o = WatchOptions(); o.include = globs; return o }
    public func validated() throws -> WatchOptions { self }
}

public enum FileWatcher {
    public static func watch(_ paths: [String], options: WatchOptions = WatchOptions()) -> Signal<FileEvent> { Signal.never() }
}

public struct ChangeBatch: Sendable {
    public init(_ events: [FileEvent]) {
        self.events = events
        var seen = Set<String>()
        paths = events.map(\.path).filter { seen.insert($0).inserted }
        kinds = [:]
        commonRoot = nil
    }
    public var events: [FileEvent]
    public var paths: [String]
    public var kinds: [String: Set<FileEvent.Kind>]
    public var commonRoot: String?
    public func merging(_ other: ChangeBatch) -> ChangeBatch { ChangeBatch(events + other.events) }
}

public struct Glob: Sendable {
    public init(_ pattern: String) throws {}
    public func matches(_ relativePath: String) -> Bool { true }
}

