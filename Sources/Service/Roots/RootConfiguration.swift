import WatchmanProtocol

/// watchman's configuration as one root sees it: the global file (the one
/// `WATCHMAN_CONFIG_FILE` names), overridden key by key by the root's own
/// `.watchmanconfig`. `root_files` and `enforce_root_files` are global
/// only (`docs/config.md`).
struct RootConfiguration: Sendable {
    /// The global file's object (empty when there is none).
    var global: WatchmanValue
    /// Where the global file is, for messages.
    var globalPath: String
    /// The root's `.watchmanconfig` object, as read (nil when it has none).
    var local: WatchmanValue?

    init(global: WatchmanValue = .object([]), globalPath: String = "(none)", local: WatchmanValue? = nil) {
        self.global = global
        self.globalPath = globalPath
        self.local = local
    }

    /// Why a configuration cannot be used: the text of the error reply.
    struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        var description: String
    }

    /// `key` from `.watchmanconfig`, else from the global file.
    func value(_ key: String) -> WatchmanValue? {
        local?[key] ?? global[key]
    }

    /// The directories never watched nor reported (relative paths).
    var ignoreDirectories: [[UInt8]] { (try? strings("ignore_dirs", default: [])) ?? [] }

    /// The version-control directories watched shallowly (top-level names).
    var ignoreVCS: [[UInt8]] { (try? strings("ignore_vcs", default: Self.defaultVCS)) ?? Self.defaultVCS }

    static let defaultVCS = [".git", ".hg", ".svn"].map { Array($0.utf8) }

    /// Settle period for subscriptions, in milliseconds (default 20).
    var settle: Int64 { integer("settle", default: 20) }
    /// Deleted entries older than this are forgotten (default 12 hours).
    var gcAgeSeconds: Int64 { integer("gc_age_seconds", default: 43_200) }
    /// How often deleted entries are looked for (default a day; 0: never).
    var gcIntervalSeconds: Int64 { integer("gc_interval_seconds", default: 86_400) }
    /// A root nobody asked about for this long is let go (default 5 days; 0: never).
    var idleReapAgeSeconds: Int64 { integer("idle_reap_age_seconds", default: 432_000) }

    /// The files whose presence marks a project root, `.watchmanconfig`
    /// first; and whether a watch must be at such a root.
    var rootFiles: (names: [String], enforced: Bool) {
        var enforced = false
        if case .bool(let flag)? = global["enforce_root_files"] { enforced = flag }
        let listed: [String]
        if let names = Self.textArray(global["root_files"]) {
            listed = names
        } else if let names = Self.textArray(global["root_restrict_files"]) {
            listed = names
            enforced = true
        } else {
            return ([".watchmanconfig", ".hg", ".git", ".svn"], enforced)
        }
        return (listed.contains(".watchmanconfig") ? listed : [".watchmanconfig"] + listed, enforced)
    }

    /// The root files as watchman's messages list them: `` `a`, `b`, and `c` ``.
    var rootFilesText: String {
        let names = rootFiles.names.map { "`\($0)`" }
        guard names.count > 2 else { return names.joined(separator: ", ") }
        return names.dropLast().joined(separator: ", ") + ", and " + names[names.count - 1]
    }

    /// Checks what the root's watch depends on, with watchman's texts.
    func validate() throws(Problem) {
        _ = try strings("ignore_vcs", default: [])
        _ = try strings("ignore_dirs", default: [])
        for key in ["settle", "gc_age_seconds", "gc_interval_seconds", "idle_reap_age_seconds"] {
            if let value = value(key), value.integer == nil { throw Problem(description: "\(key) must be an integer") }
        }
    }

    private func strings(_ key: String, default fallback: [[UInt8]]) throws(Problem) -> [[UInt8]] {
        guard let value = value(key) else { return fallback }
        guard let elements = value.elements else { throw Problem(description: "\(key) must be an array of strings") }
        var result: [[UInt8]] = []
        for element in elements {
            guard let bytes = element.stringBytes else { throw Problem(description: "\(key) must be an array of strings") }
            result.append(bytes)
        }
        return result
    }

    private func integer(_ key: String, default fallback: Int64) -> Int64 {
        value(key)?.integer ?? fallback
    }

    private static func textArray(_ value: WatchmanValue?) -> [String]? {
        guard let elements = value?.elements else { return nil }
        let names = elements.compactMap(\.text)
        return names.count == elements.count ? names : nil
    }
}
