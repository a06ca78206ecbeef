extension Signal {
    /// Prints every value on stdout (with `prefix`, coloured on a terminal
    /// unless `NO_COLOR`) and passes it on. Completion and errors pass
    /// through.
    public func print(_ prefix: String = "", color: Terminal.Color? = nil) -> Signal<Value> {
        map { value in
            Terminal.output("\(value)", prefix: prefix, color: color, toStandardError: false)
            return value
        }
    }
}

extension Signal where Value == String {
    /// Keeps the lines that contain a match of `pattern` (a regular
    /// expression; `ignoringCase` by default). An invalid pattern is a
    /// programming error in a recipe: check it with `rwatch check`.
    public func grep(_ pattern: String, ignoringCase: Bool = true) -> Signal<String> {
        let regex = LineFilter(pattern, ignoringCase: ignoringCase)
        return filter { regex.matches($0) }
    }
}

extension Signal where Value == Tail.Line {
    /// Keeps the lines whose text contains a match of `pattern`.
    public func grep(_ pattern: String, ignoringCase: Bool = true) -> Signal<Tail.Line> {
        let regex = LineFilter(pattern, ignoringCase: ignoringCase)
        return filter { regex.matches($0.text) }
    }
}
