import Dispatch
import RecipeKit

/// Blocking child processes for the compiler: run, wait, get the status or
/// the output. They go through `ProcessSource` like watched commands (its
/// `ProcessLauncher`, own process group, stdin from /dev/null), so a stop
/// signal during a compile stops the compiler too (`ProcessSupervisor`).
enum Spawn {
    /// Runs `argv` with rwatch's stdout and stderr and returns its shell
    /// status (127 when it cannot start). `temporaryDirectory`, when
    /// given, is the child's `TMPDIR`; `environment` is added to the
    /// child's.
    static func status(_ argv: [String], temporaryDirectory: String? = nil, environment: [String: String] = [:]) -> Int32 {
        run(argv, capture: false, temporaryDirectory: temporaryDirectory, environment: environment).status
    }

    /// Runs `argv` and returns what it printed on stdout (lines joined with
    /// `\n`), or nil if it failed.
    static func output(_ argv: [String], temporaryDirectory: String? = nil) -> String? {
        let (status, lines) = run(argv, capture: true, temporaryDirectory: temporaryDirectory)
        guard status == 0 else { return nil }
        return lines.map { $0 + "\n" }.joined()
    }

    private static func run(
        _ argv: [String], capture: Bool, temporaryDirectory: String?, environment: [String: String] = [:]
    ) -> (status: Int32, lines: [String]) {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<(status: Int32, lines: [String])>((127, []))
        var options = ProcessOptions(captureOutput: capture)
        options.environment.merge(environment) { _, new in new }
        if let temporaryDirectory { options.environment["TMPDIR"] = temporaryDirectory }
        let subscription = ProcessSource.run(argv, options: options).subscribe { event in
            switch event {
            case .next(.stdout(let line)): result.withLock { $0.lines.append(line) }
            case .next(.stderr(let line)): Terminal.output(line, prefix: "", toStandardError: true)
            case .next(.exited(let status)): result.withLock { $0.status = status.shellCode }
            case .next(.started): break
            case .error(let error):
                // Refused because rwatch is ending: not worth a line.
                if !ProcessSupervisor.isEnding { Terminal.error("\(error)") }
                done.signal()
            case .completed: done.signal()
            }
        }
        done.wait()
        subscription.dispose()
        return result.withLock { $0 }
    }
}
