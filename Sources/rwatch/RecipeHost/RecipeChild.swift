import Glibc
import RecipeKit
import SystemPackage

/// A compiled recipe binary running as rwatch's child, started, stopped
/// and reaped through `ProcessSource` like every command.
///
/// It stays in rwatch's own process group (`ProcessOptions.Grouping
/// .sameGroup`), so that it is in the terminal's foreground group whenever
/// rwatch is: it may read keys and hand the terminal to its commands (their
/// own groups) and take it back. Its descriptor 2 is a pipe to rwatch,
/// where the Swift runtime writes a crash report; its descriptor 3 is
/// rwatch's real standard error, which it uses for everything else
/// (`RWATCH_HOST`, read by `RecipeRunner.main`). Its environment is
/// rwatch's, byte for byte.
final class RecipeChild: Sendable, Equatable {
    /// The read end of the child's descriptor 2 (non-blocking).
    let crashOutput: Int32
    /// Its process's stop switch.
    private let handle: ProcessHandle
    private let exit: Locked<ExitStatus?>

    private init(crashOutput: Int32, handle: ProcessHandle, exit: Locked<ExitStatus?>) {
        self.crashOutput = crashOutput
        self.handle = handle
        self.exit = exit
    }

    /// How long a stopped recipe gets to stop its groups and exit before
    /// SIGKILL.
    static let stopTimeout: Duration = .seconds(30)

    /// Starts `binary` with `arguments` (as `Recipe.arguments`); `ended`
    /// is woken once it has exited and is reaped (`exitStatus`). With
    /// `verbose` (`-v`) it lists its pipelines when it starts.
    static func start(_ binary: String, arguments: [CommandWord], ended: WakePipe, verbose: Bool = false) throws -> RecipeChild {
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try GNUFunctions.makePipe()
        } catch {
            throw RWatchError("cannot make a pipe for the recipe: \(Errno(rawValue: error.errno).description)")
        }
        defer { close(pipe.write) }
        _ = fcntl(pipe.read, F_SETFL, O_NONBLOCK)
        var options = ProcessOptions(environment: [HostedRecipe.variable: "\(getpid()):3"], stopTimeout: stopTimeout, captureOutput: false)
        // -v: the recipe lists its pipelines when it starts.
        if verbose { options.environment[RecipeGraph.verboseVariable] = "1" }
        options.grouping = .sameGroup
        options.descriptors = [2: pipe.write, 3: StandardError.descriptor]
        let exit = Locked<ExitStatus?>(nil)
        let failure = Locked<(any Error)?>(nil)
        let handle = ProcessHandle()
        // Not kept: the run ends with the process, and disposing it would stop it.
        _ = ProcessSource.run([CommandWord(binary)] + arguments, options: options, handle: handle).subscribe { event in
            switch event {
            case .next(.exited(let status)):
                exit.withLock { $0 = status }
                ended.wake()
            case .error(let error):
                failure.withLock { $0 = error }
            default:
                break
            }
        }
        // A spawn that fails says so before `subscribe` returns.
        if let error = failure.withLock({ $0 }) {
            close(pipe.read)
            let detail = (error as? ProcessError).map { $0.detail.isEmpty ? "\($0)" : $0.detail } ?? "\(error)"
            throw RWatchError("cannot run the compiled recipe \(Quoted.path(binary)): \(detail)")
        }
        return RecipeChild(crashOutput: pipe.read, handle: handle, exit: exit)
    }

    /// How it ended, once it has exited and is reaped.
    var exitStatus: ExitStatus? { exit.withLock { $0 } }

    /// Passes a stop signal on (one sent to rwatch alone).
    func send(_ number: Int32) {
        handle.send(number)
    }

    /// SIGTERM, then SIGKILL after `stopTimeout`: it stops its command
    /// groups as on a restart, then exits.
    func stop() {
        handle.stop()
    }

    /// SIGKILL now (a second Ctrl-C).
    func kill() {
        handle.kill()
    }

    static func == (left: RecipeChild, right: RecipeChild) -> Bool {
        left === right
    }
}
