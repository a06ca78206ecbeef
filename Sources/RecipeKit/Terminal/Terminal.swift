import Glibc

/// rwatch's voice on the terminal: status lines on stderr before and after
/// each run, coloured on a terminal, plain when piped or when `NO_COLOR` is
/// set (https://no-color.org). Every line goes out in one `write(2)`, so
/// lines from concurrent runs never interleave mid-line.
public enum Terminal {
    /// The colours status lines and `print(color:)` use.
    public enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36", dim = "2"
    }

    /// Whether stderr gets colours.
    public static let colorsStandardError = wantsColor(fd: StandardError.descriptor)
    /// Whether stdout gets colours.
    public static let colorsStandardOutput = wantsColor(fd: 1)

    private static func wantsColor(fd: Int32) -> Bool {
        if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
        return isatty(fd) == 1
    }

    /// `rwatch: src/a.swift (+2 more) → swift build`, before a run.
    static func starting(_ arguments: [String], name: String?, changes: ChangeBatch?) {
        let paths = changes?.paths ?? []
        let what: String
        if let first = paths.first {
            let more = paths.count > 1 ? " (+\(paths.count - 1) more)" : ""
            what = "\(relative(first))\(more) changed → "
        } else {
            what = "starting "
        }
        let command = arguments.joined(separator: " ")
        status(what + (name.map { "\($0): \(command)" } ?? command), color: .cyan)
    }

    /// `rwatch: ✓ swift build exited 0 in 1.20 s`, after a run.
    static func finished(_ command: String, _ status: ExitStatus, _ duration: Duration) {
        let how: String
        switch status {
        case .exited(let code): how = "exited \(code)"
        case .signaled(let number): how = "killed by \(SignalName.name(number))"
        }
        let mark = status.succeeded ? "✓" : "✗"
        Terminal.status("\(mark) \(command) \(how) in \(format(duration))", color: status.succeeded ? .green : .red)
    }

    /// One status line on stderr.
    public static func status(_ text: String, color: Color? = nil) {
        write(line: "rwatch: " + text, color: colorsStandardError ? color : nil, fd: StandardError.descriptor)
    }

    /// One error line on stderr: `rwatch: error: …`.
    public static func error(_ text: String) {
        write(line: "rwatch: error: " + text, color: colorsStandardError ? .red : nil, fd: StandardError.descriptor)
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

    /// Clears the screen and the scrollback, like `entr -c`.
    static func clearScreen() {
        writeAll("\u{1B}[H\u{1B}[2J\u{1B}[3J", fd: 1)
    }

    /// `12 ms` below a second, `1.20 s` above.
    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let hundredths = milliseconds / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// `path` relative to the working directory when it lies inside it.
    static func relative(_ path: String) -> String {
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        let base = String(cString: cwd) + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    private static func write(line: String, color: Color?, fd: Int32) {
        if let color {
            writeAll("\u{1B}[\(color.rawValue)m\(line)\u{1B}[0m\n", fd: fd)
        } else {
            writeAll(line + "\n", fd: fd)
        }
    }

    private static func writeAll(_ text: String, fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
