import ArgumentParser
import RecipeKit
@testable import rwatch
import Testing

/// The command-line root (the test module's own `RWatch` runs the binary).
typealias RootCommand = rwatch.RWatch

/// `rwatch [options] COMMAND…` parsed as the binary parses it.
@Suite struct CommandLineTests {
    /// Parses like `rwatch arguments…` and returns the command it chose.
    func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try RootCommand.parseAsRoot(arguments)
    }

    func watch(_ arguments: [String]) throws -> Watch {
        let command = try parse(arguments)
        return try #require(command as? Watch)
    }

    /// The one-line message the binary prints for `arguments`.
    func failure(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return RootCommand.usageLine(for: error, arguments: arguments)
        }
    }

    @Test func theFirstWordThatIsNotAnOptionStartsTheCommand() throws {
        #expect(try watch(["make"]).command == ["make"])
        #expect(try watch(["make", "test"]).command == ["make", "test"])
    }

    @Test func everythingAfterTheCommandPassesThroughUntouched() throws {
        let parsed = try watch(["-e", "py", "python3", "-m", "pytest", "-x", "-c", "--once", "--", "-e"])
        #expect(parsed.files.exts == ["py"])
        #expect(parsed.command == ["python3", "-m", "pytest", "-x", "-c", "--once", "--", "-e"])
        #expect(parsed.running.clear == 0)
        #expect(!parsed.once)
    }

    @Test func doubleDashStillWorksAndIsDropped() throws {
        #expect(try watch(["-1", "--", "make", "-j4"]).command == ["make", "-j4"])
        #expect(try watch(["--", "--strange-program"]).command == ["--strange-program"])
    }

    @Test func aProgramNamedLikeASubcommandNeedsDoubleDash() throws {
        #expect(try parse(["tail", "app.log"]) is TailFiles)
        #expect(try watch(["--", "tail", "-f", "app.log"]).command == ["tail", "-f", "app.log"])
        // Only the first word can name a subcommand.
        #expect(try watch(["-e", "py", "run", "x"]).command == ["run", "x"])
    }

    @Test func anUnknownOptionBeforeTheCommandIsReportedAsOne() {
        #expect(failure(["-x", "make"]) == "unknown option '-x'")
        #expect(failure(["--pol", "make"]) == "unknown option '--pol'; did you mean '--poll'?")
        #expect(failure(["--color-scheme=dark", "make"]) == "unknown option '--color-scheme'")
        #expect(failure(["-1", "-x"]) == "unknown option '-x'")
    }

    @Test func aMisspeltOptionIsToldTheNearestOfItsCommand() {
        #expect(failure(["--debouce", "100ms", "make"]) == "unknown option '--debouce'; did you mean '--debounce'?")
        #expect(failure(["--debouce=100ms", "make"]) == "unknown option '--debouce'; did you mean '--debounce'?")
        #expect(failure(["watch", "--onse", "make"]) == "unknown option '--onse'; did you mean '--once'?")
        #expect(failure(["events", "--jsno"]) == "unknown option '--jsno'; did you mean '--json'?")
        #expect(failure(["events", "--hlep"]) == "unknown option '--hlep'; did you mean '--help'?")
        #expect(failure(["serve", "--socknme", "/tmp/s"]) == "unknown option '--socknme'; did you mean '--sockname'?")
        #expect(failure(["tail", "--gerp", "x", "log"]) == "unknown option '--gerp'; did you mean '--grep'?")
    }

    /// ArgumentParser's own suggestion went three edits away (`--foo` →
    /// `--json`); a hidden option is for tools, never told.
    @Test func aFarOrHiddenOptionIsNotSuggested() {
        #expect(failure(["events", "--foo"]) == "unknown option '--foo'")
        #expect(failure(["serve", "--named-pipe-pat", "x"]) == "unknown option '--named-pipe-pat'")
        #expect(failure(["--xyzzy", "make"]) == "unknown option '--xyzzy'")
    }

    @Test func aMisspeltOptionAfterTheCommandIsTheCommands() throws {
        #expect(try watch(["make", "--debouce"]).command == ["make", "--debouce"])
        #expect(try watch(["--", "--debouce"]).command == ["--debouce"])
    }

    @Test func noCommandParsesAndLeavesTheChoiceToRun() throws {
        #expect(try watch([]).command.isEmpty)
        #expect(try watch(["-e", "swift"]).command.isEmpty)
    }

    @Test func versionIsASubcommandToo() throws {
        #expect(try parse(["version"]) is PrintVersion)
        #expect(failure(["--version"])?.hasPrefix("rwatch ") == true)
    }

    @Test func watchAndEventsShareTheFilterFlags() throws {
        let parsed = try watch(["-e", "swift,.md", "-f", "Sources/**", "-i", "*.tmp", "--no-vcs-ignore", "--no-default-ignore", "make"])
        let options = parsed.files.watchOptions
        #expect(options.extensions == ["swift", "md"])
        #expect(options.include == ["Sources/**"])
        #expect(options.exclude == ["*.tmp"])
        #expect(!options.useVCSIgnore)
        #expect(!options.useDefaultIgnore)

        let events = try #require(try parse(["events", "-e", "swift", "-f", "*.c", "-i", "*.o", "--no-vcs-ignore", "."]) as? Events)
        #expect(events.files.watchOptions.extensions == ["swift"])
        #expect(events.files.watchOptions.include == ["*.c"])
        #expect(events.files.watchOptions.exclude == ["*.o"])
        #expect(!events.files.watchOptions.useVCSIgnore)
    }

    /// watchexec's switches for rule files, each down to the sources it
    /// turns off: (vcs, project, global, default) left on.
    @Test(arguments: [
        ([String](), [true, true, true, true]),
        (["--no-vcs-ignore"], [false, true, true, true]),
        (["--no-project-ignore"], [true, false, true, true]),
        (["--no-global-ignore"], [true, true, false, true]),
        (["--no-discover-ignore"], [false, false, false, true]),
        (["--no-default-ignore"], [true, true, true, false]),
        (["--ignore-nothing"], [false, false, false, false]),
    ])
    func ignoreSourceSwitchesLikeWatchexecs(flags: [String], on: [Bool]) throws {
        for arguments in [flags + ["make"], ["events"] + flags + ["."]] {
            let parsed = try parse(arguments)
            let options = try #require((parsed as? Watch)?.files.watchOptions ?? (parsed as? Events)?.files.watchOptions)
            #expect([options.useVCSIgnore, options.useProjectIgnore, options.useGlobalIgnore, options.useDefaultIgnore] == on, "\(arguments)")
        }
    }

    @Test func fsEventsAndNoMetaChooseTheKinds() throws {
        #expect(try watch(["make"]).files.watchOptions.kinds == WatchOptions.allKinds)
        #expect(try watch(["--fs-events", "create,delete", "make"]).files.watchOptions.kinds == [.created, .deleted, .overflow])
        #expect(try watch(["--fs-events", "modify", "--fs-events", "rename", "make"]).files.watchOptions.kinds
            == [.modified, .closedWrite, .movedFrom, .movedTo, .overflow])
        #expect(try watch(["--no-meta", "make"]).files.watchOptions.kinds == WatchOptions.allKinds.subtracting([.attributes]))
        #expect(failure(["--fs-events", "create,access", "make"]) == "--fs-events: unknown kind access (create, modify, delete, rename, attrib)")
    }

    @Test func aBadGlobOrAMissingPathIsAUsageError() {
        #expect(failure(["-f", "[", "make"])?.contains("[") == true)
        #expect(failure(["events", "-i", "["])?.contains("[") == true)
        #expect(failure(["-w", "/no/such/dir", "make"]) == "no such file or directory: /no/such/dir")
        #expect(failure(["events", "/no/such/dir"]) == "no such file or directory: /no/such/dir")
    }

    @Test func argumentParserMessagesAreLowerCasedLikeOurs() {
        #expect(RootCommand.lowercasingFirstWord("Unknown option '-x'") == "unknown option '-x'")
        #expect(RootCommand.lowercasingFirstWord("NO_COLOR wins") == "NO_COLOR wins")
    }
}
