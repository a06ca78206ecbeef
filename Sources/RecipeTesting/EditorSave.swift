import RecipeKit

/// How an editor saves a file, as the kernel sees it: the changes a
/// `RecipeTest.save` makes, in one go, so that the watch's own save rule
/// decides what a recipe sees of it.
public enum EditorSave: Sendable, CaseIterable {
    /// Truncate and write through the same file (nano, VS Code, `>`).
    case inPlace
    /// Write a temporary file beside it, then rename it over the file
    /// (JetBrains' safe write, `sed -i`, many editors' atomic save).
    case atomicRename
    /// vim's default: a probe file `4913` made and deleted, the file
    /// renamed to its backup `NAME~`, written anew, its mode set, the
    /// backup deleted.
    case vim
    /// emacs: a lock link `.#NAME` made, the file written, the lock removed.
    case emacs

    /// The changes of saving `bytes` to `path`, which `exists` or not.
    func changes(_ path: FilePath, _ bytes: [UInt8], exists: Bool) -> [VirtualChange] {
        let directory = path.removingLastComponent()
        switch self {
        case .inPlace:
            return [.write(path, bytes)]
        case .atomicRename:
            let temporary = Self.sibling(of: path, prefix: ".", suffix: ".tmp.4242")
            return [.write(temporary, bytes), .rename(temporary, to: path)]
        case .vim:
            let probe = directory.appending("4913")
            let backup = Self.sibling(of: path, suffix: "~")
            var changes: [VirtualChange] = [.write(probe, []), .remove(probe)]
            if exists { changes.append(.rename(path, to: backup)) }
            changes += [.write(path, bytes), .changeAttributes(path)]
            if exists { changes.append(.remove(backup)) }
            return changes
        case .emacs:
            let lock = Self.sibling(of: path, prefix: ".#")
            return [.link(lock), .write(path, bytes), .remove(lock)]
        }
    }

    /// `path`'s name with `prefix` and `suffix` around it, beside it: as
    /// bytes, so a name that is not UTF-8 keeps its own.
    private static func sibling(of path: FilePath, prefix: String = "", suffix: String = "") -> FilePath {
        let name = path.lastComponent.map { component in component.withBytes { Array($0) } } ?? Array("file".utf8)
        return path.removingLastComponent().pushing(FilePath(bytes: Array(prefix.utf8) + name + Array(suffix.utf8)))
    }
}
