import Glibc

/// What a run tells the user around it, as `RunOptions` asks: the screen
/// clearing, status lines, the events that caused it, notifications and
/// the bell, and the verbose "why" in `Diagnostics`. `CommandAction` calls
/// it when a run starts and when it ends.
struct RunAnnouncer: Sendable {
    /// The command line as status lines show it (`CommandName`).
    let command: String
    let options: RunOptions
    /// Where its lines go.
    let output: any RecipeOutput

    /// The command as the user gave it (quoted, shortened, escaped), or
    /// the step's name.
    var name: String { options.name.map(Quoted.escaped) ?? command }

    /// Before a command starts, for a run caused by `changes` (nil: the
    /// first run, or one not caused by files; for one run of a `{}` set,
    /// the changes of its path).
    func starting(_ changes: ChangeBatch?) {
        output.clear(options.clear)
        if options.statusLines || Diagnostics.isEnabled {
            status(Terminal.starting(command, name: options.name, changes: changes), color: .cyan, show: options.statusLines)
        }
        let events = changes?.events ?? []
        if options.printEvents {
            for event in events { output.status(Self.describe(event), color: .dim) }
        }
        if Diagnostics.isEnabled { Diagnostics.verbose(Self.reason(for: changes)) }
        if options.notify?.atStart == true { output.announce("\(name) started") }
    }

    /// A `{}` or `{+}` command found no changed path to run for (the `r`
    /// key before any change).
    func nothingToRun() {
        guard options.statusLines else { return }
        output.status("no changed file yet: \(name) runs for each file that changes", color: .dim)
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
        status(line, color: .cyan, show: options.statusLines)
    }

    /// A stop is taking a while: `stopping ./server: SIGTERM sent, SIGKILL in 5 s…`.
    func stopping(after waited: Duration) {
        guard options.statusLines else { return }
        let left = options.stopTimeout - waited
        let kill = options.stopSignal == SIGKILL ? "" : ", SIGKILL in \(Terminal.format(max(left, .zero)))…"
        output.status("stopping \(name): \(SignalName.name(options.stopSignal)) sent\(kill)", color: .yellow)
    }

    /// After a command ended; `timedOut` when `options.timeout` stopped it,
    /// `stopped` when rwatch stopped it (a restart, Ctrl-C, `q`): no
    /// failure, so no red line (a restart said `↻ restarting` already).
    /// `shown` names one run of a `{}` set, whose set's end notifies
    /// (`finished(set:)`) instead of each run.
    func finished(_ status: ExitStatus, _ duration: Duration, timedOut: Bool = false, stopped: Bool = false, shown: String? = nil) {
        let label = shown.map { (options.name.map { Quoted.escaped($0) + " " } ?? "") + $0 } ?? name
        if stopped && !timedOut {
            Diagnostics.log(.info, "stopped \(label) after \(Terminal.format(duration)): \(status)")
            return
        }
        if options.statusLines || Diagnostics.isEnabled { announceEnd(label, status, duration, timedOut: timedOut) }
        if shown == nil { told(status, duration) }
    }

    /// After every run of a `{}` or `{+}` set ended: one line for a set
    /// of several (`✗ cc -c {}: 1 of 3 runs failed, worst exited 1, in
    /// 1.20 s`), then the notification and the bell. Nothing after a set
    /// rwatch stopped.
    func finished(set count: Int, failed: Int, worst: ExitStatus, _ duration: Duration, stopped: Bool) {
        guard !stopped else { return }
        if count > 1, options.statusLines || Diagnostics.isEnabled {
            let runs = count == 1 ? "1 run" : "\(count) runs"
            let line = failed == 0
                ? "✓ \(name): \(runs) in \(Terminal.format(duration))"
                : "✗ \(name): \(failed) of \(runs) failed, worst \(Terminal.describe(worst)), in \(Terminal.format(duration))"
            status(line, color: failed == 0 ? .green : .red, show: options.statusLines)
        }
        told(worst, duration)
    }

    /// The notification and the bell at the end of what a trigger started.
    private func told(_ status: ExitStatus, _ duration: Duration) {
        if options.notify?.atEnd == true {
            output.announce("\(name) \(status.succeeded ? "✓" : "✗") \(status) in \(Terminal.format(duration))")
        }
        if options.bell { output.bell() }
    }

    /// `✓ swift build exited 0 in 1.20 s` (or its timeout), as a status line.
    private func announceEnd(_ label: String, _ status: ExitStatus, _ duration: Duration, timedOut: Bool) {
        let end = Terminal.finished(label, status, duration, timedOut: timedOut ? options.timeout : nil)
        self.status(end.line, color: end.color, show: options.statusLines)
    }

    /// A status line, or with `show` false a line for the log only (`-q`).
    private func status(_ text: String, color: Terminal.Color?, show: Bool) {
        if show { output.status(text, color: color) } else { Diagnostics.log(.info, text) }
    }

    /// `modified src/a.swift`: the kind and the path, relative to the
    /// working directory when inside it, escaped for one line.
    static func describe(_ event: FileEvent) -> String {
        "\(event.kind.rawValue) \(Quoted.path(Terminal.relative(event.path)))\(event.isDirectory ? "/" : "")"
    }

    /// Why a run starts, in one line: the event kinds and paths behind it
    /// (`why: modified src/a.swift, created src/b.swift (+3 more)`), or
    /// that no change caused it.
    static func reason(for changes: ChangeBatch?) -> String {
        guard let changes, !changes.events.isEmpty else { return "why: no file changed (the first run, or started by hand)" }
        let shown = 3
        var parts: [String] = []
        for path in changes.paths.prefix(shown) {
            let kinds = changes.events.filter { $0.path == path }.map(\.kind.rawValue)
            parts.append("\(kinds.joined(separator: "+")) \(Quoted.path(Terminal.relative(path)))")
        }
        if changes.events.contains(where: { $0.kind == .overflow }) { parts.append("overflow (events were lost; the tree was rescanned)") }
        let more = changes.paths.count > shown ? " (+\(changes.paths.count - shown) more)" : ""
        return "why: " + parts.joined(separator: ", ") + more
    }
}
