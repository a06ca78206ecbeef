import RecipeKit

/// Runs a `Recipe` on virtual time, in a world the test scripts: a virtual
/// file tree it edits, scripted commands, followed logs it appends to, key
/// presses and standard input. Nothing real is touched or spawned, and
/// nothing sleeps: an hour of editing takes milliseconds, the same way
/// every time.
///
///     @Test func twoSavesAFewMillisecondsApartGiveOneBuild() {
///         let test = RecipeTest(recipe, files: ["Sources/App/main.swift": ""],
///                               commands: [.command(["swift", "build"], takes: .seconds(2))])
///         test.save("Sources/App/main.swift", at: .seconds(10))
///         test.save("Sources/App/main.swift", at: .seconds(10) + .milliseconds(30))
///         test.advance(to: .seconds(20))
///         #expect(test.started.map(\.words) == [["swift", "build"], ["swift", "build"]])   // at start, then once
///     }
///
/// The recipe is the same value `rwatch` runs: its body is built in the
/// test's world (`RecipeWorld`), so every timer, debounce and timeout runs
/// on `scheduler`, every `FileWatcher.watch` sees the virtual tree through
/// the inotify reader's own save rules, and every `run` plays a
/// `ScriptedCommand`. The recipe starts (is subscribed) at time zero, when
/// the test is made. Relative paths are relative to `workingDirectory`.
public final class RecipeTest: Sendable {
    /// The virtual clock: every timer of the recipe, and of the test's own steps.
    public let scheduler = TestScheduler()
    /// The directory the recipe runs in (`/project`): relative paths start here.
    public var workingDirectory: FilePath { files.workingDirectory }

    let files: VirtualFileSystem
    let logs: VirtualLogs
    let input = PublishSubject<String>()
    let keys = PublishSubject<UInt8>()
    let recorder: Recorder
    let world: RecipeWorld

    private struct Life {
        var subscription: (any Disposable)?
        var keyboard: (any Disposable)?
        var status: Int32 = 0
        var exit: Int32?
    }

    private let life = Locked(Life())

    /// Starts `recipe` at virtual time zero with `arguments` after it on
    /// the command line, `environment` as its variables (nothing of the
    /// test process's own), the files `files` (path: contents) in its
    /// tree, and `commands` scripting what its runs do.
    public convenience init(_ recipe: Recipe, arguments: [String] = [], environment: [String: String] = [:],
                            files: [String: String] = [:], commands: [ScriptedCommand] = []) {
        let tree = files.sorted { $0.key < $1.key }.map { VirtualChange.write(FilePath($0.key), Array($0.value.utf8)) }
        self.init(recipe, arguments: arguments, environment: environment, workingDirectory: "/project", tree: tree, commands: commands)
    }

    /// `recipe` in `workingDirectory`, the tree made by `tree` first.
    init(_ recipe: Recipe, arguments: [String], environment: [String: String], workingDirectory: FilePath, tree: [VirtualChange],
         commands: [ScriptedCommand]) {
        recorder = Recorder(scheduler: scheduler)
        files = VirtualFileSystem(workingDirectory: workingDirectory, scheduler: scheduler)
        let files = files
        logs = VirtualLogs(absolute: { files.absolute($0) })
        world = Self.world(scheduler: scheduler, files: files, logs: logs, input: input, recorder: recorder, commands: commands,
                           arguments: arguments, environment: environment)
        files.apply(tree)
        start(recipe)
    }

    private func start(_ recipe: Recipe) {
        world.evaluate {
            let keyboard = KeyCommands.listen(to: keys.asSignal(), quit: { [self] in end(status: 0) }, world: world)
            life.withLock { $0.keyboard = keyboard }
            let subscription = recipe.outcomes(in: world).subscribe(
                onNext: { [self] status in
                    if let status { life.withLock { $0.status = status } }
                },
                onError: { [self] error in
                    world.output.error("\(error)")
                    end(status: 2)
                },
                onCompleted: { [self] in end(status: nil) }
            )
            let ended = life.withLock { life in
                life.subscription = subscription
                return life.exit != nil
            }
            if ended { subscription.dispose() }
            scheduler.advance(by: .zero)
        }
    }

    // MARK: Time

    /// Moves the virtual clock forward by `duration`, running everything
    /// the recipe and the test's steps have due on the way.
    public func advance(by duration: Duration) {
        world.evaluate { scheduler.advance(by: duration) }
    }

    /// Moves the virtual clock to `time`, running everything due by then.
    public func advance(to time: Duration) {
        world.evaluate { scheduler.advance(to: time) }
    }

    /// The virtual time now.
    public var now: Duration { scheduler.now }

    /// Runs `step` at virtual time `time` (now, when nil): a test's edits
    /// and presses, placed on the same clock as the recipe's timers.
    func at(_ time: Duration?, _ step: @escaping @Sendable () -> Void) {
        guard let time else {
            world.evaluate {
                step()
                scheduler.advance(by: .zero)
            }
            return
        }
        precondition(time >= scheduler.now, "a step at \(time) is in the past (now \(scheduler.now))")
        scheduler.schedule(after: time - scheduler.now, step)
    }

    // MARK: Ending

    /// Stops the recipe now, as Ctrl-C would: every running command is
    /// stopped (recorded as killed), and the exit status is the last
    /// run's. Returns it.
    @discardableResult
    public func finish() -> Int32 {
        end(status: nil)
        return life.withLock { $0.exit ?? 0 }
    }

    /// The recipe's exit status once it ended (its pipelines completed, it
    /// failed, `q` was pressed, or `finish()`); nil while it runs.
    public var exitStatus: Int32? { life.withLock { $0.exit } }

    private func end(status: Int32?) {
        let ending = life.withLock { life -> [any Disposable]? in
            guard life.exit == nil else { return nil }
            life.exit = status ?? life.status
            defer { (life.subscription, life.keyboard) = (nil, nil) }
            return [life.subscription, life.keyboard].compactMap { $0 }
        }
        world.evaluate {
            for disposable in ending ?? [] { disposable.dispose() }
        }
    }

    deinit {
        end(status: nil)
    }

    // MARK: What the recipe did

    /// Every run, in the order they started.
    public var runs: [RecordedRun] { recorder.snapshot.runs }

    /// The words and start of every run, in order.
    public var started: [RunStart] { runs.map { RunStart(words: $0.words, at: $0.start) } }

    /// Every line written: commands' output, `print`s, status lines,
    /// warnings and errors, in order.
    public var lines: [RecordedLine] { recorder.snapshot.lines }

    /// The output lines (commands' and `print`s', on standard output), as text.
    public var printed: [String] { lines.filter { $0.kind == .output }.map(\.text) }

    /// rwatch's status lines, as text (without `rwatch: `).
    public var statusLines: [String] { lines.filter { $0.kind == .status }.map(\.text) }

    /// The notifications shown (`notify(message:)`, a run's `-N`).
    public var notifications: [RecordedNotification] { recorder.snapshot.notifications }

    /// When the terminal bell rang.
    public var bells: [Duration] { recorder.snapshot.bells }
}
