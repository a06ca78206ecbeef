import Glibc
import RecipeKit
import SystemPackage

/// The private directory compiled recipes are kept in:
/// `$XDG_CACHE_HOME/rwatch`, default `~/.cache/rwatch`.
///
/// A binary found there is executed, so the directory must be ours alone:
/// it is created 0700; one owned by another user, writable by group or
/// others, or a symlink is refused; one of ours that others can only read
/// or enter (an older rwatch's, a umask's) is made 0700 again.
///
/// Entries are named by the hash of what was compiled (`RecipeCompiler`),
/// so a cached binary is found again only for the same text.
struct RecipeCache {
    let path: String

    /// The cache directory for this user, created and checked.
    static func open() throws -> RecipeCache {
        let base: String
        if let xdg = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") {
            base = xdg
        } else if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty {
            base = home + "/.cache"
        } else {
            throw RWatchError("cannot place the recipe cache: neither XDG_CACHE_HOME nor HOME is set")
        }
        try makeDirectories(base)
        let path = base + "/rwatch"
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw RWatchError("cannot create cache directory \(Quoted.path(path)): \(Errno(rawValue: errno).description)")
        }
        try check(path)
        try makePrivate(path)
        return RecipeCache(path: path)
    }

    /// Refuses a directory that someone else could have put a binary in.
    static func check(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw RWatchError("cannot use cache directory \(Quoted.path(path)): \(Errno(rawValue: errno).description)")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw RWatchError("refusing cache directory \(Quoted.path(path)): not a directory (a symlink?)")
        }
        guard info.st_uid == geteuid() else {
            throw RWatchError("refusing cache directory \(Quoted.path(path)): owned by uid \(info.st_uid), not by you")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw RWatchError("refusing cache directory \(Quoted.path(path)): writable by group or others (chmod 700 it)")
        }
    }

    /// Takes group and others' read and search bits off `path` (checked
    /// by `check` to be our own directory, writable by us alone).
    static func makePrivate(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw RWatchError("cannot use cache directory \(Quoted.path(path)): \(Errno(rawValue: errno).description)")
        }
        guard info.st_mode & 0o077 != 0 else { return }
        guard chmod(path, 0o700) == 0 else {
            throw RWatchError("cannot make cache directory \(Quoted.path(path)) private (chmod 700): \(Errno(rawValue: errno).description)")
        }
    }

    /// Where the binary for `key` lives (it may not exist yet).
    func binary(for key: String) -> String {
        "\(path)/\(key)/recipe"
    }

    /// A fresh scratch directory inside the cache for one compile.
    func scratch() throws -> String {
        var template = Array("\(path)/tmp-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw RWatchError("cannot create a directory in \(Quoted.path(path)): \(Errno(rawValue: errno).description)")
        }
        return String(cString: made)
    }

    /// Moves a finished compile into place under `key`; when another rwatch
    /// won the race, its identical result is kept.
    func store(_ scratch: String, as key: String) {
        if rename(scratch, "\(path)/\(key)") != 0 { FileSystem.removeTree(scratch) }
    }

    private static func makeDirectories(_ path: String) throws {
        if FileSystem.isDirectory(path) { return }
        try makeDirectories(FileSystem.directory(of: path))
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw RWatchError("cannot create \(Quoted.path(path)): \(Errno(rawValue: errno).description)")
        }
    }
}
