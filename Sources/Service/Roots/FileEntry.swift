import Glibc

/// What a root's table remembers of one name: its last `lstat`, when the
/// clock saw it appear and last change, and where its name is. Packed in
/// 52 bytes of 32-bit words (4-byte aligned, so no padding), so that a
/// tree of 100,000 files costs about 5 MB; the name itself lives in the
/// table's `NameStorage`.
///
/// What many entries share is kept once, in the table's `SharedFields`:
/// the owner, group and device, and the high bits of the inode number,
/// the size and the link count (zero for nearly every file). An entry
/// keeps the low 32 bits of its inode number and size, the low 24 of its
/// link count, and the index of its shared record: the table gives back
/// every value exactly (`FileTable.details(of:)`), however large.
struct FileEntry: Sendable, Equatable {
    private var mtimeWords: (UInt32, UInt32) = (0, 0)
    private var ctimeWords: (UInt32, UInt32) = (0, 0)
    /// The low 32 bits of the inode number.
    var inoLow: UInt32 = 0
    /// The low 32 bits of the size.
    var sizeLow: UInt32 = 0
    /// The index of its record in the table's `SharedFields`.
    var shared: UInt32 = 0
    /// The directory holding it (an entry id); -1 for the root itself, and for a freed id.
    var parent: Int32 = -1
    /// Where the name's bytes start in the table's `NameStorage`.
    var nameOffset: UInt32 = 0
    /// The link count's low 24 bits, the name's length in the top 8.
    private var nlinkAndLength: UInt32 = 0
    /// The tick at which it was last seen appear (created, or back after a deletion).
    var cclock: UInt32 = 0
    /// The tick at which it last changed (appeared, was modified, vanished).
    var oclock: UInt32 = 0
    /// `st_mode`: the type in its top four bits, then the permissions.
    var mode: UInt16 = 0
    private var flags: UInt16 = 0

    static func == (lhs: FileEntry, rhs: FileEntry) -> Bool {
        lhs.mtime == rhs.mtime && lhs.ctime == rhs.ctime && lhs.inoLow == rhs.inoLow && lhs.sizeLow == rhs.sizeLow
            && lhs.shared == rhs.shared && lhs.parent == rhs.parent && lhs.nameOffset == rhs.nameOffset
            && lhs.nlinkAndLength == rhs.nlinkAndLength && lhs.cclock == rhs.cclock && lhs.oclock == rhs.oclock
            && lhs.mode == rhs.mode && lhs.flags == rhs.flags
    }

    private static let existsFlag: UInt16 = 0x4000
    /// Set while a crawl pass has seen it (a recrawl marks the rest deleted).
    private static let seenFlag: UInt16 = 0x8000

    /// Nanoseconds since the epoch.
    var mtime: Int64 {
        get { Int64(bitPattern: UInt64(mtimeWords.1) << 32 | UInt64(mtimeWords.0)) }
        set { mtimeWords = (UInt32(truncatingIfNeeded: newValue), UInt32(truncatingIfNeeded: newValue >> 32)) }
    }

    var ctime: Int64 {
        get { Int64(bitPattern: UInt64(ctimeWords.1) << 32 | UInt64(ctimeWords.0)) }
        set { ctimeWords = (UInt32(truncatingIfNeeded: newValue), UInt32(truncatingIfNeeded: newValue >> 32)) }
    }

    /// The low 24 bits of the link count.
    var nlinkLow: UInt32 {
        get { nlinkAndLength & 0x00FF_FFFF }
        set { nlinkAndLength = nlinkAndLength & 0xFF00_0000 | newValue & 0x00FF_FFFF }
    }

    var nameLength: UInt8 {
        get { UInt8(truncatingIfNeeded: nlinkAndLength >> 24) }
        set { nlinkAndLength = nlinkAndLength & 0x00FF_FFFF | UInt32(newValue) << 24 }
    }

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
