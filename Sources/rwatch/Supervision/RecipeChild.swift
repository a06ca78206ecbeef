import Glibc
import RecipeKit
import SystemPackage

/// A compiled recipe binary started as rwatch's child.
///
/// It stays in rwatch's own process group, so that it is in the terminal's
/// foreground group whenever rwatch is: it may read keys and hand the
/// terminal to its commands (their own groups) and take it back. Its
/// descriptor 2 is a pipe to rwatch, where the Swift runtime writes a crash
/// report; its descriptor 3 is rwatch's real standard error, which it uses
/// for everything else (`RWATCH_SUPERVISOR`, read by `RecipeRunner.main`).
struct RecipeChild {
    let pid: pid_t
    /// The read end of the child's descriptor 2 (non-blocking).
    let crashOutput: Int32

    /// Starts `binary` with `arguments` (as `Recipe.arguments`).
    static func start(_ binary: String, arguments: [CommandWord]) throws -> RecipeChild {
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try GNUFunctions.makePipe()
        } catch {
            throw RWatchError("cannot make a pipe for the recipe: \(Errno(rawValue: error.errno).description)")
        }
        // Both ends above 3, so that moving rwatch's 2 to the child's 3
        // cannot overwrite one of them.
        let readEnd = fcntl(pipe.read, F_DUPFD_CLOEXEC, 10)
        let writeEnd = fcntl(pipe.write, F_DUPFD_CLOEXEC, 10)
        close(pipe.read)
        close(pipe.write)
        defer { close(writeEnd) }
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, 2, 3)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        // Nothing else of rwatch's (the watcher's inotify descriptor, say)
        // reaches the recipe.
        _ = withUnsafeMutablePointer(to: &actions) { GNUFunctions.closeFrom(4, in: UnsafeMutableRawPointer($0)) }

        // Same process group; every signal at its default. The mask stays
        // rwatch's, the stop signals blocked: one that comes before the
        // recipe's own signal owner runs waits for it instead of killing a
        // recipe that has not started its groups' bookkeeping.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // glibc's own signals 32 and 33 included (see `everySignal()`).
        var everySignal = ProcessLauncher.everySignal()
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var environment: [String] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            let text = String(cString: entry)
            if !text.hasPrefix("RWATCH_SUPERVISOR=") { environment.append(text) }
        }
        environment.append("RWATCH_SUPERVISOR=\(getpid()):3")

        let argv = ([CommandWord(binary)] + arguments).map { word in
            (word.bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } }
        } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = SpawnFence.hold { posix_spawn(&pid, binary, &actions, &attributes, argv, envp) }
        guard result == 0 else {
            close(readEnd)
            throw RWatchError("cannot run the compiled recipe \(Quoted.path(binary)): \(Errno(rawValue: result).description)")
        }
        return RecipeChild(pid: pid, crashOutput: readEnd)
    }
}
