/// Decides, line by line, which of a supervised recipe's descriptor-2
/// output reaches the terminal.
///
/// Status lines and commands write to the real standard error, so this
/// pipe carries little: what the recipe's own code writes to 2 (passed on
/// as it comes) and, when it traps, the runtime's message and backtrace.
/// From the first line that looks like the start of a crash report on,
/// everything is held back: if the recipe then dies of a signal the held
/// text becomes a one-line `CrashReport`; if it exits normally after all,
/// the held text is written as it was. Under `-v` everything passes at once
/// (the full backtrace) and is kept for the report as well.
struct CrashOutputFilter {
    /// Keeps at most this much held text (a backtrace is a few KiB).
    static let limit = 256 * 1024

    let verbose: Bool
    private var pending: [UInt8] = []
    private var held: [UInt8] = []
    private var holding = false

    init(verbose: Bool) {
        self.verbose = verbose
    }

    /// Takes bytes read from the pipe; returns the bytes to write now.
    mutating func receive(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = verbose ? bytes : []
        pending += bytes
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Array(pending[...newline])
            pending.removeSubrange(...newline)
            if !holding && Self.startsCrashReport(String(decoding: line.dropLast(), as: UTF8.self)) {
                holding = true
            }
            if holding {
                if held.count < Self.limit { held += line }
            } else if !verbose {
                out += line
            }
        }
        return out
    }

    /// The recipe exited normally: what was held back, and any last
    /// unfinished line, to write now.
    mutating func release() -> [UInt8] {
        defer {
            held = []
            pending = []
            holding = false
        }
        return verbose ? [] : held + pending
    }

    /// The recipe died of a signal: the text of its crash report (what was
    /// held back, and any unfinished line). Nothing more is written.
    mutating func report() -> String {
        defer {
            held = []
            pending = []
            holding = false
        }
        return String(decoding: held + pending, as: UTF8.self)
    }

    /// True for the lines the Swift runtime and its backtracer begin a
    /// crash report with.
    static func startsCrashReport(_ line: String) -> Bool {
        CrashReport.runtimeMessage(line) != nil
            || line.hasPrefix("*** Signal ")
            || line.contains("Program crashed: ")
            || line.hasPrefix("swift-runtime: ")
            || line.hasPrefix("Current stack trace:")
    }
}
