/// The known `--long` name a misspelt one most likely meant, as git and
/// cargo suggest one (`--debouce` → `--debounce`), or none when nothing is
/// near: a far suggestion misleads more than none.
///
/// Near is a Damerau-Levenshtein distance (optimal string alignment: one
/// insertion, deletion, substitution or swap of neighbours is 1) of at
/// most 2, and at most a third of the typed name (`--foo` is 3 edits from
/// `--json` and 2 from `--log`: neither is meant), between the names
/// without their dashes; the nearest wins, the first declared on a tie.
/// Else a typed name that starts a known one (`--debo`) means it, when it
/// is 3 letters or more and the known names it starts all extend the
/// shortest of them (`--wat`: `--watch`, not `--watch-non-recursive`).
enum NearName {
    static func nearest(to typed: String, among names: [String]) -> String? {
        guard let stem = longStem(typed), !stem.isEmpty else { return nil }
        let known = names.compactMap { name in longStem(name).map { (name: name, stem: $0) } }
        let limit = min(2, max(1, stem.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in known where candidate.stem != stem {
            let distance = distance(stem, candidate.stem)
            if distance <= limit, distance < best?.distance ?? .max { best = (candidate.name, distance) }
        }
        if let best { return best.name }
        guard stem.count >= 3 else { return nil }
        let started = known.filter { $0.stem.hasPrefix(stem) && $0.stem != stem }
        guard let shortest = started.min(by: { $0.stem.count < $1.stem.count }),
              started.allSatisfy({ $0.stem.hasPrefix(shortest.stem) }) else { return nil }
        return shortest.name
    }

    /// The optimal-string-alignment distance between `a` and `b`: the
    /// fewest insertions, deletions, substitutions and swaps of two
    /// neighbouring characters that turn one into the other.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // d[i][j]: the distance between a's first i and b's first j characters.
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// `debounce` for `--debounce`; nil for a short (`-d`) or other word.
    private static func longStem(_ name: String) -> String? {
        name.hasPrefix("--") ? String(name.dropFirst(2)) : nil
    }
}
