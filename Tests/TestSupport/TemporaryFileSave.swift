#if canImport(Glibc)
import Glibc
#endif

/// Saves through a temporary file, as tools and libraries make them: a
/// new file written under another name next to the real one, then renamed
/// over it (or, for a backup or a probe, deleted). Whatever the name, the
/// save is one change of the real file. The names are the tools' own
/// (what `strace` shows); the random parts are fixed here.
public enum TemporaryFileSave: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `NAME.tmp.123`: write-file-atomic, fs-extra, prettier, many
    /// hand-written atomic saves (the temporary's name and a pid or counter).
    case numberedTmp
    /// `.NAME.swp~tmp`: a hidden temporary with a suffix no default ignore knows.
    case swapTilde
    /// `NAME.XXXXXX`: GLib's `g_file_set_contents`, Qt's `QSaveFile`, `install`.
    case mkstempSuffix
    /// `tmpXXXXXXXX`: Python's `tempfile.NamedTemporaryFile(dir=...)` then
    /// `os.replace`, as `atomicwrites` does.
    case pythonTempfile
    /// `.tmpXXXXXX`: Rust's `tempfile::NamedTempFile::persist`, Go's `renameio`.
    case dotTmp
    /// `sedXXXXXX`: `sed -i` (made with mode 0600, its mode copied, renamed over).
    case sedInPlace
    /// `NAME___jb_tmp___`: JetBrains' safe write of a new version (the old
    /// file deleted, then the temporary renamed over it).
    case jetBrainsTemporary
    /// `NAME.vsctmp`: VS Code's atomic save.
    case vscodeAtomic
    /// `.goutputstream-XXXXXX`: GIO's `g_file_replace` (gedit, GNOME apps).
    case gioOutputStream
    /// `4913`: vim's probe that the directory is writable, made and
    /// deleted, then the file written in place.
    case vimProbe
    /// `NAME.12345`: `gofmt -w`'s backup of the old text, made before the
    /// file is written in place and deleted after.
    case gofmtBackup
    /// `.#NAME`: Emacs' lock, a symbolic link made and removed around an
    /// in-place write.
    case emacsLock
    /// A symbolic link made under a temporary name and renamed over the
    /// real one (`ln -sfn`, deployment tools' atomic switch).
    case symlinkSwap

    public var description: String { rawValue }

    /// Whether the save changes the real file by one rename (the rest
    /// write it in place, which a polling pass may see half done).
    public var isRename: Bool {
        switch self {
        case .vimProbe, .gofmtBackup, .emacsLock: return false
        default: return true
        }
    }

    /// The name of the file the save makes besides `name` (its temporary
    /// file, backup, probe or lock), in the same directory.
    public func temporaryName(for name: String) -> String {
        switch self {
        case .numberedTmp: return name + ".tmp.123"
        case .swapTilde: return "." + name + ".swp~tmp"
        case .mkstempSuffix: return name + ".K3v9Qa"
        case .pythonTempfile: return "tmpx8fz_2ka"
        case .dotTmp: return ".tmpAb12Cd"
        case .sedInPlace: return "sedQ3xT9k"
        case .jetBrainsTemporary: return name + "___jb_tmp___"
        case .vscodeAtomic: return name + ".vsctmp"
        case .gioOutputStream: return ".goutputstream-W1ZQ2B"
        case .vimProbe: return "4913"
        case .gofmtBackup: return name + ".38211"
        case .emacsLock: return ".#" + name
        case .symlinkSwap: return "." + name + ".link-tmp"
        }
    }

    /// Saves `text` into `path` the way the tool does, its steps one
    /// after the other; says whether they were quick (`QuickSave`).
    @discardableResult
    public func save(_ path: String, _ text: String) -> Bool {
        let directory = String(path[..<path.lastIndex(of: "/")!])
        let temporary = directory + "/" + temporaryName(for: String(path[path.index(after: path.lastIndex(of: "/")!)...]))
        let old = self == .gofmtBackup ? TemporaryDirectory.read(path) : ""
        return QuickSave.run { steps(path, text, temporary: temporary, old: old) }
    }

    private func steps(_ path: String, _ text: String, temporary: String, old: String) {
        switch self {
        case .numberedTmp, .swapTilde, .mkstempSuffix, .pythonTempfile, .dotTmp, .jetBrainsTemporary, .vscodeAtomic, .gioOutputStream:
            Self.replace(path, through: temporary, text)
        case .sedInPlace:
            Self.replace(path, through: temporary, text, mode: 0o600)
        case .vimProbe:
            Self.write(temporary, "", flags: O_WRONLY | O_CREAT | O_EXCL)
            unlink(temporary)
            Self.write(path, text, flags: O_WRONLY | O_TRUNC)
        case .emacsLock:
            symlink("user@host.4242:1700000000", temporary)
            Self.write(path, text, flags: O_WRONLY | O_TRUNC)
            unlink(temporary)
        case .gofmtBackup:
            Self.write(temporary, old, flags: O_WRONLY | O_CREAT | O_EXCL)
            Self.write(path, text, flags: O_WRONLY | O_TRUNC)
            unlink(temporary)
        case .symlinkSwap:
            symlink(text, temporary)
            precondition(rename(temporary, path) == 0, "rename: \(errno)")
        }
    }

    /// Writes `text` to `temporary` (fsync'd, `mode`), then renames it over `path`.
    private static func replace(_ path: String, through temporary: String, _ text: String, mode: mode_t = 0o644) {
        write(temporary, text, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode, sync: true)
        if mode != 0o644 { chmod(temporary, 0o644) }
        precondition(rename(temporary, path) == 0, "rename \(temporary): \(errno)")
    }

    /// Opens, writes and closes (`save` holds off spawns meanwhile, so the
    /// close is the last one).
    private static func write(_ path: String, _ text: String, flags: Int32, mode: mode_t = 0o644, sync: Bool = false) {
        let fd = open(path, flags | O_CLOEXEC, mode)
        precondition(fd >= 0, "open \(path): \(errno)")
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if sync { fsync(fd) }
        close(fd)
    }
}
