import Glibc
import SystemPackage
import Logging
import RecipeKit
import WatchSources

/// A swift-log handler that writes each message as one plain line, with
/// one `write(2)` so lines from several threads never mix: on stderr as
/// `rwatch: message` (`-v`), or to a log file with a local timestamp and
/// the level (`--log-file`).
struct PlainLineLogHandler: LogHandler {
    /// Where the lines go and how they look.
    enum Style: Sendable {
        /// `rwatch: message`, dim when stderr is coloured.
        case terminal
        /// `2026-11-20 14:03:07.123 info  message`.
        case logFile
    }

    let fd: Int32
    let style: Style
    /// Messages above this level are left out (stderr under `-v` shows the
    /// verbose ones only: the terminal printed the others already).
    var highestLevel: Logger.Level = .critical
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.level <= highestLevel else { return }
        let text: String
        switch style {
        case .terminal:
            let line = "rwatch: \(event.message)"
            text = Terminal.colorsStandardError ? "\u{1B}[2m\(line)\u{1B}[0m\n" : line + "\n"
        case .logFile:
            text = "\(Self.timestamp()) \(String(describing: event.level).padding(to: 8))\(event.message)\n"
        }
        Self.writeAll(text, to: fd)
    }

    /// Local time with milliseconds.
    static func timestamp() -> String {
        LocalTime.stamp("%Y-%m-%d %H:%M:%S", millisecondsAfter: ".")
    }

    private static func writeAll(_ text: String, to fd: Int32) {
        _ = try? FileDescriptor(rawValue: fd).writeAll(text.utf8)
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
