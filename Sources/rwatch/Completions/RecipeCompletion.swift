import ArgumentParser
import Glibc
import RecipeKit
import SystemPackage

/// What `rwatch run` and `rwatch check` complete a recipe to: the bundled
/// recipes' names and, as for a path, folders and `.swift` files. An
/// ArgumentParser custom completion, run by the rwatch being completed.
enum RecipeCompletion {
    static let kind = CompletionKind.custom { _, _, prefix in candidates(prefix) }

    static func candidates(_ prefix: String) -> [String] {
        let names = RecipeLibrary(directories: Installation.recipeDirectories()).entries().map(\.name)
        return (names.filter { $0.hasPrefix(prefix) } + paths(prefix)).compactMap(escaped)
    }

    /// The folders (with a `/`) and `.swift` files whose path starts with
    /// `prefix`; hidden ones only when asked for with a leading dot.
    static func paths(_ prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        guard let entries = FileSystem.entries(FilePath(folder.isEmpty ? "." : folder)) else { return [] }
        var result: [String] = []
        for entry in entries {
            guard let name = String(validating: entry.name.string.utf8, as: UTF8.self),
                  name.hasPrefix(start), !name.hasPrefix(".") || start.hasPrefix(".") else { continue }
            if FileSystem.isDirectory(folder + name) {
                result.append(folder + name + "/")
            } else if name.hasSuffix(".swift") {
                result.append(folder + name)
            }
        }
        return result.sorted()
    }

    /// A candidate as the requesting shell reads it, nil for one it cannot
    /// hold. bash's script passes them through `compgen -W`, which expands
    /// them (a `$(…)` in a file name would run): each character that is
    /// not plainly a name's is escaped with a backslash. zsh's reads
    /// `name:description`: colons are escaped. A control character would
    /// break any shell's line: no such name is offered.
    static func escaped(_ candidate: String) -> String? {
        guard !candidate.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else { return nil }
        switch CompletionShell.requesting {
        case .bash?:
            let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+,:@%")
            return candidate.map { plain.contains($0) || !$0.isASCII ? String($0) : "\\" + String($0) }.joined()
        case .zsh?:
            return candidate.split(separator: ":", omittingEmptySubsequences: false).joined(separator: "\\:")
        default:
            return candidate
        }
    }
}
