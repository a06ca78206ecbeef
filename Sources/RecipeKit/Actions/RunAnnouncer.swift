import Glibc

/// What a run tells the user around it, as `RunOptions` asks: the screen
/// clearing, status lines, the events that caused it, notifications and
/// the bell, and the verbose "why" in `Diagnostics`. `CommandAction` calls
/// it when a run starts and when it ends.
struct RunAnnouncer: Sendable {
    let arguments: [String]
    /// The command line as status lines show it (`CommandName`).
    let command: String
    let options: RunOptions

    /// The command as the user gave it (quoted, shortened, escaped), or
    /// the step's name.
    var name: String { options.name.map(Quoted.escaped) ?? command }


    /// Before the command starts, for a run caused by `changes` (nil: the
    /// first run, or one not caused by files).
    func starting(_ changes: ChangeBatch?) {
        Terminal.clear(options.clear)
        if options.statusLines || Diagnostics.isEnabled {
            Terminal.starting(command, name: options.name, changes: changes, show: options.statusLines)
        }
        let events = changes?.events ?? []
        if options.printEvents {
            for event in events { Terminal.status(Self.describe(event), color: .dim) }
        }
        if Diagnostics.isEnabled {
            Diagnostics.verbose(Self.reason(for: changes, command: arguments))
            if !options.printEvents {
                for event in events { Diagnostics.verbose("  " + Self.describe(event)) }
            }
        }
        if options.notify?.atStart == true { Notifier.announce("\(name) started") }
    }

    /// A change came while the command ran under `.restart`: it is being
    /// stopped to start anew. `↻ restarting python3 app.py (changed: app.py)`.
    func restarting(_ changes: ChangeBatch?) {
        guard options.statusLines || Diagnostics.isEnabled else { return }
        var why = ""
        if let paths = changes?.paths, let first = paths.first {
            let more = paths.count > 1 ? " +\(paths.count - 1) more" : ""
            why = " (changed: \(Quoted.escaped(Terminal.relative(first)))\(more))"
        }
        let line = "↻ restarting \(name)\(why)"
        if options.statusLines { Terminal.status(line, color: .cyan) } else { Diagnostics.log(.info, line) }
    }

    /// A stop is taking a while: `stopping ./server: SIGTERM sent, SIGKILL in 5 s…`.
    func stopping(after waited: Duration) {
        guard options.statusLines else { return }
        let left = options.stopTimeout - waited
        let kill = options.stopSignal == SIGKILL ? "" : ", SIGKILL in \(Terminal.format(max(left, .zero)))…"
        Terminal.status("stopping \(name): \(SignalName.name(options.stopSignal)) sent\(kill)", color: .yellow)
    }

    /// After the command ended; `timedOut` when `options.timeout` stopped it,
    /// `stopped` when rwatch stopped it (a restart, Ctrl-C, `q`): no
    /// failure, so no red line (a restart said `↻ restarting` already).
    func finished(_ status: ExitStatus, _ duration: Duration, timedOut: Bool = false, stopped: Bool = false) {
        if stopped && !timedOut {
            Diagnostics.log(.info, "stopped \(name) after \(Terminal.format(duration)): \(status)")
            return
        }
        if options.statusLines || Diagnostics.isEnabled {
            Terminal.finished(name, status, duration, timedOut: timedOut ? options.timeout : nil, show: options.statusLines)
        }
        if options.notify?.atEnd == true {
            Notifier.announce("\(name) \(status.succeeded ? "✓" : "✗") \(status) in \(Terminal.format(duration))")
        }
        if options.bell { Terminal.bell() }
    }

    /// `modified src/a.swift`: the kind and the path, relative to the
    /// working directory when inside it, escaped for one line.
    static func describe(_ event: FileEvent) -> String {
        "\(event.kind.rawValue) \(Quoted.path(Terminal.relative(event.path)))\(event.isDirectory ? "/" : "")"
    }

    /// `running swift build: 3 events on 2 paths`, or why no change caused it.
    static func reason(for changes: ChangeBatch?, command: [String]) -> String {
        let what = "running \(command.map(Quoted.path).joined(separator: " "))"
        guard let changes, !changes.events.isEmpty else { return what + ": no file changed (the first run, or started by hand)" }
        let events = changes.events.count
        let paths = changes.paths.count
        return what + ": \(events) event\(events == 1 ? "" : "s") on \(paths) path\(paths == 1 ? "" : "s")"
    }
}
