import WatchmanProtocol

/// A `trigger` command's definition, parsed (`docs/cmd/trigger.md`): the
/// command, the query that picks the files, and how the files and output
/// reach the command. `definition` is the object form, what `trigger-list`
/// shows and the state file keeps (the positional form is turned into it).
struct TriggerSpec: Sendable {
    /// What the command reads on its standard input.
    enum Input: Sendable, Equatable {
        case devNull
        /// A JSON array of the matches, rendered with these fields.
        case fields(FieldList)
        /// Each match's name on a line of its own, unquoted.
        case namePerLine
    }

    /// Where standard output or error goes: the service's own (its log
    /// file), or a file below the root, truncated or appended to.
    struct Redirection: Sendable, Equatable {
        var path: [UInt8]
        var append: Bool
    }

    var name: String
    var command: [[UInt8]]
    var query: QuerySpec
    var appendFiles = false
    var input = Input.devNull
    var stdout: Redirection?
    var stderr: Redirection?
    var maxFilesStdin: Int?
    var chdir: [UInt8]?
    var definition: WatchmanValue

    /// Parses `["trigger", ROOT, {…}]` or `["trigger", ROOT, NAME, PATTERN…, "--", COMMAND…]`.
    init(parsing arguments: ArraySlice<WatchmanValue>) throws(CommandError) {
        guard let first = arguments.first else { throw CommandError("not enough arguments") }
        if case .object = first, arguments.count == 1 {
            try self.init(object: first)
        } else {
            try self.init(object: Self.objectForm(arguments))
        }
    }

    /// The object form of the positional syntax: the patterns before
    /// `--` make the expression, the words after it the command; files
    /// are appended, and described on stdin.
    static func objectForm(_ arguments: ArraySlice<WatchmanValue>) throws(CommandError) -> WatchmanValue {
        guard let name = arguments.first?.text else { throw CommandError("invalid or missing name") }
        let rest = arguments.dropFirst()
        // Every word after the name is a string, as watchman checks them:
        // position 3 of the request is the first.
        if let offset = rest.firstIndex(where: { $0.text == nil }) {
            throw CommandError("failed to parse query: rule @ position \(offset - rest.startIndex + 3) is not a string value")
        }
        guard let separator = rest.firstIndex(where: { $0.text == "--" }) else {
            throw CommandError("no command was specified")
        }
        let command = Array(rest[(separator + 1)...])
        guard !command.isEmpty else { throw CommandError("no command was specified") }
        var members: [(key: String, value: WatchmanValue)] = [("name", .string(name))]
        do {
            if let expression = try SimplePatterns.expression(rest[..<separator], firstPosition: 3) {
                members.append(("expression", expression))
            }
        } catch {
            throw CommandError(error.description)
        }
        members += [("append_files", true), ("command", .array(command)),
                    ("stdin", ["name", "exists", "new", "size", "mode"])]
        return .object(members)
    }

    private init(object: WatchmanValue) throws(CommandError) {
        definition = object
        guard let name = object["name"]?.text else { throw CommandError("invalid or missing name") }
        self.name = name
        guard let words = object["command"]?.elements, !words.isEmpty else {
            throw CommandError("invalid command array")
        }
        command = try words.map { word throws(CommandError) in
            guard let bytes = word.stringBytes else { throw CommandError("invalid command array") }
            return bytes
        }
        if let value = object["append_files"] {
            guard let flag = value.boolean else { throw CommandError("append_files must be a boolean") }
            appendFiles = flag
        }
        input = try Self.input(object["stdin"])
        stdout = try Self.redirection(object["stdout"], "stdout")
        stderr = try Self.redirection(object["stderr"], "stderr")
        if let value = object["max_files_stdin"] {
            guard let limit = value.integer, limit >= 0 else { throw CommandError("max_files_stdin must be >= 0") }
            maxFilesStdin = Int(clamping: limit)
        }
        if let value = object["chdir"] {
            guard let bytes = value.stringBytes else { throw CommandError("chdir must be a string") }
            chdir = bytes
        }
        query = try Self.query(object, fields: input)
    }

    /// The query of the trigger: its expression and relative root, with
    /// the fields stdin needs (names otherwise), run from where the last
    /// run started.
    private static func query(_ object: WatchmanValue, fields: Input) throws(CommandError) -> QuerySpec {
        var members: [(key: String, value: WatchmanValue)] = []
        for key in ["expression", "relative_root"] {
            if let value = object[key] { members.append((key, value)) }
        }
        var query: QuerySpec
        do {
            query = try QuerySpec(parsing: .object(members))
        } catch {
            throw CommandError(error.description)
        }
        if case .fields(let list) = fields { query.fields = list } else { query.fields = FieldList(fields: [.name]) }
        query.syncTimeout = 0
        query.lockTimeout = 100
        return query
    }

    private static func input(_ value: WatchmanValue?) throws(CommandError) -> Input {
        guard let value else { return .devNull }
        if let text = value.text {
            switch text {
            case "/dev/null": return .devNull
            case "NAME_PER_LINE": return .namePerLine
            default: throw CommandError("invalid stdin value \(text)")
            }
        }
        guard value.elements != nil else { throw CommandError("invalid value for stdin") }
        do {
            return .fields(try FieldList(parsing: value))
        } catch {
            throw CommandError(error.description)
        }
    }

    private static func redirection(_ value: WatchmanValue?, _ key: String) throws(CommandError) -> Redirection? {
        guard let value else { return nil }
        guard let bytes = value.stringBytes else { throw CommandError("\(key) must be a string") }
        let greater = UInt8(ascii: ">")
        guard bytes.first == greater else { throw CommandError("\(key): must be prefixed with either > or >>, got \(value.text ?? "")") }
        let append = bytes.count > 1 && bytes[1] == greater
        let path = Array(bytes.dropFirst(append ? 2 : 1))
        guard !path.isEmpty else { throw CommandError("\(key): a file name must follow \(append ? ">>" : ">")") }
        return Redirection(path: path, append: append)
    }
}
