import RecipeKit

/// The verbose line that says what a watch covers, before anything runs.
enum WatchPlan {
    /// `watching /src, /docs (recursive); only *.swift; ignoring *.tmp; rule files .gitignore, info/exclude, .ignore, global excludes; default ignores on`.
    static func describe(paths: [FilePath], nonRecursive: [FilePath] = [], options: WatchOptions) -> String {
        var watched: [String] = []
        if !paths.isEmpty { watched.append(paths.map { Quoted.path($0) }.joined(separator: ", ") + " (recursive)") }
        if !nonRecursive.isEmpty { watched.append(nonRecursive.map { Quoted.path($0) }.joined(separator: ", ") + " (not recursive)") }
        var parts = ["watching " + watched.joined(separator: ", ")]
        if !options.extensions.isEmpty { parts.append("only extensions " + options.extensions.joined(separator: ",")) }
        if !options.include.isEmpty { parts.append("only " + options.include.map(Quoted.path).joined(separator: ", ")) }
        if !options.exclude.isEmpty { parts.append("ignoring " + options.exclude.map(Quoted.path).joined(separator: ", ")) }
        if !options.ignoreFiles.isEmpty { parts.append("ignore files " + options.ignoreFiles.map(Quoted.path).joined(separator: ", ")) }
        if !options.filterFiles.isEmpty { parts.append("filter files " + options.filterFiles.map(Quoted.path).joined(separator: ", ")) }
        if options.kinds != WatchOptions.allKinds {
            parts.append("only " + options.kinds.subtracting([.overflow]).map(\.rawValue).sorted().joined(separator: ",") + " events")
        }
        var ruleFiles: [String] = []
        if options.useVCSIgnore && options.useProjectIgnore { ruleFiles += [".gitignore", "info/exclude"] }
        if options.useProjectIgnore { ruleFiles.append(".ignore") }
        if options.useVCSIgnore && options.useGlobalIgnore { ruleFiles.append("global excludes") }
        parts.append(ruleFiles.isEmpty ? "no rule files" : "rule files " + ruleFiles.joined(separator: ", "))
        parts.append("default ignores " + (options.useDefaultIgnore ? "on" : "off"))
        return parts.joined(separator: "; ")
    }
}
