import ArgumentParser
import FoundationEssentials

/// The command line as completion scripts need it, read from
/// ArgumentParser's own description of the commands (the JSON behind
/// `--experimental-dump-help`), so that a flag declared anywhere reaches
/// every shell's completions without being listed twice.
struct CompletionModel {
    /// What a value or a positional argument completes to.
    enum Values: Equatable {
        /// Nothing can be guessed (a duration, a glob).
        case nothing
        /// File names, only these extensions when given (directories too).
        case files(extensions: [String])
        /// Directory names.
        case directories
        /// One of these words.
        case words([String])
        /// The words a command prints (its leading `rwatch` is the rwatch
        /// being completed), and file names.
        case output(of: String, extensions: [String])
        /// A command line: a program name, then that program's own
        /// completion for its arguments.
        case commandLine
    }

    struct Option {
        /// Every spelling with its dashes: `-w`, `--watch`.
        var names: [String]
        var help: String
        var takesValue: Bool
        /// The value may be left out (`-N` alone means `-N both`).
        var valueIsOptional: Bool
        var isRepeating: Bool
        var values: Values
        var valueName: String
    }

    struct Positional {
        var values: Values
        var isRepeating: Bool
        var valueName: String
    }

    struct Command {
        var name: String
        var help: String
        var options: [Option]
        var positionals: [Positional]

        /// The options that take a value, every spelling.
        var valueOptionNames: [String] { options.filter(\.takesValue).flatMap(\.names) }
    }

    /// `rwatch`'s name.
    var program: String
    /// The subcommands; `defaultCommand` also serves `rwatch` without one.
    var commands: [Command]
    var defaultCommand: Command

    /// The model of `RWatch`'s command tree.
    static func current() throws -> CompletionModel {
        let json: String
        do {
            _ = try RWatch.parseAsRoot(["--experimental-dump-help"])
            throw RWatchError("ArgumentParser gave no command description")
        } catch let error as RWatchError {
            throw error
        } catch {
            json = RWatch.fullMessage(for: error)
        }
        let dump = try JSONDecoder().decode(Dump.self, from: Data(json.utf8))
        return try CompletionModel(dump.command)
    }

    private init(_ root: Dump.Command) throws {
        program = root.commandName
        commands = (root.subcommands ?? []).filter { $0.shouldDisplay ?? true }.map(Self.command)
        // `rwatch help NAME`: NAME is a subcommand.
        let names = commands.map(\.name)
        for index in commands.indices where commands[index].name == "help" {
            for position in commands[index].positionals.indices { commands[index].positionals[position].values = .words(names) }
        }
        let defaultName = root.defaultSubcommand ?? "watch"
        guard let found = commands.first(where: { $0.name == defaultName }) else {
            throw RWatchError("no default subcommand \(defaultName) in the command description")
        }
        defaultCommand = found
    }

    private static func command(_ dump: Dump.Command) -> Command {
        var options: [Option] = []
        var positionals: [Positional] = []
        for argument in dump.arguments ?? [] where argument.shouldDisplay ?? true {
            let values = Self.values(argument.completionKind, allValues: argument.allValues)
            switch argument.kind {
            case "positional":
                let isCommandLine = positionals.isEmpty && argument.parsingStrategy == "allRemainingInput" && argument.completionKind == nil
                positionals.append(Positional(
                    values: isCommandLine ? .commandLine : (values == .nothing ? .files(extensions: []) : values),
                    isRepeating: argument.isRepeating ?? false,
                    valueName: argument.valueName ?? "arg"
                ))
            default:
                let names = (argument.names ?? []).map { name in
                    name.kind == "short" || name.kind == "longWithSingleDash" ? "-" + name.name : "--" + name.name
                }
                guard !names.isEmpty else { continue }
                options.append(Option(
                    names: names,
                    help: argument.abstract ?? "",
                    takesValue: argument.kind == "option",
                    valueIsOptional: argument.parsingStrategy == "scanningForValue",
                    isRepeating: argument.isRepeating ?? false,
                    values: values,
                    valueName: argument.valueName ?? "value"
                ))
            }
        }
        return Command(name: dump.commandName, help: dump.abstract ?? "", options: options, positionals: positionals)
    }

    private static func values(_ kind: Dump.CompletionKind?, allValues: [String]?) -> Values {
        if let list = kind?.list { return .words(list.values) }
        if let file = kind?.file { return .files(extensions: file.extensions) }
        if kind?.directory != nil { return .directories }
        if let shell = kind?.shellCommand { return .output(of: shell.command, extensions: ["swift"]) }
        if let allValues, !allValues.isEmpty { return .words(allValues) }
        return .nothing
    }

    /// The part of ArgumentParser's command description this reads.
    private struct Dump: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }

        struct CompletionKind: Decodable {
            struct List: Decodable { var values: [String] }
            struct File: Decodable { var extensions: [String] }
            struct Shell: Decodable { var command: String }
            struct Empty: Decodable {}
            var list: List?
            var file: File?
            var directory: Empty?
            var shellCommand: Shell?
        }

        struct Argument: Decodable {
            var kind: String
            var names: [Name]?
            var abstract: String?
            var isRepeating: Bool?
            var shouldDisplay: Bool?
            var parsingStrategy: String?
            var valueName: String?
            var completionKind: CompletionKind?
            var allValues: [String]?
        }

        struct Command: Decodable {
            var commandName: String
            var abstract: String?
            var shouldDisplay: Bool?
            var defaultSubcommand: String?
            var subcommands: [Command]?
            var arguments: [Argument]?
        }

        var command: Command
    }
}
