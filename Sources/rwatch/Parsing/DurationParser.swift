/// Durations on the command line: `50ms`, `2s`, `1.5s`, `1m`, `250us`, and
/// a bare number of milliseconds (`100`).
enum DurationParser {
    /// Each unit in nanoseconds: a whole number of any unit multiplies
    /// out exactly (below 2^53 ns, 104 days), where going through seconds
    /// in floating point would not.
    static let units: [(String, Double)] = [
        ("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 6e10), ("h", 3.6e12),
    ]

    /// Parses `text`, throwing an `RWatchError` that says what is accepted.
    static func parse(_ text: String) throws -> Duration {
        let trimmed = text.trimmingCharacters()
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = String(trimmed.dropFirst(number.count))
        guard !number.isEmpty, let value = Double(number), value.isFinite else {
            throw RWatchError("bad duration '\(text)': expected a number and a unit, like 50ms, 2s or 1m")
        }
        let scale: Double
        if unit.isEmpty {
            scale = 1e6
        } else if let match = units.first(where: { $0.0 == unit }) {
            scale = match.1
        } else {
            throw RWatchError("bad duration '\(text)': unknown unit '\(unit)' (use ns, us, ms, s, m or h)")
        }
        let nanoseconds = value * scale
        guard nanoseconds < 1e18 else { throw RWatchError("bad duration '\(text)': too long") }
        return .nanoseconds(Int64(nanoseconds.rounded()))
    }
}

extension String {
    /// Without leading and trailing spaces.
    func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
