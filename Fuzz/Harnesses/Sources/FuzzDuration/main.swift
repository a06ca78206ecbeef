// DurationParser (`-d`, `--stop-timeout`, `--timeout`, `--poll`): any text
// either throws or gives a duration that is not negative and whose plain
// spellings (`<n>ns`, and `<n>ms` and a bare `<n>` when it is whole
// milliseconds) parse back to exactly the same value.
import FuzzSupport

fuzz { data, size in
    let text = String(decoding: bytes(data, size), as: UTF8.self)
    guard let value = try? DurationParser.parse(text) else { return 0 }
    let (seconds, attoseconds) = value.components
    check(seconds >= 0 && attoseconds >= 0, "\(text.debugDescription) parsed to a negative \(value)")
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    // Beyond 2^53 ns (104 days) a typed number is not exact as a Double.
    guard nanoseconds <= 1 << 53 else { return 0 }
    var spellings = ["\(nanoseconds)ns"]
    if nanoseconds % 1_000_000 == 0 { spellings += ["\(nanoseconds / 1_000_000)ms", "\(nanoseconds / 1_000_000)"] }
    for spelling in spellings {
        let again = try? DurationParser.parse(spelling)
        check(again == value, "\(text.debugDescription) parsed to \(nanoseconds) ns, but \(spelling) to \(again.map { "\($0)" } ?? "an error")")
    }
    return 0
}
