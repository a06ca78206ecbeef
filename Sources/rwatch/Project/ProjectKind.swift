import WatchSources

/// What kind of project a directory holds, told by the file that marks it;
/// `rwatch init` writes a starter recipe that suits it.
enum ProjectKind: String, CaseIterable, Sendable {
    case swiftPackage, cargo, go, node, python, make, plain

    /// The files that mark each kind, most specific kind first: a Swift
    /// package that also has a Makefile is a Swift package.
    var markers: [String] {
        switch self {
        case .swiftPackage: return ["Package.swift"]
        case .cargo: return ["Cargo.toml"]
        case .go: return ["go.mod"]
        case .node: return ["package.json"]
        case .python: return ["pyproject.toml", "setup.py"]
        case .make: return ["Makefile", "makefile", "GNUmakefile"]
        case .plain: return []
        }
    }

    /// How `rwatch init` names the kind it found.
    var title: String {
        switch self {
        case .swiftPackage: return "a Swift package"
        case .cargo: return "a Cargo project"
        case .go: return "a Go module"
        case .node: return "a Node.js project"
        case .python: return "a Python project"
        case .make: return "a Makefile project"
        case .plain: return "a directory with no build file rwatch knows"
        }
    }

    /// The kind of the project in `directory` (`.plain` when no marker is there).
    static func of(_ directory: String) -> ProjectKind {
        allCases.first { kind in kind.markers.contains { FileSystem.isRegularFile(directory + "/" + $0) } } ?? .plain
    }

    /// The project root for `rwatch init`: the nearest directory at or
    /// above `directory` holding a marker file; else the repository root
    /// (the nearest directory holding `.git`); else `directory` itself.
    static func root(from directory: String) -> String {
        var current = directory
        while true {
            if of(current) != .plain { return current }
            if FileSystem.exists(current + "/.git") || current == "/" || current.isEmpty { break }
            current = FileSystem.directory(of: current)
        }
        return FileSystem.exists(current + "/.git") ? current : directory
    }
}
