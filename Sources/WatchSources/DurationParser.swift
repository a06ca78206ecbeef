/// Durations on the command line: `50ms`, `2s`, `1.5s`, `1m`, `250us`, and
/// a bare number of milliseconds (`100`).
package enum DurationParser {
    package static let units: [(String, Double)] = [
        ("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600),
    ]

    /// Parses `text`, throwing an `InputError` that says what is accepted.
    package static func parse(_ text: String) throws -> Duration {
        let trimmed = text.trimmingCharacters()
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = String(trimmed.dropFirst(number.count))
        guard !number.isEmpty, let value = Double(number), value.isFinite else {
            throw InputError("bad duration '\(text)': expected a number and a unit, like 50ms, 2s or 1m")
        }
        let scale: Double
        if unit.isEmpty {
            scale = 1e-3
        } else if let match = units.first(where: { $0.0 == unit }) {
            scale = match.1
        } else {
            throw InputError("bad duration '\(text)': unknown unit '\(unit)' (use ns, us, ms, s, m or h)")
        }
        let nanoseconds = value * scale * 1e9
        guard nanoseconds < 1e18 else { throw InputError("bad duration '\(text)': too long") }
        return .nanoseconds(Int64(nanoseconds.rounded()))
    }
}

extension String {
    /// Without leading and trailing spaces.
    package func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
