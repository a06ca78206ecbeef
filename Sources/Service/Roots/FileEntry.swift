import Glibc

/// What a root's table remembers of one name: its last `lstat`, when the
/// clock saw it appear and last change, and where its name is. 64 bytes
/// (58 used), so that a tree of 100,000 files costs about 6 MB; the name
/// itself lives in the table's `NameStorage`, the owner and device in its
/// `Owners`.
struct FileEntry: Sendable, Equatable {
    var size: Int64 = 0
    var ino: UInt64 = 0
    /// Nanoseconds since the epoch.
    var mtime: Int64 = 0
    var ctime: Int64 = 0
    /// The directory holding it (an entry id); -1 for the root itself.
    var parent: Int32 = -1
    /// Where the name's bytes start in the table's `NameStorage`.
    var nameOffset: UInt32 = 0
    var nlink: UInt32 = 0
    /// The tick at which it was last seen appear (created, or back after a deletion).
    var cclock: UInt32 = 0
    /// The tick at which it last changed (appeared, was modified, vanished).
    var oclock: UInt32 = 0
    /// `st_mode`: the type in its top four bits, then the permissions.
    var mode: UInt16 = 0
    /// Index of its (uid, gid, dev) in the table's `Owners`.
    var owner: UInt16 = 0
    var nameLength: UInt8 = 0
    var flags: UInt8 = 0

    static let existsFlag: UInt8 = 1
    /// Set while a crawl pass has seen it (a recrawl marks the rest deleted).
    static let seenFlag: UInt8 = 2

    var exists: Bool {
        get { flags & Self.existsFlag != 0 }
        set { flags = newValue ? flags | Self.existsFlag : flags & ~Self.existsFlag }
    }

    var seen: Bool {
        get { flags & Self.seenFlag != 0 }
        set { flags = newValue ? flags | Self.seenFlag : flags & ~Self.seenFlag }
    }

    var type: FileType { FileType(mode: UInt32(mode)) }
    var isDirectory: Bool { type == .directory }
}

/// A file's type as watchman's `type` term and field name it.
public enum FileType: UInt8, Sendable, CaseIterable {
    case regular, directory, symlink, block, character, fifo, socket, unknown

    /// The type bits of `st_mode`.
    init(mode: UInt32) {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): self = .regular
        case UInt32(S_IFDIR): self = .directory
        case UInt32(S_IFLNK): self = .symlink
        case UInt32(S_IFBLK): self = .block
        case UInt32(S_IFCHR): self = .character
        case UInt32(S_IFIFO): self = .fifo
        case UInt32(S_IFSOCK): self = .socket
        default: self = .unknown
        }
    }

    /// Its letter: `f`, `d`, `l`, `b`, `c`, `p`, `s`, or `?`.
    public var letter: Character {
        switch self {
        case .regular: "f"
        case .directory: "d"
        case .symlink: "l"
        case .block: "b"
        case .character: "c"
        case .fifo: "p"
        case .socket: "s"
        case .unknown: "?"
        }
    }

    /// The type a letter of the `type` term names; nil for one no file
    /// here can have (`D`, Solaris' door, is valid and matches nothing).
    init?(letter: Character) {
        guard let type = FileType.allCases.first(where: { $0.letter == letter && $0 != .unknown }) else { return nil }
        self = type
    }
}
