import ArgumentParser
import Glibc
import Logging
import RecipeKit
import SystemPackage

/// What rwatch itself prints (not the command): status lines, colour,
/// the verbose "why" and a log file. Shared by `rwatch`, `rwatch events`
/// and `rwatch tail` through `@OptionGroup`.
struct OutputFlags: ParsableArguments {
    @Flag(name: [.customShort("q"), .long], help: "No status lines (errors still show).")
    var quiet = false

    @Option(name: [.long, .customLong("colour")], help: ArgumentHelp("Colour status lines: auto (a terminal, unless NO_COLOR is set), always, never.", valueName: "when"))
    var color: Terminal.ColorChoice = .auto

    @Flag(name: [.customShort("v"), .long], help: "Say why each run happens (the events and paths behind it) and which ignore rule dropped a change.")
    var verbose = false

    @Option(name: .customLong("log-file"), help: ArgumentHelp("Append rwatch's status lines and verbose diagnostics to this file, with timestamps.", valueName: "file"), completion: .file())
    var logFile: String?

    /// Sets the colour choice and routes `Diagnostics` to stderr (`-v`)
    /// and the log file. Call once, before anything prints.
    func apply() throws {
        Terminal.colorChoice = color
        var handlers: [any LogHandler] = []
        if verbose {
            handlers.append(PlainLineLogHandler(fd: STDERR_FILENO, style: .terminal, highestLevel: .debug))
        }
        if let logFile {
            // A FIFO with no reader would hang the open, and block every
            // status line after it: a log is a file (or a terminal, /dev/null).
            var info = stat()
            if stat(logFile, &info) == 0, info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFSOCK || info.st_mode & S_IFMT == S_IFDIR {
                throw RWatchError("cannot use \(Quoted.path(logFile)) as the log file: not a regular file")
            }
            let fd = open(logFile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw RWatchError("cannot open the log file \(Quoted.path(logFile)): \(Errno(rawValue: errno).description)")
            }
            OwnOutput.add(fd)
            handlers.append(PlainLineLogHandler(fd: fd, style: .logFile))
        }
        guard !handlers.isEmpty else { return }
        let logger = Logger(label: "rwatch") { _ in MultiplexLogHandler(handlers) }
        Diagnostics.install { level, message in
            logger.log(level: level.loggerLevel, "\(message)")
        }
    }
}

extension Diagnostics.Level {
    /// The swift-log level of a diagnostics level.
    var loggerLevel: Logger.Level {
        switch self {
        case .verbose: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}

extension Terminal.ColorChoice: ExpressibleByArgument {}
