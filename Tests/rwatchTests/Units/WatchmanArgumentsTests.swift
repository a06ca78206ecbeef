@testable import rwatch
import SystemPackage
import Testing
import WatchmanProtocol

/// watchman's command line read without running anything: options
/// anywhere, the words as the request, the service's start arguments.
@Suite struct WatchmanArgumentsTests {
    private func parse(_ words: [String]) throws -> WatchmanArguments {
        try WatchmanArguments.parse(words.map { Array($0.utf8) })
    }

    @Test func argumentsValidAsJSONAreJSONAndTheRestStrings() throws {
        let parsed = try parse(["query", "/abs/root", "{\"since\": \"c:1\"}", "12", "true"])
        #expect(parsed.request == .array([.string("query"), .string("/abs/root"),
                                          .object([("since", .string("c:1"))]), .int(12), .bool(true)]))
    }

    @Test func testStateDirIsTakenInBothSpellings() throws {
        #expect(try parse(["--foreground", "--test-state-dir=/t/inst"]).testStateDir == FilePath("/t/inst"))
        let parsed = try parse(["--test-state-dir", "/t/inst", "get-sockname"])
        #expect(parsed.testStateDir == FilePath("/t/inst") && parsed.words == [Array("get-sockname".utf8)])
    }

    @Test func theCommandNameIsAlwaysAString() throws {
        #expect(try parse(["12"]).request == .array([.string("12")]))
    }

    @Test func optionsMayFollowTheCommand() throws {
        let parsed = try parse(["-U", "/s/sock", "clock", "/root", "--no-pretty", "--output-encoding=bser-v2"])
        #expect(parsed.sockname == FilePath("/s/sock"))
        #expect(parsed.pretty == false && parsed.outputEncoding == .bserV2)
        #expect(parsed.words == [Array("clock".utf8), Array("/root".utf8)])
    }

    @Test func wordsAfterDoubleDashAreTheCommands() throws {
        let parsed = try parse(["log", "--", "--no-pretty"])
        #expect(parsed.pretty == nil)
        #expect(parsed.words == [Array("log".utf8), Array("--no-pretty".utf8)])
    }

    @Test func prettyAndNoPrettyAreWatchmansOwnAndTheLastOneWins() throws {
        #expect(try parse(["--pretty", "version"]).pretty == true)
        #expect(try parse(["--pretty", "--no-pretty", "version"]).pretty == false)
        #expect(try parse(["version"]).pretty == nil)
    }

    @Test func noSiteSpawnerAndTheShortListenerPathAreRead() throws {
        let parsed = try parse(["-S", "-u", "/s/sock", "version"])
        #expect(parsed.noSiteSpawner && parsed.sockname == FilePath("/s/sock"))
    }

    @Test func anUnknownOptionOrEncodingIsAUsageError() {
        #expect(throws: WatchmanArguments.UsageError.self) { try parse(["--bogus", "version"]) }
        #expect(throws: WatchmanArguments.UsageError.self) { try parse(["--server-encoding", "xml", "version"]) }
        #expect(throws: WatchmanArguments.UsageError.self) { try parse(["version", "-U"]) }
    }

    @Test func aStartedServiceKeepsItsFilesBesideTheSocket() throws {
        let start = ServiceStart(sockname: FilePath("/s/sock"), arguments: try parse(["--log-level", "2", "version"]))
        #expect(start.serveArguments.map { String(decoding: $0, as: UTF8.self) } == [
            "serve", "--sockname", "/s/sock", "--logfile", "/s/sock.log", "--pidfile", "/s/sock.pid",
            "--statefile", "/s/sock.state", "--log-level", "2",
        ])
    }

    @Test func givenServerFilesWinAndNoSaveStateDropsTheStateFile() throws {
        let arguments = try parse(["-o", "/l/log", "--pidfile", "/p/pid", "-n", "version"])
        let start = ServiceStart(sockname: FilePath("/s/sock"), arguments: arguments)
        #expect(start.logfile == FilePath("/l/log") && start.pidfile == FilePath("/p/pid") && start.statefile == nil)
    }

    @Test func prettyOutputIndentsAndCompactIsOneLine() {
        let value: WatchmanValue = .object([("version", .string("1")), ("files", .array([.string("a")]))])
        let pretty = WatchmanOutput(encoding: .json, pretty: true).bytes(value)
        #expect(String(decoding: pretty, as: UTF8.self) == "{\n    \"version\": \"1\",\n    \"files\": [\n        \"a\"\n    ]\n}\n")
        let compact = WatchmanOutput(encoding: .json, pretty: false).bytes(value)
        #expect(String(decoding: compact, as: UTF8.self) == "{\"version\":\"1\",\"files\":[\"a\"]}\n")
        #expect(WatchmanOutput(encoding: .bser, pretty: true).bytes(value).starts(with: [0, 1]))
    }

    @Test func programNamedWatchmanOrSubcommandWatchmanIsTheWatchmanCommand() {
        let words = { (list: [String]) in list.map { Array($0.utf8) } }
        #expect(WatchmanCommand.arguments(program: Array("/usr/bin/watchman".utf8), arguments: words(["version"])) == words(["version"]))
        #expect(WatchmanCommand.arguments(program: Array("rwatch".utf8), arguments: words(["watchman", "version"])) == words(["version"]))
        #expect(WatchmanCommand.arguments(program: Array("rwatch".utf8), arguments: words(["serve"])) == nil)
    }
}
