import Dispatch
import SystemPackage
import Glibc
import RecipeKit

/// Runs a recipe as a child process and watches over it: the loop behind
/// `rwatch` with a project recipe and `rwatch run`.
///
/// - A recipe that traps (`fatalError`, an index out of range) is reported
///   in one line, `rwatch: recipe NAME crashed: Fatal error: boom
///   (file.swift:4)`, the process groups it started are stopped and rwatch
///   exits 2; `-v` shows the runtime's whole backtrace as well.
/// - With `reloads`, saving the recipe file recompiles it: when it
///   compiles, the running child is stopped (it stops its command groups
///   as on restart), whatever it left is stopped too, and the new binary
///   starts; when it does not, the compiler's messages are shown and the
///   running recipe keeps going.
/// - SIGINT, SIGTERM and SIGHUP stop the recipe (which stops its groups),
///   then rwatch exits 128+N; a second one kills the recipe at once.
///
/// The child is a `RecipeChild` (started, stopped and reaped through
/// `ProcessSource` like every command); `RecipeHostMachine` decides, this
/// loop acts. rwatch is the subreaper of everything below it, so a process
/// whose parent died comes to rwatch (`ProcessSupervisor.reapOrphans`,
/// `stopOrphans`), and nothing the recipe started (in rwatch's session)
/// outlives the recipe.
final class RecipeHost {
    struct Options {
        /// The recipe file (absolute).
        var file: String
        /// `Recipe.arguments` of the child, as bytes.
        var arguments: [CommandWord] = []
        /// Pass the crash's full backtrace through.
        var verbose = false
        /// Recompile and swap when `file` changes.
        var reloads = false
    }

    /// How long what a recipe left behind gets after SIGTERM, before SIGKILL
    /// (a command's default stop timeout).
    static let leftoverTimeout: Duration = .seconds(5)

    private let options: Options
    private let compiler: RecipeCompiler
    private let inbox: SignalInbox
    /// Readable once the current recipe child has exited and is reaped.
    private let ended: WakePipe
    private let reloads: ReloadRequests
    private let watch: (any Disposable)?
    private let clock = ContinuousClock()
    private var machine: RecipeHostMachine<RecipeChild>
    private var binary: String
    private var recipeName: String
    /// The current child's descriptor 2, until it ends (-1 after).
    private var crashOutput: Int32 = -1
    private var filter: CrashOutputFilter
    private var reloadStarted: ContinuousClock.Instant?
    private var compileTime: Duration = .zero
    private var failedKey: String?
    private var fileWasMissing = false
    private let terminal = TerminalState.capture()

    /// Compiles the recipe (the compiler's messages on error) and starts
    /// it. A stop signal during this first compile ends rwatch as anywhere
    /// else (the compiler's group is stopped); from the start of the child
    /// on, the host handles stop signals itself.
    init(_ options: Options, compiler: RecipeCompiler) throws {
        self.options = options
        self.compiler = compiler
        ProcessSupervisor.becomeSubreaper()
        // Watching starts before the first compile, so that no save from
        // then on is missed.
        reloads = ReloadRequests()
        watch = options.reloads ? reloads.watch(options.file) : nil
        let compiled = try compiler.binary(for: options.file)
        binary = compiled
        recipeName = Self.name(of: options.file)
        filter = CrashOutputFilter(verbose: options.verbose)
        do throws(GNUFunctions.PipeFailure) {
            ended = try WakePipe()
        } catch {
            throw RWatchError("cannot make a pipe: \(Errno(rawValue: error.errno).description)")
        }
        inbox = try SignalInbox()
        let child = try RecipeChild.start(compiled, arguments: options.arguments, ended: ended, verbose: options.verbose)
        crashOutput = child.crashOutput
        machine = RecipeHostMachine(running: child)
    }

    /// Runs until the recipe ends; returns rwatch's exit status.
    func run() -> Int32 {
        defer { watch?.dispose() }
        while true {
            var fds = [pollfd(fd: inbox.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: reloads.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: ended.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: crashOutput, events: Int16(POLLIN), revents: 0)]
            // At most a second: orphans that ended meanwhile are reaped below.
            let ready = poll(&fds, nfds_t(fds.count), 1000)
            if ready < 0 && errno != EINTR { return 2 }
            if fds[3].revents != 0 { relayCrashOutput() }
            if fds[0].revents != 0 {
                for arrival in inbox.take() {
                    if let status = perform(machine.stopSignal(arrival.number, fromTerminal: arrival.fromTerminal)) { return status }
                }
            }
            // A command's background job whose parent exited came to rwatch.
            ProcessSupervisor.reapOrphans()
            if fds[2].revents != 0 { ended.drain() }
            if let status = machine.child?.exitStatus, let code = perform(machine.childExited(status)) { return code }
            if fds[1].revents != 0 {
                reloads.drain()
                if let status = reload() { return status }
            }
        }
    }

    // MARK: Events

    /// The recipe file changed: compile it, and swap when it compiles to
    /// something new.
    private func reload() -> Int32? {
        guard case .running = machine.phase else { return nil }
        let file = options.file
        guard FileSystem.isRegularFile(file) else {
            if !fileWasMissing { Terminal.status("\(Quoted.path(file)) is gone; the running recipe keeps going", color: .yellow) }
            fileWasMissing = true
            return nil
        }
        fileWasMissing = false
        let started = clock.now
        let snapshot: RecipeCompiler.Snapshot
        do {
            snapshot = try compiler.snapshot(of: file)
        } catch {
            Terminal.error("\(error); the running recipe keeps going")
            return nil
        }
        guard snapshot.binary != binary, snapshot.key != failedKey else { return nil }
        Terminal.status("\(Quoted.path(file)) changed: reloading", color: .cyan)
        let next: String
        do {
            // The text just read and hashed is the one compiled.
            next = try compiler.binary(for: snapshot)
        } catch {
            // A stop signal stopped the compiler: not a compile error; the
            // loop takes the signal next.
            if inbox.hasArrivals { return nil }
            failedKey = snapshot.key
            Terminal.error("\(error); the running recipe keeps going")
            return nil
        }
        failedKey = nil
        reloadStarted = started
        compileTime = clock.now - started
        return perform(machine.compiled(next))
    }

    // MARK: Actions

    /// Takes the machine's actions; returns the exit status once it says exit.
    private func perform(_ actions: [RecipeHostMachine<RecipeChild>.Action]) -> Int32? {
        for action in actions {
            switch action {
            case .send(let child, let number):
                child.send(number)
            case .stop(let child):
                child.stop()
            case .kill(let child):
                child.kill()
            case .reportDeath(let number):
                reportDeath(number)
            case .sweep:
                finishCrashOutput()
                terminal?.restore()
                ProcessSupervisor.stopOrphans(stopTimeout: Self.leftoverTimeout)
            case .start(let next):
                if let status = start(next) { return status }
            case .exit(let status):
                return status
            }
        }
        return nil
    }

    /// Starts the reloaded binary `next`; an exit status if it cannot start.
    private func start(_ next: String) -> Int32? {
        do {
            let child = try RecipeChild.start(next, arguments: options.arguments, ended: ended, verbose: options.verbose)
            crashOutput = child.crashOutput
            binary = next
            recipeName = Self.name(of: options.file)
            machine.started(child)
            if let started = reloadStarted {
                let total = clock.now - started
                Terminal.status("reloaded \(Quoted.path(options.file)) in \(Terminal.format(total)) (compile \(Terminal.format(compileTime)), swap \(Terminal.format(total - compileTime)))", color: .green)
                reloadStarted = nil
            }
            return nil
        } catch {
            Terminal.error("\(error)")
            return perform(machine.startFailed())
        }
    }

    /// One line (two without `-v`) on what ended the recipe.
    private func reportDeath(_ number: Int32) {
        relayCrashOutput()
        let text = filter.report()
        let crashSignals = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS]
        guard crashSignals.contains(number) else {
            Terminal.status("recipe \(Quoted.path(recipeName)) was killed by \(SignalName.name(number))", color: .red)
            return
        }
        let report = CrashReport(output: text, recipeFile: options.file, signal: number)
        Terminal.status("recipe \(Quoted.path(recipeName)) crashed: \(report.summary)", color: .red)
        if !options.verbose { Terminal.status("(rwatch -v shows the backtrace)", color: .dim) }
    }

    // MARK: Crash output

    /// Moves what the child wrote on its descriptor 2 through the filter.
    private func relayCrashOutput() {
        guard crashOutput >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(crashOutput, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                if count == 0 {
                    close(crashOutput)
                    crashOutput = -1
                }
                return
            }
            writeAll(filter.receive(Array(buffer[0..<count])))
        }
    }

    /// The child ended: what it wrote is all in the pipe (anything that
    /// inherited the pipe and outlives it is not waited for).
    private func finishCrashOutput() {
        relayCrashOutput()
        writeAll(filter.release())
        if crashOutput >= 0 {
            close(crashOutput)
            crashOutput = -1
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        _ = try? FileDescriptor.standardError.writeAll(bytes)
    }

    // MARK: Helpers

    /// The recipe's name as its `Recipe(…)` says, else the file's name.
    private static func name(of file: String) -> String {
        let text = (try? FileSystem.read(file)) ?? ""
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return RecipeLibrary.name(in: text) ?? (base.hasSuffix(".swift") ? String(base.dropLast(6)) : base)
    }
}
