import ArgumentParser
import RecipeKit

/// `rwatch tail -n`: `N` for the last N lines, `+N` for from line N on
/// (`+1`: the whole file), as `tail -n` reads it.
struct LineCount: ExpressibleByArgument, Hashable {
    var start: Tail.Start

    init?(argument: String) {
        let fromLine = argument.hasPrefix("+")
        guard let number = Int(fromLine ? argument.dropFirst() : argument[...]), number >= 0 else { return nil }
        start = fromLine ? .line(number) : .lastLines(number)
    }

    init(_ start: Tail.Start) { self.start = start }

    var defaultValueDescription: String {
        switch start {
        case .lastLines(let count), .lastMatching(let count): "\(count)"
        case .line(let number): "+\(number)"
        case .start: "+1"
        case .end: "0"
        }
    }
}
