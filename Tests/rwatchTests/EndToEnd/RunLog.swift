import Glibc
import TestSupport

/// The runs of a command, as the end-to-end tests record them: the command
/// (`RunLog.command`) appends its `RWATCH_PATHS` to `runs` in the scratch
/// directory, `|`-separated, one line per run.
enum RunLog {
    /// The command's words after `--`.
    static let command = ["sh", "-c", "printf '%s' \"$RWATCH_PATHS\" | tr '\\n' '|' >> runs; echo >> runs"]

    /// The paths of each complete run.
    static func runs(_ scratch: Scratch) -> [[String]] {
        scratch.read("runs").split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.split(separator: "|").map(String.init) }
    }

    /// How many runs carried `path`.
    static func runs(_ scratch: Scratch, with path: String) -> Int {
        runs(scratch).filter { $0.contains(path) }.count
    }

    /// Writes `relative` (in the scratch directory) until `reported` says
    /// it was seen, a write every 200 ms: the watch is in place, and what
    /// came before it has been handled.
    static func writeUntil(_ scratch: Scratch, _ relative: String, _ reported: () -> Bool) -> Bool {
        var attempt = 0
        return eventually {
            attempt += 1
            if attempt % 100 == 1 { scratch.write(relative, "\(attempt)") }
            return reported()
        }
    }

    /// Writes `watched/NAME` until a run carries it.
    static func mark(_ scratch: Scratch, _ name: String) -> Bool {
        writeUntil(scratch, "watched/" + name) { runs(scratch, with: scratch.file("watched/" + name)) > 0 }
    }
}
