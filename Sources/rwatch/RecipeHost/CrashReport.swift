import Glibc

/// What a crashed recipe left on its crash-report pipe, read down to one
/// line: `Fatal error: boom (crash.swift:4)`.
///
/// The Swift runtime writes the trap's message first
/// (`RecipeBinary/crash.swift:4: Fatal error: boom`, or
/// `Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range`
/// when the standard library trapped), then its backtracer writes the
/// crashed thread's frames, each ending ` at /path/file.swift:LINE:COLUMN`
/// when it has debug information (recipes are compiled with `-g`). The
/// location is the recipe's own frame nearest the trap, else the message's
/// own place when that is the recipe file.
struct CrashReport: Equatable {
    /// The runtime's message (`Fatal error: boom`), else what the
    /// backtracer says of the signal (`Bad pointer dereference`), else the
    /// signal's description.
    var message: String
    /// `crash.swift:4`: the recipe's file name and line, when known.
    var location: String?

    /// The report in `output` (what the recipe wrote on descriptor 2) of a
    /// recipe compiled from `recipeFile` that died of `signal`.
    init(output: String, recipeFile: String, signal: Int32) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let fileName = recipeFile.split(separator: "/").last.map(String.init) ?? recipeFile
        var message: String?
        var messageLocation: String?
        for line in lines {
            guard let (text, place) = Self.runtimeMessage(line) else { continue }
            message = text
            messageLocation = place
            break
        }
        if message == nil {
            message = lines.lazy.compactMap(Self.backtracerReason).first
        }
        self.message = message ?? Self.describe(signal)
        if let frame = lines.lazy.compactMap({ Self.frameLine($0, in: recipeFile) }).first {
            location = "\(fileName):\(frame)"
        } else if let place = messageLocation, let colon = place.lastIndex(of: ":"),
                  place[..<colon].split(separator: "/").last.map(String.init) == fileName {
            location = fileName + place[colon...]
        } else {
            location = nil
        }
    }

    init(message: String, location: String?) {
        self.message = message
        self.location = location
    }

    /// `Fatal error: boom (crash.swift:4)`, control characters escaped
    /// (the message is the recipe's own text).
    var summary: String {
        let text = location.map { "\(message) (\($0))" } ?? message
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The message prefixes of the runtime's traps.
    private static let prefixes = ["Fatal error", "Precondition failed", "Assertion failed"]

    /// `("Fatal error: boom", "RecipeBinary/crash.swift:4")` for the line
    /// `RecipeBinary/crash.swift:4: Fatal error: boom`.
    static func runtimeMessage(_ line: String) -> (String, String?)? {
        for prefix in prefixes {
            guard let range = line.firstRange(of: prefix) else { continue }
            let before = line[..<range.lowerBound]
            if before.isEmpty { return (String(line), nil) }
            // `FILE:LINE: ` before the prefix, nothing else.
            guard before.hasSuffix(": ") else { continue }
            let place = String(before.dropLast(2))
            let parts = place.split(separator: ":")
            guard parts.count >= 2, Int(parts.last!) != nil else { continue }
            return (String(line[range.lowerBound...]), place)
        }
        for start in ["Could not cast value of type", "Fatal access conflict detected", "Simultaneous accesses to"]
        where line.hasPrefix(start) {
            return (line, nil)
        }
        return nil
    }

    /// `Bad pointer dereference` for `*** Program crashed: Bad pointer
    /// dereference at 0x0000000000000000 ***`.
    static func backtracerReason(_ line: String) -> String? {
        guard let range = line.firstRange(of: "Program crashed: ") else { return nil }
        var reason = line[range.upperBound...]
        if let at = reason.firstRange(of: " at 0x") { reason = reason[..<at.lowerBound] }
        if reason.hasSuffix(" ***") { reason = reason.dropLast(4) }
        if reason.hasPrefix("Signal ") { return nil }   // the first, progress line
        return reason.isEmpty ? nil : String(reason)
    }

    /// The line number in a backtrace frame `… at RECIPEFILE:LINE:COLUMN`.
    static func frameLine(_ line: String, in recipeFile: String) -> Int? {
        guard let range = line.lastRange(of: " at " + recipeFile + ":") else { return nil }
        let rest = line[range.upperBound...].split(separator: ":")
        return rest.first.flatMap { Int($0) }
    }

    /// `Illegal instruction` for SIGILL.
    static func describe(_ signal: Int32) -> String {
        guard let text = strsignal(signal) else { return "signal \(signal)" }
        return String(cString: text)
    }
}

extension String {
    /// The last range of `needle` in the string.
    fileprivate func lastRange(of needle: String) -> Range<Index>? {
        var found: Range<Index>?
        var start = startIndex
        while let range = self[start...].firstRange(of: needle) {
            found = range
            start = index(after: range.lowerBound)
        }
        return found
    }
}
