import Glibc
import SystemPackage
import WatchSources
import WatchmanProtocol

/// The command line of `watchman [OPTIONS] COMMAND [ARGS…]`, as rwatch runs
/// it under the name `watchman` and as `rwatch watchman`: watchman's own
/// options (its `cli-options` documentation), read up to the first word
/// that is not one, which names the command. Arguments are bytes, as a
/// file name given to the command may not be UTF-8.
struct WatchmanArguments: Equatable {
    /// How a PDU is written: watchman's `json`, `bser` (v1) or `bser-v2`.
    enum Encoding: String, Equatable {
        case json, bser, bserV2 = "bser-v2"

        /// The wire form (BSER v2 asks for nothing to be left out).
        var wire: WireEncoding {
            switch self {
            case .json: .json
            case .bser: .bserV1
            case .bserV2: .bserV2(capabilities: [])
            }
        }
    }

    var sockname: FilePath?
    var jsonCommand = false
    var persistent = false
    /// `--pretty` (true) or `--no-pretty` (false); nil: pretty on a terminal.
    var pretty: Bool?
    var outputEncoding: Encoding?
    var serverEncoding: Encoding?
    var noSpawn = false
    /// Start the service here even when the global configuration names a
    /// site spawner (`spawn_watchman_service`).
    var noSiteSpawner = false
    var logfile: FilePath?
    var statefile: FilePath?
    var pidfile: FilePath?
    var logLevel: String?
    var noSaveState = false
    /// `--test-state-dir DIR`: the service's files in `DIR/USER-state`.
    var testStateDir: FilePath?
    var foreground = false
    var version = false
    var help = false
    /// The command and its arguments, as given.
    var words: [[UInt8]] = []

    /// Why a command line is refused.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// Reads `arguments` (without the program's name). Options may come
    /// anywhere, before or after the command (watchman's `getopt_long`
    /// permutes); after `--` every word is the command's.
    static func parse(_ arguments: [[UInt8]]) throws(UsageError) -> WatchmanArguments {
        var parsed = WatchmanArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let word = String(decoding: argument, as: UTF8.self)
            if word == "--" {
                parsed.words += arguments[index...]
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                parsed.words.append(argument)
                continue
            }
            var name = word
            var inline: [UInt8]?
            if word.hasPrefix("--"), let equals = argument.firstIndex(of: UInt8(ascii: "=")) {
                name = String(decoding: argument[..<equals], as: UTF8.self)
                inline = Array(argument[(equals + 1)...])
            }
            func value() throws(UsageError) -> [UInt8] {
                if let inline { return inline }
                guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            try parsed.apply(name, value: value)
        }
        return parsed
    }

    /// Sets what option `name` says, reading its value through `value`.
    private mutating func apply(_ name: String, value: () throws(UsageError) -> [UInt8]) throws(UsageError) {
        func path() throws(UsageError) -> FilePath { FileSystem.absolute(FilePath(bytes: try value())) }
        func encoding() throws(UsageError) -> Encoding {
            let text = String(decoding: try value(), as: UTF8.self)
            guard let encoding = Encoding(rawValue: text) else {
                throw UsageError(description: "\(name) takes json, bser or bser-v2, not \(text)")
            }
            return encoding
        }
        switch name {
        case "-U", "-u", "--sockname", "--unix-listener-path": sockname = try path()
        case "-j", "--json-command": jsonCommand = true
        case "-p", "--persistent": persistent = true
        case "--pretty": pretty = true
        case "--no-pretty": pretty = false
        case "--output-encoding": outputEncoding = try encoding()
        case "--server-encoding": serverEncoding = try encoding()
        case "--no-spawn": noSpawn = true
        case "--no-local": break  // rwatch never answers a command itself
        case "-S", "--no-site-spawner": noSiteSpawner = true
        case "-o", "--logfile": logfile = try path()
        case "--statefile": statefile = try path()
        case "--pidfile": pidfile = try path()
        case "--log-level": logLevel = String(decoding: try value(), as: UTF8.self)
        case "-n", "--no-save-state": noSaveState = true
        case "--test-state-dir": testStateDir = try path()
        case "-f", "--foreground": foreground = true
        case "-v", "--version": version = true
        case "-h", "--help": help = true
        case "--named-pipe-path": _ = try value()  // Windows only
        default: throw UsageError(description: "unknown option \(name) (see watchman --help)")
        }
    }

    /// The request the words make: `[COMMAND, ARGS…]`, each argument the
    /// JSON value it spells when it is valid JSON, else a string (text
    /// when UTF-8, else bytes), as watchman's command line reads them.
    var request: WatchmanValue {
        .array(words.enumerated().map { index, word in
            if index > 0, let value = try? JSONLines.decode(word) { return value }
            if let text = String(validating: word, as: UTF8.self) { return .string(text) }
            return .bytes(word)
        })
    }
}

extension WatchmanArguments {
    /// The commands whose first argument names a root: the command line
    /// sends it resolved (absolute, symbolic links followed), as watchman's
    /// does, so `watchman watch .` works where the socket alone refuses a
    /// relative root.
    static let rootCommands: Set<String> = [
        "clock", "debug-ageout", "debug-contenthash", "debug-get-asserted-states", "debug-get-subscriptions",
        "debug-recrawl", "debug-root-status", "debug-show-cursors", "find", "flush-subscriptions", "get-config",
        "query", "since", "state-enter", "state-leave", "subscribe", "trigger", "trigger-del", "trigger-list",
        "unsubscribe", "watch", "watch-del", "watch-project",
    ]

    /// `request` with a root command's root resolved against the working
    /// directory; unchanged when it names no root or cannot be resolved
    /// (the service then says why).
    static func resolvingRoot(_ request: WatchmanValue) -> WatchmanValue {
        guard var elements = request.elements, elements.count > 1, let name = elements[0].text,
              rootCommands.contains(name), let root = elements[1].stringBytes, !root.isEmpty else { return request }
        let given = FilePath(bytes: root)
        guard let resolved = given.withPlatformString({ realpath($0, nil) }) else {
            if !given.isAbsolute { elements[1] = .bytes(FileSystem.absolute(given).bytes) }
            return .array(elements)
        }
        defer { free(resolved) }
        let bytes = Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) }
        elements[1] = String(validating: bytes, as: UTF8.self).map(WatchmanValue.string) ?? .bytes(bytes)
        return .array(elements)
    }
}
