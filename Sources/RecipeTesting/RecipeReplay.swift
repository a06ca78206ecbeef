import Glibc
import RecipeKit

/// `rwatch replay`: a recorded session played through a recipe on virtual
/// time, and the timeline of what it would have run. Nothing runs: every
/// command is taken to succeed at once.
public enum RecipeReplay {
    /// One moment of the timeline.
    package struct Moment: Sendable, Equatable {
        package enum What: String, Sendable {
            /// A run started.
            case start
            /// rwatch sent it a signal (a restart's stop, a timeout).
            case signal
            /// It ended.
            case end
            /// It was still running when the session ended.
            case running
            /// The recipe said something: a warning, or the error that ended it.
            case warning, error
        }

        package var time: Duration
        package var what: What
        package var words: [String]
        /// Why it started (the changed paths), how it ended, or which signal.
        package var detail: String
        /// The changed paths a start was for, relative to the working directory.
        package var paths: [FilePath] = []
    }

    /// How long the recipe is let run after the session's last event.
    static let settle = Duration.seconds(10)

    /// What `recipe` would have run for `session`, played in `workingDirectory`.
    /// `directories` are made first too (the working directory's own, which
    /// the recipe may watch though the session never touched them).
    package static func timeline(_ recipe: Recipe, session: ReplaySession, workingDirectory: FilePath, directories: [FilePath] = [],
                                 arguments: [String] = [], environment: [String: String] = [:]) -> [Moment] {
        let existing = session.existing
        let tree = (existing.directories.union(directories)).sorted { $0.string < $1.string }.map(VirtualChange.makeDirectory)
            + [.makeDirectory(workingDirectory)] + existing.files.sorted { $0.string < $1.string }.map { VirtualChange.write($0, []) }
        let test = RecipeTest(recipe, arguments: arguments, environment: environment, workingDirectory: workingDirectory, tree: tree, commands: [])
        for (time, change) in session.changes {
            test.scheduler.schedule(after: time) { [files = test.files] in files.apply([change]) }
        }
        test.advance(to: (session.entries.last?.time ?? .zero) + settle)
        let moments = moments(of: test.runs, lines: test.lines, workingDirectory: workingDirectory)
        test.finish()
        return moments
    }

    private static func moments(of runs: [RecordedRun], lines: [RecordedLine], workingDirectory: FilePath) -> [Moment] {
        var moments: [Moment] = lines.compactMap { line in
            switch line.kind {
            case .warning: Moment(time: line.at, what: .warning, words: [], detail: line.text)
            case .error: Moment(time: line.at, what: .error, words: [], detail: line.text)
            case .output, .errorOutput, .status: nil
            }
        }
        for run in runs {
            let paths = run.changedPaths.map { Terminal.shown($0, in: workingDirectory) }
            // Shown escaped: a file name never reaches a terminal as it is.
            let why = paths.isEmpty ? "no file changed" : "changed: " + paths.prefix(3).map(Quoted.path).joined(separator: ", ")
                + (paths.count > 3 ? " (+\(paths.count - 3) more)" : "")
            moments.append(Moment(time: run.start, what: .start, words: run.words, detail: why, paths: paths))
            for signal in run.signals {
                moments.append(Moment(time: signal.at, what: .signal, words: run.words, detail: SignalName.name(signal.number)))
            }
            if let end = run.end, let status = run.status {
                moments.append(Moment(time: end, what: .end, words: run.words, detail: "\(status)"))
            } else {
                moments.append(Moment(time: run.start, what: .running, words: run.words, detail: "still running at the end"))
            }
        }
        return moments.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The entry point of a replay binary (`rwatch replay` compiles one per
    /// recipe): reads the session named by `RWATCH_REPLAY`, plays it in the
    /// working directory, prints the timeline (`RWATCH_REPLAY_FORMAT=json`:
    /// as JSON lines) and exits 0; 2 when the session cannot be read (one
    /// line) or the recipe failed (its error is the timeline's last moment).
    public static func main(_ recipe: Recipe) -> Never {
        // A path is bytes: the session's name need not be UTF-8.
        guard let file = getenv("RWATCH_REPLAY").map({ FilePath(platformString: $0) }) else {
            fail("no session given (RWATCH_REPLAY)")
        }
        let session: ReplaySession
        do {
            session = try ReplaySession(read(file))
        } catch {
            fail("\(Quoted.path(file)): \(error)")
        }
        let json = getenv("RWATCH_REPLAY_FORMAT").map { strcmp($0, "json") == 0 } ?? false
        let here = FileSystem.absolute(".")
        let directories = (FileSystem.entries(here) ?? []).filter(\.isDirectory).map { here.appending($0.name) }
        let moments = timeline(recipe, session: session, workingDirectory: here, directories: directories, arguments: Recipe.arguments)
        Terminal.output(lines: moments.map { json ? jsonLine($0) : textLine($0) })
        exit(moments.contains { $0.what == .error } ? 2 : 0)
    }

    private static func fail(_ message: String) -> Never {
        Terminal.error(message)
        exit(2)
    }

    private static func read(_ file: FilePath) throws(ReplaySession.Failure) -> [UInt8] {
        let descriptor = file.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw ReplaySession.Failure(description: Errno(rawValue: errno).description) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes
    }

    /// `  10.130 s  start    swift build  (changed: Sources/a.swift)`
    static func textLine(_ moment: Moment) -> String {
        let seconds = Terminal.format(moment.time)
        let command = CommandName.display(moment.words)
        let padded = String(repeating: " ", count: max(0, 10 - seconds.count)) + seconds
        let what = moment.what.rawValue + String(repeating: " ", count: 8 - moment.what.rawValue.count)
        // One line whatever the detail holds (a recipe's error may name a file).
        guard !moment.words.isEmpty else { return Quoted.line("\(padded)  \(what) \(moment.detail)") }
        return Quoted.line("\(padded)  \(what) \(command)  (\(moment.detail))")
    }

    /// `{"time":10.13,"event":"start","command":["swift","build"],"detail":"…","paths":[…]}`
    static func jsonLine(_ moment: Moment) -> String {
        let milliseconds = moment.time.components.seconds * 1_000 + moment.time.components.attoseconds / 1_000_000_000_000_000
        let time = "\(milliseconds / 1_000).\(padded(milliseconds % 1_000))"
        let words = moment.words.map(JSONLine.quote).joined(separator: ",")
        let paths = moment.paths.map(JSONLine.quote).joined(separator: ",")
        return "{\"time\":\(time),\"event\":\"\(moment.what.rawValue)\",\"command\":[\(words)],\"detail\":\(JSONLine.quote(moment.detail)),"
            + "\"paths\":[\(paths)]}"
    }

    /// `milliseconds` (below 1,000) in three digits.
    private static func padded(_ milliseconds: Int64) -> String {
        let text = String(milliseconds)
        return String(repeating: "0", count: 3 - text.count) + text
    }
}
