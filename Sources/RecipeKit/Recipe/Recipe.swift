import Glibc

/// A recipe: a name, a one-line description, and the pipelines it runs.
///
/// A recipe file declares one, the way `Package.swift` declares a `Package`:
///
///     import RecipeKit
///
///     let recipe = Recipe("rebuild-on-save", "swift build, then swift test, on every save") {
///         FileWatcher.watch(["Sources", "Tests"], options: .matching("**/*.swift"))
///             .batched(.milliseconds(100))
///             .run(["swift", "build"], onBusy: .restart)
///             .then(["swift", "test"])
///     }
///
/// Every signal written in the body is one pipeline; they run side by side
/// (merged). The body is evaluated only when the recipe runs, so building a
/// `Recipe` has no side effect. `rwatch run` ends when every pipeline has
/// completed (exiting with the last command's status) or on Ctrl-C (130).
public struct Recipe: Sendable {
    /// A short name, as `rwatch recipes` lists it.
    public let name: String
    /// One line saying what the recipe does.
    public let description: String
    private let body: @Sendable () -> [Pipeline]

    /// A recipe whose body lists the pipelines to run.
    public init(_ name: String, _ description: String = "", @PipelineBuilder _ body: @escaping @Sendable () -> [Pipeline]) {
        self.name = name
        self.description = description
        self.body = body
    }

    /// The arguments given after the recipe on the command line
    /// (`rwatch run tail-errors app.log` gives `["app.log"]`): the
    /// world's (`RecipeWorld`), in a test the ones it gave.
    public static var arguments: [String] {
        paths.map(\.string)
    }

    /// `arguments` as paths, byte for byte (a file name typed on the
    /// command line need not be UTF-8; `arguments` would show it with
    /// U+FFFD): `Tail.follow(Recipe.paths)`.
    public static var paths: [FilePath] {
        RecipeWorld.current.paths
    }

    /// The value of environment variable `name`, nil when unset or empty:
    /// how a recipe takes settings (`RWATCH_BUILD="make -j4"`). The
    /// world's environment: in a test, the one it gave.
    public static func environment(_ name: String) -> String? {
        guard let value = RecipeWorld.current.environment(name), !value.isEmpty else { return nil }
        return value
    }

    /// The body's pipelines, built in `world`: every source, timer and
    /// action in them acts there.
    package func pipelines(in world: RecipeWorld) -> [Pipeline] {
        world.evaluate(body)
    }

    /// The description of each pipeline, in the body's order: what `rwatch
    /// graph` draws and `-v` lists at start (`RecipeGraph`). Evaluates the
    /// body (in the live world) and subscribes to nothing: no watch is
    /// armed, no command started, no file touched. A pipeline whose signal
    /// has no description is `SignalNode.unknown`.
    public var pipelineNodes: [SignalNode] {
        SignalNode.recording { pipelines(in: .live) }.map { $0.node ?? .unknown }
    }

    /// All pipelines built in `world`, merged; each value is the shell
    /// status of a finished command run, or nil for values that are not runs.
    package func outcomes(in world: RecipeWorld) -> Signal<Int32?> {
        Signal.merge(pipelines(in: world).map(\.outcomes))
    }
}
