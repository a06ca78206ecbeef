extension Signal {
    /// Prints every value on stdout, after `prefix` (coloured on a terminal
    /// unless `NO_COLOR`), and passes it on. A prefix that does not end in a
    /// space gets one (`print("build:")` prints `build: …`). Completion and
    /// errors pass through.
    public func print(_ prefix: String = "", color: Terminal.Color? = nil) -> Signal<Value> {
        let prefix = Terminal.separated(prefix)
        let output = RecipeWorld.current.output
        return map { value in
            output.output("\(value)", prefix: prefix, color: color, toStandardError: false)
            return value
        }.described("print", prefix.isEmpty ? [] : [SignalNode.quoted(prefix)], after: self)
    }
}

extension Signal where Value == String {
    /// Keeps the lines that contain a match of `pattern`, a regular
    /// expression in `grep -E` syntax (`LinePattern`), case-insensitive by
    /// default. A pattern that does not compile ends the signal with a
    /// `LinePatternError`, which stops the recipe with one line naming it.
    public func grep(_ pattern: String, ignoringCase: Bool = true) -> Signal<String> {
        do {
            let compiled = try LinePattern(pattern, ignoringCase: ignoringCase)
            return filter { compiled.matches($0) }.described("grep", GrepLabel.parameters(pattern, ignoringCase), after: self)
        } catch {
            return .error(error)
        }
    }
}

extension Signal where Value == Tail.Line {
    /// Keeps the lines whose text contains a match of `pattern`, as
    /// `grep(_:ignoringCase:)` on strings does. For speed, hand the pattern
    /// to `Tail.follow(_:from:matching:)` instead: lines are then dropped
    /// before they become strings.
    public func grep(_ pattern: String, ignoringCase: Bool = true) -> Signal<Tail.Line> {
        do {
            let compiled = try LinePattern(pattern, ignoringCase: ignoringCase)
            return filter { compiled.matches($0.text) }.described("grep", GrepLabel.parameters(pattern, ignoringCase), after: self)
        } catch {
            return .error(error)
        }
    }
}

extension Tail {
    /// `follow(_:from:matching:)` with the pattern as text, compiled as
    /// `grep(_:ignoringCase:)` compiles it (case-insensitive by default):
    /// lines that do not match are dropped as bytes, and
    /// `from: .lastMatching(N)` starts each file with its last N lines that
    /// match. A pattern that does not compile ends the signal with a
    /// `LinePatternError`.
    ///
    ///     Tail.follow(["app.log"], from: .lastMatching(10), grep: "error|warn")
    public static func follow(_ paths: [FilePath], from start: Start = .end, grep pattern: String,
                              ignoringCase: Bool = true) -> Signal<Line> {
        do {
            return follow(paths, from: start, matching: try LinePattern(pattern, ignoringCase: ignoringCase))
                .described(GrepLabel.follow(paths, start, pattern, ignoringCase))
        } catch {
            return .error(error)
        }
    }
}
