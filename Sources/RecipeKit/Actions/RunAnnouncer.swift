/// What a run tells the user around it, as `RunOptions` asks: the screen
/// clearing, status lines, the events that caused it, notifications and
/// the bell, and the verbose "why" in `Diagnostics`. `CommandAction` calls
/// it when a run starts and when it ends.
struct RunAnnouncer: Sendable {
    let arguments: [String]
    let options: RunOptions

    private var name: String { options.name ?? RunResult.name(of: arguments) }

    /// Before the command starts, for a run caused by `changes` (nil: the
    /// first run, or one not caused by files).
    func starting(_ changes: ChangeBatch?) {
        Terminal.clear(options.clear)
        if options.statusLines || Diagnostics.isEnabled {
            Terminal.starting(arguments, name: options.name, changes: changes, show: options.statusLines)
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

    /// After the command ended; `timedOut` when `options.timeout` stopped it.
    func finished(_ status: ExitStatus, _ duration: Duration, timedOut: Bool = false) {
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
