import Dispatch
import Glibc

/// Runs a recipe until it ends: the one runner behind `rwatch [options] --
/// command`, `rwatch run` and every compiled recipe binary.
public enum RecipeRunner {
    /// Subscribes to every pipeline of `recipe` and blocks until all have
    /// completed (returns the last command's shell status, 0 when none ran)
    /// or one fails (prints one line, returns 2). Ctrl-C stops every child
    /// process group and exits 130 (`ProcessSupervisor`). What is polled
    /// rather than watched with inotify, and the warning when inotify runs
    /// out, are status lines on stderr.
    ///
    /// With `keys` (the default) and a terminal on standard input, rwatch
    /// answers keys while no command holds the terminal: `r` or space run
    /// the actions that start chains now, `p` pauses and resumes them
    /// (changes meanwhile run once on resume), `c` clears the screen, `q`
    /// quits with status 0. The terminal's modes come back on every way out.
    ///
    /// With `quitWhenStdinCloses` (`--stdin-quit`), the end of standard
    /// input quits with status 0, as `q` does: a process manager that
    /// started rwatch on a pipe ends it by closing the pipe (what comes
    /// through it is read and dropped). On a terminal, Ctrl-D is the end.
    ///
    /// With `announcesStart` (a recipe binary: `main`), once every pipeline
    /// is subscribed (watches armed, logs open) one status line says that
    /// it runs and what it watches and follows (`RecipeStart`).
    public static func run(_ recipe: Recipe, keys: Bool = true, quitWhenStdinCloses: Bool = false,
                           announcesStart: Bool = false) -> Int32 {
        RecipeGraph.announce(recipe)
        // rwatch took the signals over before any thread started (and a
        // recipe binary inherits that mask through exec); a binary started
        // some other way takes them over here.
        ProcessSupervisor.takeOverSignals()
        // What the recipe's sources announce while it subscribes: what it watches.
        let starting = Locked<[WatchNotice]?>(announcesStart ? [] : nil)
        let notices = printNotices(collecting: starting)
        defer { notices.dispose() }
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Int32>(0)
        let quitByKey = Locked(false)
        let quit: @Sendable () -> Void = {
            quitByKey.withLock { $0 = true }
            done.signal()
        }
        let keyboard = keys ? KeyCommands.listen(quit: quit, endOfInputQuits: quitWhenStdinCloses) : nil
        // On a terminal the keyboard reads it (Ctrl-D); elsewhere its end is read here.
        let input = quitWhenStdinCloses && !ControllingTerminal.isTerminal
            ? Stdin.lines.subscribe(onError: { _ in quit() }, onCompleted: quit) : nil
        let subscription = recipe.outcomes(in: .live).subscribe(
            onNext: { status in
                if let status { result.withLock { $0 = status } }
            },
            onError: { error in
                Terminal.error("\(error)")
                result.withLock { $0 = 2 }
                done.signal()
            },
            onCompleted: { done.signal() }
        )
        if let seen = starting.withLock({ $0.take() }), result.withLock({ $0 }) != 2 {
            Terminal.status(RecipeStart.line(name: recipe.name, notices: seen, workingDirectory: Terminal.workingDirectory))
        }
        done.wait()
        input?.dispose()
        keyboard?.dispose()
        // Disposing stops every running command and waits until its process
        // group is gone (the caller exits next).
        subscription.dispose()
        RunEnvironment.removeDirectory()
        ControllingTerminal.restore()
        return quitByKey.withLock { $0 } ? 0 : result.withLock { $0 }
    }

    /// Prints each `WatchNotice` from now on: warnings, and what is polled,
    /// as status lines; the rest for `-v`. While `collecting` holds an
    /// array, each notice is kept in it too.
    private static func printNotices(collecting: Locked<[WatchNotice]?>) -> any Disposable {
        FileWatcher.notices.subscribe(onNext: { notice in
            collecting.withLock { $0?.append(notice) }
            if notice.isWarning {
                Terminal.warning(notice.description)
            } else if case .polling = notice.kind {
                Terminal.status(notice.description)
            } else {
                Diagnostics.verbose(notice.description)
            }
        })
    }

    /// The entry point of a compiled recipe binary: runs and exits with
    /// `run(_:)`'s status. Under a hosting rwatch, first takes its place
    /// beside it (`HostedRecipe`). It is the subreaper of what its runs
    /// start (`ProcessSupervisor.becomeSubreaper`).
    public static func main(_ recipe: Recipe) -> Never {
        HostedRecipe.join()
        ProcessSupervisor.becomeSubreaper()
        ProcessSupervisor.exit(run(recipe, announcesStart: true))
    }
}
