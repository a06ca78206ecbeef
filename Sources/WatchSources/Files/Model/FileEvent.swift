import SystemPackage

/// One change under a watched path, as `FileWatcher` reports it.
///
/// Paths are absolute, and bytes: a name need not be UTF-8, and every byte
/// reaches commands as it was (`Quoted.escaped` shows it on a terminal).
/// A rename inside the watched tree gives a `movedFrom` and a `movedTo`
/// with the same non-zero `cookie`; a move out of the tree gives only
/// `movedFrom`, a move in only `movedTo`. An editor's save
/// (write-to-temp-then-rename, vim's backup-rename-write) arrives as
/// `modified` of the real path.
public struct FileEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the path.
    public enum Kind: String, Sendable, Hashable {
        case created, modified, closedWrite, deleted, movedFrom, movedTo, attributes
        /// The kernel queue overflowed: events were lost, the tree was
        /// rescanned, and what changed since follows as further events.
        case overflow
    }

    /// The absolute path that changed.
    public var path: FilePath
    /// What happened.
    public var kind: Kind
    /// Whether the path is (or was) a directory.
    public var isDirectory: Bool
    /// Pairs a `movedFrom` with its `movedTo`; 0 for every other kind.
    public var cookie: UInt32
    /// For a `closedWrite`: everything written was reported already, as a
    /// `modified` half a second after the first write while the writer kept
    /// the file open, and nothing was written since. The close completes
    /// that change; it is not a new one. Scripts waiting for a finished
    /// write still see it; `batched` leaves it out, so a writer slow to
    /// close (an fsync, an upload's last flush) never makes a second run.
    public var closesReportedWrite: Bool

    /// An event; `cookie` only matters for moves.
    public init(path: FilePath, kind: Kind, isDirectory: Bool = false, cookie: UInt32 = 0, closesReportedWrite: Bool = false) {
        self.path = path
        self.kind = kind
        self.isDirectory = isDirectory
        self.cookie = cookie
        self.closesReportedWrite = closesReportedWrite
    }

    /// `kind path` with a trailing `/` for directories, e.g. `modified /src/a.swift`,
    /// the path escaped for a terminal (`Quoted.escaped`): one event, one line.
    public var description: String {
        "\(kind.rawValue) \(Quoted.escaped(path))\(isDirectory ? "/" : "")"
    }
}
