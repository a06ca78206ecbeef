import Synchronization

/// One stage of a pipeline as a picture shows it: the operator or source
/// that made a signal, what it was given, and the stages it reads from.
///
///     FileWatcher.watch(["Sources"]).debounce(.milliseconds(100)).node
///     // debounce(100 ms), whose upstream is FileWatcher.watch(["Sources"])
///
/// Made once when a chain is built (`Signal.described`), immutable, and
/// never consulted while values flow. Its parameters are short strings,
/// already quoted the Swift way where they are text (`"app.log"`): one
/// line each, with no control character.
public final class SignalNode: Sendable {
    /// The operator or source: `debounce`, `FileWatcher.watch`, `run`.
    public let name: String
    /// What it was given, each a short string: `100 ms`, `latest`,
    /// `["swift", "build"]`, `onBusy: restart`.
    public let parameters: [String]
    /// The nodes of the signals it reads, in order: one for most
    /// operators, several for `merge`, `zip`, `combineLatest`; none for a
    /// source.
    public let upstreams: [SignalNode]

    /// A node named `name` with `parameters`, reading from `upstreams`.
    public init(_ name: String, _ parameters: [String] = [], upstreams: [SignalNode] = []) {
        self.name = name
        self.parameters = parameters
        self.upstreams = upstreams
    }

    /// How many `recording` calls are under way.
    private static let recorders = Atomic<Int>(0)

    /// Whether signals built now get a description: inside `recording`.
    @inlinable
    public static var isRecording: Bool { recordingCount > 0 }

    @usableFromInline
    static var recordingCount: Int { recorders.load(ordering: .relaxed) }

    /// Runs `body` with descriptions on: the chains it builds carry their
    /// nodes (`Signal.node`). Outside it, operators and sources describe
    /// nothing and cost nothing for it, so a chain built at run time (an
    /// inner signal of `flatMap`, a command's process) makes no node.
    /// Nodes made here live as long as the process. The switch is the
    /// process's: a chain another thread builds meanwhile is described too.
    ///
    ///     let nodes = SignalNode.recording { recipe body's signals.map(\.node) }
    public static func recording<Result>(_ body: () throws -> Result) rethrows -> Result {
        recorders.add(1, ordering: .relaxed)
        defer { recorders.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// What stands for an upstream that has no description (a signal made
    /// with `Signal { observer in … }`, a subject).
    public static let unknown = SignalNode("Signal")

    /// `name(parameter, parameter)`, or the name alone when it was given
    /// nothing: how every rendering labels the node.
    public var label: String {
        parameters.isEmpty ? name : name + "(" + parameters.joined(separator: ", ") + ")"
    }

    /// `text` as a Swift string literal, on one line: quotes and
    /// backslashes escaped, control characters as `\n`, `\t`, `\r` or
    /// `\u{XX}`. How a parameter shows a path, a word or a pattern.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if isControl(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `texts` as a Swift array literal of `quoted` strings:
    /// `["swift", "build"]`.
    public static func list(_ texts: some Sequence<String>) -> String {
        "[" + texts.map(quoted).joined(separator: ", ") + "]"
    }

    /// `text` as it is when it holds no control character (a pattern as
    /// the user typed it: `**/*.swift`, `error|warn`), else `quoted`, so
    /// that it stays on one line and its escapes read unambiguously.
    public static func bare(_ text: String) -> String {
        text.unicodeScalars.contains(where: isControl) ? quoted(text) : text
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
