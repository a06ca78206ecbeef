import Glibc
import SystemPackage

/// rwatch's voice on the terminal: status lines on stderr before and after
/// each run, coloured on a terminal, plain when piped or when `NO_COLOR` is
/// set (https://no-color.org), unless `colorChoice` says otherwise. Every
/// line goes out in one `write(2)`, so lines from concurrent runs never
/// interleave mid-line. Status and error lines are copied to `Diagnostics`
/// (the log file). Paths and command words in status lines are escaped
/// (`Quoted.escaped`): a file name cannot drive the terminal or split a line.
public enum Terminal {
    /// The colours status lines and `print(color:)` use.
    public enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36", dim = "2"
    }

    /// When to colour: `auto` colours a terminal unless `NO_COLOR` is set;
    /// `always` and `never` decide regardless (`--color`).
    public enum ColorChoice: String, Sendable, CaseIterable {
        case auto, always, never
    }

    private static let choice = Locked(ColorChoice.auto)
    private static let noColor: Bool = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
    private static let standardOutputIsTerminal = isatty(1) == 1
    private static let standardErrorIsTerminal = isatty(StandardError.descriptor) == 1

    /// The colour choice for every later line (default `auto`).
    public static var colorChoice: ColorChoice {
        get { choice.withLock { $0 } }
        set { choice.withLock { $0 = newValue } }
    }

    /// Whether stderr gets colours.
    public static var colorsStandardError: Bool { wantsColor(terminal: standardErrorIsTerminal) }
    /// Whether stdout gets colours.
    public static var colorsStandardOutput: Bool { wantsColor(terminal: standardOutputIsTerminal) }

    private static func wantsColor(terminal: Bool) -> Bool {
        switch colorChoice {
        case .always: return true
        case .never: return false
        case .auto: return terminal && !noColor
        }
    }

    /// `src/a.swift (+2 more) → swift build`: the status line before a run.
    static func starting(_ command: String, name: String?, changes: ChangeBatch?) -> String {
        let paths = changes?.paths ?? []
        let what: String
        if let first = paths.first {
            let more = paths.count > 1 ? " (+\(paths.count - 1) more)" : ""
            what = "\(Quoted.escaped(relative(first)))\(more) changed → "
        } else {
            what = "starting "
        }
        return what + (name.map { "\(Quoted.escaped($0)): \(command)" } ?? command)
    }

    /// `✓ swift build exited 0 in 1.20 s`: the status line after a run, and
    /// its colour; with `timedOut` (the limit), `✗ swift build timed out
    /// after 5.00 s: killed by SIGTERM`.
    static func finished(_ command: String, _ status: ExitStatus, _ duration: Duration, timedOut: Duration? = nil) -> (line: String, color: Color) {
        let how = describe(status)
        if let timedOut {
            return ("✗ \(Quoted.escaped(command)) timed out after \(format(timedOut)): \(how)", .red)
        }
        let mark = status.succeeded ? "✓" : "✗"
        return ("\(mark) \(command) \(how) in \(format(duration))", status.succeeded ? .green : .red)
    }

    /// `exited 1`, `killed by SIGTERM`.
    static func describe(_ status: ExitStatus) -> String {
        switch status {
        case .exited(let code): "exited \(code)"
        case .signaled(let number): "killed by \(SignalName.name(number))"
        }
    }

    /// One status line on stderr (control characters escaped: `Quoted.line`).
    public static func status(_ text: String, color: Color? = nil) {
        write(line: "rwatch: " + Quoted.line(text), color: colorsStandardError ? color : nil, fd: StandardError.descriptor)
        Diagnostics.log(.info, text)
    }

    /// One error line on stderr: `rwatch: error: …` (control characters escaped).
    public static func error(_ text: String) {
        write(line: "rwatch: error: " + Quoted.line(text), color: colorsStandardError ? .red : nil, fd: StandardError.descriptor)
        Diagnostics.log(.error, text)
    }

    /// One warning line on stderr: `rwatch: warning: …` (control characters escaped).
    public static func warning(_ text: String) {
        write(line: "rwatch: warning: " + Quoted.line(text), color: colorsStandardError ? .yellow : nil, fd: StandardError.descriptor)
        Diagnostics.log(.warning, text)
    }

    /// Whether stderr is a terminal, where a progress line may be drawn.
    package static var drawsProgress: Bool { standardErrorIsTerminal }

    /// A progress line on stderr, drawn over the previous one (`\r`, the
    /// rest of the line erased), with no newline: only on a terminal, and
    /// never copied to the log. `clearProgress` takes it away.
    package static func progress(_ text: String) {
        guard standardErrorIsTerminal else { return }
        writeAll("\r\u{1B}[K" + "rwatch: " + Quoted.line(text), fd: StandardError.descriptor)
    }

    /// Erases the progress line, leaving the cursor where it began.
    package static func clearProgress() {
        guard standardErrorIsTerminal else { return }
        writeAll("\r\u{1B}[K", fd: StandardError.descriptor)
    }

    /// The terminal bell on stderr, when stderr is a terminal (a bell in a
    /// log file or a pipe is noise).
    public static func bell() {
        if standardErrorIsTerminal { writeAll("\u{7}", fd: StandardError.descriptor) }
    }

    /// One output line of a command or a recipe, with `prefix`.
    public static func output(_ line: String, prefix: String, color: Color? = nil, toStandardError: Bool) {
        let fd: Int32 = toStandardError ? StandardError.descriptor : 1
        let colored = toStandardError ? colorsStandardError : colorsStandardOutput
        write(line: prefix + line, color: colored ? color : nil, fd: fd)
    }

    /// Several plain output lines on stdout with one `write`: a follower
    /// that prints a large file line by line would spend most of its time
    /// in system calls.
    public static func output(lines: [String]) {
        var text = ""
        text.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            text += line
            text += "\n"
        }
        writeAll(text, fd: 1)
    }

    /// `prefix` with a space after it, unless it is empty or already ends
    /// in whitespace: `"build:"` gives `"build: "`.
    static func separated(_ prefix: String) -> String {
        guard let last = prefix.last, !last.isWhitespace else { return prefix }
        return prefix + " "
    }

    /// Clears the screen (`-c`), or the screen and its scrollback (`-cc`,
    /// entr's convention), on stdout where the command writes.
    static func clear(_ clearing: ScreenClearing) {
        // Into a pipe or a file the codes would only be noise.
        guard isatty(1) == 1 else { return }
        switch clearing {
        case .off: break
        case .screen: writeAll("\u{1B}[H\u{1B}[2J", fd: 1)
        case .screenAndScrollback: writeAll("\u{1B}[H\u{1B}[2J\u{1B}[3J", fd: 1)
        }
    }

    /// `12 ms` below a second, `1.20 s` above.
    public static func format(_ duration: Duration) -> String {
        let milliseconds = duration.clampedMilliseconds
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let hundredths = milliseconds / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// `path` relative to the working directory when it lies inside it.
    package static func relative(_ path: FilePath) -> FilePath {
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        var inside = path
        return inside.removePrefix(FilePath(platformString: cwd)) && !inside.isEmpty ? inside : path
    }

    /// `path` as a status line shows it: relative to `workingDirectory`
    /// when it lies below it, `.` when it is that directory, else whole.
    package static func shown(_ path: FilePath, in workingDirectory: FilePath) -> FilePath {
        if path == workingDirectory { return "." }
        var inside = path
        return inside.removePrefix(workingDirectory) && !inside.isEmpty ? inside : path
    }

    /// The working directory, for `shown(_:in:)`; `/` if it cannot be read.
    package static var workingDirectory: FilePath {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return FilePath(platformString: cwd)
    }

    private static func write(line: String, color: Color?, fd: Int32) {
        if let color {
            writeAll("\u{1B}[\(color.rawValue)m\(line)\u{1B}[0m\n", fd: fd)
        } else {
            writeAll(line + "\n", fd: fd)
        }
    }

    /// Writes all of `text` (a terminal that is gone is not an error).
    private static func writeAll(_ text: String, fd: Int32) {
        _ = try? FileDescriptor(rawValue: fd).writeAll(text.utf8)
    }
}
