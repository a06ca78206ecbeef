import Glibc
import RecipeKit
import SystemPackage

/// The bundled recipes: found by name, listed with their descriptions.
struct RecipeLibrary {
    /// A recipe file and what its `Recipe(…)` says about itself.
    struct Entry {
        var name: String
        var path: String
        var description: String
    }

    let directories: [String]

    /// `argument` as a path when it names a file, else the bundled recipe
    /// of that name (`rebuild-on-save` or `rebuild-on-save.swift`).
    func resolve(_ argument: String) throws -> String {
        // The name as typed: the parser shows bytes that are not UTF-8 as
        // U+FFFD, and no such file exists. A recipe is a Swift source file,
        // and its path reaches the compiler and its messages as text.
        let typed = RawArguments.bytes(of: [argument])[0]
        guard String(validating: typed, as: UTF8.self) != nil else {
            throw RWatchError("a recipe's file name must be UTF-8: \(Quoted.path(FilePath(bytes: typed)))")
        }
        if argument.contains("/") || FileSystem.exists(argument) {
            guard FileSystem.exists(argument) else { throw RWatchError("no such recipe file: \(Quoted.path(argument))") }
            guard !FileSystem.isDirectory(argument) else { throw RWatchError("\(Quoted.path(argument)) is a directory, not a recipe file") }
            return FileSystem.absolute(argument)
        }
        let name = argument.hasSuffix(".swift") ? String(argument.dropLast(6)) : argument
        for dir in directories where FileSystem.exists("\(dir)/\(name).swift") {
            return "\(dir)/\(name).swift"
        }
        let known = entries().map(\.name).joined(separator: ", ")
        throw RWatchError("no recipe named '\(name)' (bundled: \(known.isEmpty ? "none found" : known))")
    }

    /// Every bundled recipe, first directory wins on equal names.
    func entries() -> [Entry] {
        var seen = Set<String>()
        var result: [Entry] = []
        for dir in directories {
            guard let listing = FileSystem.entries(FilePath(dir)) else { continue }
            // A recipe's tests (`NAME.tests.swift`) are not a recipe.
            let names = listing.map(\.name.string).filter { $0.hasSuffix(".swift") && !$0.hasSuffix(".tests.swift") }
                .map { String($0.dropLast(6)) }
            for name in names.sorted() where seen.insert(name).inserted {
                let path = "\(dir)/\(name).swift"
                let text = (try? FileSystem.read(path)) ?? ""
                result.append(Entry(name: name, path: path, description: Self.description(in: text) ?? ""))
            }
        }
        return result
    }

    /// The second string literal of the first `Recipe(` call: the
    /// description, read from the text without compiling.
    static func description(in text: String) -> String? {
        let found = literals(in: text)
        return found.count == 2 ? found[1] : nil
    }

    /// The first string literal of the first `Recipe(` call: the name.
    static func name(in text: String) -> String? {
        literals(in: text).first
    }

    /// The first two string literals of the first `Recipe(` call.
    private static func literals(in text: String) -> [String] {
        guard let start = text.firstRange(of: "Recipe(") else { return [] }
        var literals: [String] = []
        var current: String?
        var escaped = false
        for character in text[start.upperBound...] {
            if var literal = current {
                if escaped {
                    literal.append(character)
                    escaped = false
                    current = literal
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    literals.append(literal)
                    current = nil
                    if literals.count == 2 { return literals }
                } else {
                    literal.append(character)
                    current = literal
                }
            } else if character == "\"" {
                current = ""
            } else if character == ")" || character == "{" {
                break
            }
        }
        return literals
    }
}
