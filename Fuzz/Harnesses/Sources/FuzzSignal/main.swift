// SignalParser (`--signal`, `--stop-signal`): any text either throws or
// names a signal in 1...64, and the names rwatch prints for that signal
// (`SIGTERM`, `TERM`, `sigterm`, `15`) parse back to the same number.
import FuzzSupport
import WatchSources

fuzz { data, size in
    let text = String(decoding: bytes(data, size), as: UTF8.self)
    guard let number = try? SignalParser.parse(text) else { return 0 }
    check((1...64).contains(number), "\(text.debugDescription) parsed to signal \(number)")
    var spellings = [String(number)]
    let name = SignalName.name(number)
    if name.hasPrefix("SIG") { spellings += [name, String(name.dropFirst(3)), name.lowercased()] }
    for spelling in spellings {
        let again = try? SignalParser.parse(spelling)
        check(again == number, "\(text.debugDescription) parsed to \(number), but \(spelling) to \(again.map(String.init) ?? "an error")")
    }
    return 0
}
