#if canImport(Glibc)
import Glibc
#endif

/// Editors' saves, replayed on a real file with the system calls each
/// editor makes, in its order, with its names and flags (what `strace`
/// shows of a save; vim 9, GNU Emacs 29, VS Code's atomic save, IntelliJ's
/// safe write, GNU sed 4.9).
public enum EditorSave: String, CaseIterable, Sendable, CustomStringConvertible {
    /// vim, `backupcopy=no` (or `auto` choosing it), `writebackup`: a write
    /// probe `4913`, the file renamed to `file~`, written anew, fsync'd,
    /// its mode set, the backup dropped.
    case vimRename
    /// vim, `backupcopy=yes`: the file copied to `file~`, then truncated and
    /// written in place, the backup dropped.
    case vimCopy
    /// vim with its swap file: `.file.swp` written before and after an
    /// in-place save (`backupcopy=yes`, `nowritebackup`).
    case vimSwap
    /// Emacs: a lock link `.#file`, the first save of a session renames the
    /// file to `file~` and writes it anew (later saves write in place), the
    /// mode set again, the lock removed.
    case emacs
    /// VS Code's atomic save: `file.vsctmp` written, then renamed over the file.
    case vscodeAtomic
    /// JetBrains' safe write: `file___jb_tmp___` written, the file renamed to
    /// `file___jb_old___`, the temporary renamed to the file, the old one dropped.
    case jetBrains
    /// `sed -i`: `./sedXXXXXX` made and written, renamed over the file.
    case sedInPlace
    /// An in-place write: open with `O_TRUNC`, write, close (VS Code's
    /// default save, most programs).
    case inPlace

    public var description: String { rawValue }

    /// Saves `text` into `path` as the editor does, its steps one after the
    /// other; `first` is the first save of the editing session (Emacs makes
    /// its backup then). Says whether the steps were quick (`QuickSave`).
    @discardableResult
    public func save(_ path: String, _ text: String, first: Bool = true) -> Bool {
        let old = self == .vimCopy ? Self.read(path) : ""
        return QuickSave.run { steps(path, text, first: first, old: old) }
    }

    private func steps(_ path: String, _ text: String, first: Bool, old: String) {
        let directory = String(path[..<path.lastIndex(of: "/")!])
        let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
        switch self {
        case .vimRename:
            Self.write(directory + "/4913", "", flags: O_WRONLY | O_CREAT | O_EXCL)
            unlink(directory + "/4913")
            Self.rename(path, path + "~")
            Self.write(path, text, flags: O_WRONLY | O_CREAT | O_TRUNC, sync: true)
            chmod(path, 0o644)
            unlink(path + "~")
        case .vimCopy:
            Self.write(path + "~", old, flags: O_WRONLY | O_CREAT | O_EXCL)
            chmod(path + "~", 0o644)
            Self.write(path, text, flags: O_WRONLY | O_TRUNC, sync: true)
            unlink(path + "~")
        case .vimSwap:
            let swap = directory + "/." + name + ".swp"
            Self.write(swap, "b0VIM 9.0", flags: O_RDWR | O_CREAT | O_TRUNC)
            Self.write(path, text, flags: O_WRONLY | O_TRUNC, sync: true)
            Self.write(swap, "b0VIM 9.0 saved", flags: O_RDWR | O_TRUNC, sync: true)
        case .emacs:
            let lock = directory + "/.#" + name
            symlink("user@host.4242:1700000000", lock)
            if first {
                Self.rename(path, path + "~")
                Self.write(path, text, flags: O_WRONLY | O_CREAT | O_TRUNC, sync: true)
                chmod(path, 0o644)
            } else {
                Self.write(path, text, flags: O_WRONLY | O_TRUNC, sync: true)
            }
            unlink(lock)
        case .vscodeAtomic:
            Self.write(path + ".vsctmp", text, flags: O_WRONLY | O_CREAT | O_TRUNC)
            Self.rename(path + ".vsctmp", path)
        case .jetBrains:
            Self.write(path + "___jb_tmp___", text, flags: O_WRONLY | O_CREAT | O_TRUNC, sync: true)
            Self.rename(path, path + "___jb_old___")
            Self.rename(path + "___jb_tmp___", path)
            unlink(path + "___jb_old___")
        case .sedInPlace:
            let temporary = directory + "/sedQ3xT9k"
            let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            precondition(fd >= 0, "open \(temporary): \(errno)")
            fchmod(fd, 0o644)
            Self.write(fd, text)
            close(fd)
            Self.rename(temporary, path)
        case .inPlace:
            Self.write(path, text, flags: O_WRONLY | O_CREAT | O_TRUNC)
        }
    }

    /// Opens, writes and closes (`save` holds off spawns meanwhile: the
    /// close is seen when it happens).
    private static func write(_ path: String, _ text: String, flags: Int32, sync: Bool = false) {
        let fd = open(path, flags | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "open \(path): \(errno)")
        write(fd, text)
        if sync { fsync(fd) }
        close(fd)
    }

    private static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    private static func rename(_ from: String, _ to: String) {
        precondition(Glibc.rename(from, to) == 0, "rename \(from): \(errno)")
    }

    private static func read(_ path: String) -> String { TemporaryDirectory.read(path) }
}
