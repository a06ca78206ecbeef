import Glibc
import SystemPackage

/// What git's configuration says about ignore rules, read the way git reads
/// it, without running git: from the system, global and repository
/// configuration (the last one set wins; `include.path` is followed,
/// `includeIf` is not; `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM` and
/// `GIT_CONFIG_NOSYSTEM` are honoured). Where the global excludes file is
/// (`core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore`, else
/// `~/.config/git/ignore`), and whether patterns ignore case
/// (`core.ignorecase`).
enum GitConfiguration {
    /// The environment variables git reads for this.
    struct Environment: Sendable, Hashable {
        var home: FilePath?
        var xdgConfigHome: FilePath?
        var configGlobal: FilePath?
        var configSystem: FilePath?
        var noSystem = false

        /// This process's environment; the paths kept as bytes (they need not be UTF-8).
        static var current: Environment {
            func path(_ name: String) -> FilePath? { getenv(name).map { FilePath(platformString: $0) } }
            let noSystem = getenv("GIT_CONFIG_NOSYSTEM").map { ["1", "true", "yes", "on"].contains(String(cString: $0).lowercased()) } ?? false
            return Environment(home: path("HOME"), xdgConfigHome: path("XDG_CONFIG_HOME"), configGlobal: path("GIT_CONFIG_GLOBAL"),
                               configSystem: path("GIT_CONFIG_SYSTEM"), noSystem: noSystem)
        }

        /// `$XDG_CONFIG_HOME/git`, else `~/.config/git`.
        var xdgGitDirectory: FilePath? {
            if let xdg = xdgConfigHome, !xdg.isEmpty { return xdg.appending("git") }
            return home.map { $0.appending(".config/git") }
        }
    }

    /// The global excludes file for a repository whose shared git directory
    /// is `commonDirectory` (nil outside any repository), relative paths
    /// taken from `top`. Nil when there is none to read.
    static func excludesFile(commonDirectory: FilePath?, top: FilePath, environment: Environment) -> FilePath? {
        var value: String? = nil
        for file in files(commonDirectory: commonDirectory, environment: environment) {
            if let found = lastEntry(section: "core", key: "excludesfile", in: file, environment: environment, depth: 0)?.value {
                value = found
            }
        }
        guard let value else { return environment.xdgGitDirectory.map { $0.appending("ignore") } }
        if value.isEmpty { return nil }
        return FileSystem.absolute(top.pushing(expand(value, environment: environment)))
    }

    /// Whether git matches ignore patterns regardless of ASCII case in the
    /// repository whose shared git directory is `commonDirectory` (nil
    /// outside any repository): `core.ignorecase` from the same files as
    /// the excludes file. Unset is false, git's default; git sets it true
    /// itself in a repository it creates on a case-insensitive file system
    /// (vfat, exFAT, WSL's drvfs), where rwatch must ignore what git does.
    static func ignoreCase(commonDirectory: FilePath?, environment: Environment) -> Bool {
        var value = false
        for file in files(commonDirectory: commonDirectory, environment: environment) {
            if let found = lastEntry(section: "core", key: "ignorecase", in: file, environment: environment, depth: 0) {
                value = boolean(found.value)
            }
        }
        return value
    }

    /// A boolean as git reads one: a key without `=` is true; `true`,
    /// `yes`, `on` (any case) and a non-zero integer are true; the rest
    /// (`false`, `no`, `off`, `0`, empty, and what git would reject) false.
    static func boolean(_ value: String?) -> Bool {
        guard let value else { return true }
        switch value.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off", "": return false
        default:
            // An integer, possibly with a k, m or g unit.
            var digits = Substring(value)
            if let last = digits.last, "kKmMgG".contains(last) { digits = digits.dropLast() }
            return Int(digits).map { $0 != 0 } ?? false
        }
    }

    /// The configuration files git reads, in order (a later value wins):
    /// the system file, the global ones, the repository's.
    private static func files(commonDirectory: FilePath?, environment: Environment) -> [FilePath] {
        var files: [FilePath] = []
        if !environment.noSystem { files.append(environment.configSystem ?? "/etc/gitconfig") }
        if let global = environment.configGlobal {
            files.append(global)
        } else {
            if let xdg = environment.xdgGitDirectory { files.append(xdg.appending("config")) }
            if let home = environment.home { files.append(home.appending(".gitconfig")) }
        }
        if let commonDirectory { files.append(commonDirectory.appending("config")) }
        return files
    }

    /// `~/x` with the home directory.
    private static func expand(_ path: String, environment: Environment) -> FilePath {
        if path == "~", let home = environment.home { return home }
        if path.hasPrefix("~/"), let home = environment.home { return home.pushing(FilePath(String(path.dropFirst(2)))) }
        return FilePath(path)
    }

    /// The last entry of `section.key` in the config file `path` and the
    /// files it includes.
    private static func lastEntry(section: String, key: String, in path: FilePath, environment: Environment, depth: Int) -> Entry? {
        guard depth < 10, case .contents(let bytes) = FileSystem.readFile(path, limit: PathFilter.ruleFileLimit) else { return nil }
        var last: Entry? = nil
        for entry in entries(bytes) {
            if entry.section == section, entry.key == key {
                last = entry
            } else if entry.section == "include", entry.key == "path", let include = entry.value {
                // Relative to the including file's directory.
                let target = FileSystem.parent(FileSystem.absolute(path)).pushing(expand(include, environment: environment))
                if let found = lastEntry(section: section, key: key, in: target, environment: environment, depth: depth + 1) {
                    last = found
                }
            }
        }
        return last
    }

    struct Entry: Equatable {
        /// Lower-cased, with a subsection as `name "sub"` kept apart: only
        /// sections without one are looked at here.
        var section: String
        var key: String
        /// Nil for a key without `=` (a boolean true).
        var value: String?
    }

    /// The entries of a config file, in order (git's syntax: `[section]`,
    /// `key = value`, `#`/`;` comments, quotes, `\` escapes and line
    /// continuations).
    static func entries(_ bytes: [UInt8]) -> [Entry] {
        var result: [Entry] = []
        var section = ""
        var i = 0
        func at(_ j: Int) -> UInt8? { j < bytes.count ? bytes[j] : nil }
        func skipLine() { while let b = at(i), b != 0x0A { i += 1 } }
        while i < bytes.count {
            while isSpace(at(i)) || at(i) == 0x0A { i += 1 }
            guard let b = at(i) else { break }
            if b == UInt8(ascii: "#") || b == UInt8(ascii: ";") {
                skipLine()
                continue
            }
            if b == UInt8(ascii: "[") {
                guard let name = sectionHeader(bytes, &i) else {
                    section = "\u{0}"
                    skipLine()
                    continue
                }
                section = name
                continue
            }
            // A key: letters, digits and `-`.
            var key: [UInt8] = []
            while let c = at(i), c == UInt8(ascii: "-") || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || (0x30...0x39).contains(c) {
                key.append(c)
                i += 1
            }
            guard !key.isEmpty else {
                skipLine()
                continue
            }
            while isSpace(at(i)) { i += 1 }
            var value: String? = nil
            if at(i) == UInt8(ascii: "=") {
                i += 1
                value = parseValue(bytes, &i)
            } else {
                skipLine()
            }
            result.append(Entry(section: section, key: String(decoding: key, as: UTF8.self).lowercased(), value: value))
        }
        return result
    }

    /// The section the `[...]` header at `i` names, with `i` past its
    /// `]`: `[name]`, `[name "sub"]` or the old `[name.sub]`, lowercased, a
    /// subsection marked by a trailing " \0". Nil when it is malformed.
    private static func sectionHeader(_ bytes: [UInt8], _ i: inout Int) -> String? {
        func at(_ j: Int) -> UInt8? { j < bytes.count ? bytes[j] : nil }
        var name: [UInt8] = []
        i += 1
        while let c = at(i), c != UInt8(ascii: "]"), c != UInt8(ascii: "\""), c != 0x0A, !isSpace(c) {
            name.append(c)
            i += 1
        }
        var hasSubsection = name.contains(UInt8(ascii: "."))
        while isSpace(at(i)) { i += 1 }
        if at(i) == UInt8(ascii: "\"") {
            hasSubsection = true
            i += 1
            while let c = at(i), c != UInt8(ascii: "\""), c != 0x0A {
                i += c == UInt8(ascii: "\\") ? 2 : 1
            }
            i += 1
        }
        guard at(i) == UInt8(ascii: "]") else { return nil }
        i += 1
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        return hasSubsection ? lowered + " \u{0}" : lowered
    }

    /// A blank of git's config syntax (space, tab, carriage return).
    private static func isSpace(_ b: UInt8?) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }

    /// A value after `=`, up to its line's end (continuations followed).
    private static func parseValue(_ bytes: [UInt8], _ i: inout Int) -> String {
        var out: [UInt8] = []
        var quoted = false
        // Spaces are kept only between other characters (or inside quotes).
        var pendingSpaces: [UInt8] = []
        var started = false
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A { break }
            i += 1
            if !quoted, c == UInt8(ascii: "#") || c == UInt8(ascii: ";") {
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                break
            }
            if !quoted, c == 0x20 || c == 0x09 || c == 0x0D {
                if started { pendingSpaces.append(c) }
                continue
            }
            if c == UInt8(ascii: "\"") {
                quoted.toggle()
                out += pendingSpaces
                pendingSpaces = []
                started = true
                continue
            }
            out += pendingSpaces
            pendingSpaces = []
            started = true
            if c == UInt8(ascii: "\\"), i < bytes.count {
                let next = bytes[i]
                i += 1
                switch next {
                case 0x0A: continue
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                default: out.append(next)
                }
                continue
            }
            out.append(c)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
