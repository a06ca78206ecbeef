import RecipeKit

/// The verbose line that says what a watch covers, before anything runs.
enum WatchPlan {
    /// `watching /src, /docs (recursive); only *.swift; ignoring *.tmp; .gitignore rules on; default ignores on`.
    static func describe(paths: [FilePath], options: WatchOptions) -> String {
        var parts = ["watching " + paths.map { Quoted.path($0) }.joined(separator: ", ") + " (recursive)"]
        if !options.extensions.isEmpty { parts.append("only extensions " + options.extensions.joined(separator: ",")) }
        if !options.include.isEmpty { parts.append("only " + options.include.map(Quoted.path).joined(separator: ", ")) }
        if !options.exclude.isEmpty { parts.append("ignoring " + options.exclude.map(Quoted.path).joined(separator: ", ")) }
        parts.append(".gitignore/.ignore rules " + (options.useVCSIgnore ? "on" : "off"))
        parts.append("default ignores " + (options.useDefaultIgnore ? "on" : "off"))
        return parts.joined(separator: "; ")
    }
}
