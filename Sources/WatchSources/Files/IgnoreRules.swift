/// `.gitignore` / `.ignore` rules of one watched tree, file by file.
///
/// Each file's rules apply to paths below its directory; a rule without a
/// `/` (other than a trailing one) matches a name at any depth, one with a
/// `/` is anchored at the file's directory; a trailing `/` matches only
/// directories; `!` re-includes. The last matching rule wins, and deeper
/// files override shallower ones, as in git.
struct IgnoreRules: Sendable {
    struct Rule: Sendable {
        let glob: Glob
        let negated: Bool
        let directoryOnly: Bool
    }

    /// Rules by the directory (relative to the root, "" for the root) whose file declared them.
    private var rulesByDirectory: [String: [Rule]] = [:]

    var isEmpty: Bool { rulesByDirectory.isEmpty }

    /// Replaces the rules declared in `directory` by those parsed from `contents`
    /// (the concatenation of that directory's ignore files).
    mutating func set(_ contents: String, in directory: String) {
        let rules = IgnoreRules.parse(contents)
        rulesByDirectory[directory] = rules.isEmpty ? nil : rules
    }

    /// Whether `relativePath` is ignored. Ancestors are not consulted:
    /// paths inside an ignored directory are never visited in the first place.
    func isIgnored(_ relativePath: String, isDirectory: Bool) -> Bool {
        if rulesByDirectory.isEmpty { return false }
        var ignored = false
        var directory = ""
        var remainder = Substring(relativePath)
        while true {
            if let rules = rulesByDirectory[directory] {
                let local = String(remainder)
                for rule in rules where !rule.directoryOnly || isDirectory {
                    if rule.glob.matches(local) { ignored = !rule.negated }
                }
            }
            guard let slash = remainder.firstIndex(of: "/") else { break }
            let component = remainder[..<slash]
            directory = directory.isEmpty ? String(component) : directory + "/" + component
            remainder = remainder[remainder.index(after: slash)...]
        }
        return ignored
    }

    /// Parses gitignore syntax; malformed lines are skipped, as git does.
    static func parse(_ contents: String) -> [Rule] {
        var rules: [Rule] = []
        for rawLine in contents.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            while line.hasSuffix(" "), !line.hasSuffix("\\ ") { line = line.dropLast() }
            var negated = false
            if line.hasPrefix("!") {
                negated = true
                line = line.dropFirst()
            } else if line.hasPrefix("\\!") || line.hasPrefix("\\#") {
                line = line.dropFirst()
            }
            var directoryOnly = false
            if line.hasSuffix("/") {
                directoryOnly = true
                while line.hasSuffix("/") { line = line.dropLast() }
            }
            guard !line.isEmpty else { continue }
            // A slash anywhere but the end anchors the pattern to the file's directory.
            let pattern = line.contains("/") && !line.hasPrefix("/") ? "/" + line : String(line)
            guard let glob = try? Glob(pattern) else { continue }
            rules.append(Rule(glob: glob, negated: negated, directoryOnly: directoryOnly))
        }
        return rules
    }
}
