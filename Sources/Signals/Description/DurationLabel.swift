extension Duration {
    /// This duration as a picture of a pipeline shows it, in the largest
    /// unit that holds it whole: `100 ms`, `10 s`, `2 min`, `250 µs`.
    @usableFromInline
    package var label: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 {
            return seconds != 0 && seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
        }
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000) ms" }
        if nanoseconds % 1_000 == 0 { return "\(nanoseconds / 1_000) µs" }
        return "\(nanoseconds) ns"
    }
}
