import RecipeKit

/// One command run as a `RecipeTest` recorded it.
public struct RecordedRun: Sendable, Equatable, CustomStringConvertible {
    /// The words it ran, after `{}`/`{+}` (as text).
    public var words: [String]
    /// The variables rwatch set for it (`RWATCH_PATHS`, `RWATCH_COMMON_PATH`, …).
    public var environment: [String: String]
    /// When it started, on the virtual clock.
    public var start: Duration
    /// When it ended (its whole group gone); nil while it runs.
    public var end: Duration?
    /// How it ended; nil while it runs.
    public var status: ExitStatus?
    /// The signals rwatch sent it, and when (a stop's SIGTERM, a kill).
    public var signals: [SentSignal]

    /// The paths it was for (those `RWATCH_PATHS` lists), as text
    /// (`changedPaths` has their bytes).
    public var paths: [String] {
        changedPaths.map(\.string)
    }

    /// The paths it was for, byte for byte (`RWATCH_PATHS` holds them one
    /// per line; here a name with a newline is still one path).
    public var changedPaths: [FilePath]

    public var description: String {
        let ending = end.map { " → \(status.map { "\($0)" } ?? "?") at \($0)" } ?? " (running)"
        return "\(words.joined(separator: " ")) at \(start)\(ending)"
    }
}

/// A signal rwatch sent a run.
public struct SentSignal: Sendable, Equatable {
    /// The signal's number (`SIGTERM`…).
    public var number: Int32
    /// When, on the virtual clock.
    public var at: Duration

    /// `number` sent `at`.
    public init(number: Int32, at: Duration) {
        self.number = number
        self.at = at
    }
}

/// That a run started: its words and when. What assertions compare most
/// often, written as the recipe writes a command:
///
///     #expect(test.started == [.run(["swift", "build"], at: .milliseconds(100))])
public struct RunStart: Sendable, Equatable, CustomStringConvertible {
    /// The words it ran.
    public var words: [String]
    /// When it started, on the virtual clock.
    public var at: Duration

    /// A run of `words` that started `at`.
    public static func run(_ words: [String], at: Duration) -> RunStart {
        RunStart(words: words, at: at)
    }

    public var description: String { "run(\(words), at: \(at))" }
}

/// A line the recipe wrote: a command's output, a `print`, a status line.
public struct RecordedLine: Sendable, Equatable, CustomStringConvertible {
    /// What wrote it.
    public enum Kind: Sendable, Equatable {
        /// A command's output or a `print`, on standard output.
        case output
        /// A command's output on standard error.
        case errorOutput
        /// rwatch's status line (`rwatch: …` without the prefix).
        case status
        /// `rwatch: warning: …`.
        case warning
        /// `rwatch: error: …`.
        case error
    }

    /// What wrote it.
    public var kind: Kind
    /// The line as printed (with a prefix such as `[server] `), without colour.
    public var text: String
    /// When, on the virtual clock.
    public var at: Duration

    public var description: String { "\(kind) \(text) at \(at)" }
}

/// A notification the recipe showed (`notify(message:)`, `-N`).
public struct RecordedNotification: Sendable, Equatable {
    /// What it said.
    public var message: String
    /// When, on the virtual clock.
    public var at: Duration
}
