import WatchmanProtocol

/// The patterns of `find` and `since` (`docs/simple-query.md`), as the
/// expression they stand for: each pattern a `match` of the wholename
/// (`pcre` after `-p`, `ipcre` after `-P`, negated after `!`), included
/// ones joined by `anyof`, those after `-X` excluded (`-I` includes again,
/// `--` ends the list): `["allof", ["not", ["anyof", excluded…]], ["anyof", included…]]`.
enum SimplePatterns {
    /// The expression for `arguments` (nil: every file), or watchman's error.
    static func expression(_ arguments: ArraySlice<WatchmanValue>, firstPosition: Int) throws(QueryError) -> WatchmanValue? {
        var words: [[UInt8]] = []
        for (offset, argument) in arguments.enumerated() {
            guard let bytes = argument.stringBytes else {
                throw .parse("rule @ position \(firstPosition + offset) is not a string value")
            }
            words.append(bytes)
        }
        var included: [WatchmanValue] = []
        var excluded: [WatchmanValue] = []
        var including = true, negated = false
        var term = "match"
        for word in words {
            switch String(decoding: word, as: UTF8.self) {
            case "--": break
            case "-X": including = false; continue
            case "-I": including = true; continue
            case "!": negated = true; continue
            case "-P": term = "ipcre"; continue
            case "-p": term = "pcre"; continue
            default:
                var pattern: WatchmanValue = [.string(term), .bytes(word), "wholename"]
                if negated { pattern = ["not", pattern] }
                if including { included.append(pattern) } else { excluded.append(pattern) }
                negated = false
                term = "match"
                continue
            }
            break
        }
        let include: WatchmanValue? = included.isEmpty ? nil : .array(["anyof"] + included)
        let exclude: WatchmanValue? = excluded.isEmpty ? nil : ["not", .array(["anyof"] + excluded)]
        switch (include, exclude) {
        case let (include?, exclude?): return ["allof", exclude, include]
        case let (include?, nil): return include
        case let (nil, exclude?): return exclude
        case (nil, nil): return nil
        }
    }
}
