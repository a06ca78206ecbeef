import Glibc
import RecipeKit
@testable import rwatch
import Testing
import TestSupport

@Suite struct RecipeHostMachineTests {
    @Test func aRecipeThatEndsGivesItsStatusAfterTheSweep() {
        var machine = RecipeHostMachine(running: 10)
        #expect(machine.childExited(.exited(3)) == [.sweep, .exit(3)])
        #expect(machine.phase == .finished)
    }

    @Test func aCrashIsReportedSweptAndExits2() {
        var machine = RecipeHostMachine(running: 10)
        #expect(machine.childExited(.signaled(SIGILL)) == [.reportDeath(SIGILL), .sweep, .exit(2)])
    }

    @Test func aSignalFromTheTerminalIsNotPassedOnTwice() {
        var fromTerminal = RecipeHostMachine(running: 10)
        #expect(fromTerminal.stopSignal(SIGINT, fromTerminal: true) == [])
        var fromKill = RecipeHostMachine(running: 10)
        #expect(fromKill.stopSignal(SIGTERM, fromTerminal: false) == [.send(10, SIGTERM)])
        #expect(fromKill.childExited(.exited(143)) == [.sweep, .exit(143)])
    }

    @Test func aSecondStopSignalKillsTheRecipe() {
        var machine = RecipeHostMachine(running: 10)
        _ = machine.stopSignal(SIGINT, fromTerminal: true)
        #expect(machine.stopSignal(SIGINT, fromTerminal: true) == [.kill(10)])
        #expect(machine.childExited(.signaled(SIGKILL)) == [.sweep, .exit(130)])
    }

    /// The old child is stopped (SIGTERM, and SIGKILL after its stop
    /// timeout: its `ProcessGroup` keeps that deadline), then the latest
    /// binary starts.
    @Test func aSwapStopsTheOldChildThenStartsTheLatestBinary() {
        var machine = RecipeHostMachine(running: 10)
        #expect(machine.compiled("/cache/a/recipe") == [.stop(10)])
        // A newer edit compiled meanwhile wins.
        #expect(machine.compiled("/cache/b/recipe") == [])
        #expect(machine.childExited(.signaled(SIGKILL)) == [.sweep, .start("/cache/b/recipe")])
        #expect(machine.child == nil)
        machine.started(11)
        #expect(machine.phase == .running(11))
        #expect(machine.childExited(.exited(0)) == [.sweep, .exit(0)])
    }

    @Test func aStopSignalDuringASwapStopsInstead() {
        var machine = RecipeHostMachine(running: 10)
        _ = machine.compiled("/cache/a/recipe")
        #expect(machine.stopSignal(SIGHUP, fromTerminal: false) == [.send(10, SIGHUP)])
        #expect(machine.childExited(.exited(143)) == [.sweep, .exit(129)])
    }

    @Test func aBinaryThatCannotStartEndsWith2() {
        var machine = RecipeHostMachine(running: 10)
        _ = machine.compiled("/cache/a/recipe")
        _ = machine.childExited(.exited(143))
        #expect(machine.startFailed() == [.exit(2)])
    }
}

@Suite struct CrashReportTests {
    // What the Swift 6 runtime and its backtracer write, shortened.
    private let fatalError = """
        RecipeBinary/crash.swift:4: Fatal error: boom

        *** Signal 4: Backtracing from 0x7fe4118f9361... done ***

        *** Program crashed: Illegal instruction at 0x00007fe4118f9361 ***

        Thread 0 "recipe" crashed:

          0              0x00007fe4118f9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so
          1 [ra]         0x0000564e70af54d2 closure #1 in closure #1 in variable initialization expression of recipe + 129 in recipe at /home/me/proj/crash.swift:4:5
          2 [ra]         0x00007fe411214d4d closure #1 in closure #1 in Signal.map<A>(_:) + 428 in libRecipeKit.so at /src/Map.swift:12:58

        """

    private let indexOutOfRange = """
        Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range
        swift-runtime: failed to suspend thread 21607 while processing a crash; backtraces will be missing information

        *** Signal 4: Backtracing from 0x7fa74736df7f... done ***

        Thread 0 "idx" crashed:

          0              0x00007fa74736df7f closure #1 in closure #1 in _assertionFailure(_:_:file:line:flags:) + 623 in libswiftCore.so
          2 [ra]         0x00007fa747a49f65 specialized Array.subscript.getter + 84 in libswiftSwiftOnoneSupport.so
          3 [ra]         0x0000557f29001482 closure #1 in closure #1 in variable initialization expression of recipe + 145 in idx at /tmp/at dir/idx.swift:7:59
          4 [ra]         0x0000557f29001482 main + 51 in idx at /tmp/at dir/idx.swift:9:1

        """

    @Test func aFatalErrorNamesItsMessageAndTheRecipesLine() {
        let report = CrashReport(output: fatalError, recipeFile: "/home/me/proj/crash.swift", signal: SIGILL)
        #expect(report.summary == "Fatal error: boom (crash.swift:4)")
    }

    @Test func aTrapInTheStandardLibraryNamesTheRecipesNearestFrame() {
        let report = CrashReport(output: indexOutOfRange, recipeFile: "/tmp/at dir/idx.swift", signal: SIGILL)
        #expect(report.summary == "Fatal error: Index out of range (idx.swift:7)")
    }

    @Test func withoutFramesTheMessagesOwnPlaceServesWhenItIsTheRecipe() {
        let report = CrashReport(output: "RecipeBinary/crash.swift:9: Precondition failed: x > 0\n", recipeFile: "/p/crash.swift", signal: SIGTRAP)
        #expect(report.summary == "Precondition failed: x > 0 (crash.swift:9)")
        let elsewhere = CrashReport(output: "Swift/Array.swift:9: Fatal error: nope\n", recipeFile: "/p/crash.swift", signal: SIGILL)
        #expect(elsewhere.summary == "Fatal error: nope")
    }

    @Test func withoutAMessageTheBacktracerOrTheSignalSaysWhat() {
        let segfault = "*** Program crashed: Bad pointer dereference at 0x0000000000000008 ***\n"
        #expect(CrashReport(output: segfault, recipeFile: "/p/r.swift", signal: SIGSEGV).summary == "Bad pointer dereference")
        #expect(CrashReport(output: "", recipeFile: "/p/r.swift", signal: SIGILL).summary == "Illegal instruction")
    }

    @Test func controlCharactersInTheMessageAreEscaped() {
        let report = CrashReport(output: "Fatal error: \u{1B}[2Jgone\n", recipeFile: "/p/r.swift", signal: SIGILL)
        #expect(report.summary == "Fatal error: \\x1b[2Jgone")
    }
}

@Suite struct CrashOutputFilterTests {
    @Test func linesPassUntilACrashReportStartsThenAreHeld() {
        var filter = CrashOutputFilter(verbose: false)
        #expect(filter.receive(Array("hello\npart".utf8)) == Array("hello\n".utf8))
        #expect(filter.receive(Array("ial\nRecipeBinary/r.swift:1: Fatal error: x\nmore\n".utf8)) == Array("partial\n".utf8))
        #expect(filter.report() == "RecipeBinary/r.swift:1: Fatal error: x\nmore\n")
    }

    @Test func heldLinesAreReleasedWhenTheRecipeExitsNormally() {
        var filter = CrashOutputFilter(verbose: false)
        #expect(filter.receive(Array("Fatal error: just a line\nnext".utf8)) == [])
        #expect(filter.release() == Array("Fatal error: just a line\nnext".utf8))
    }

    @Test func verbosePassesEverythingAndStillReports() {
        var filter = CrashOutputFilter(verbose: true)
        let text = Array("a\nFatal error: x\nThread 0 crashed:\n".utf8)
        #expect(filter.receive(text) == text)
        #expect(filter.report() == "Fatal error: x\nThread 0 crashed:\n")
        #expect(filter.release() == [])
    }
}

@Suite struct ProjectRecipeUnitTests {
    @Test func theNearestRecipeAboveIsFoundAndOnlyARegularFile() {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        mkdir(scratch.file("a"), 0o755)
        mkdir(scratch.file("a/b"), 0o755)
        mkdir(scratch.file("a/b/rwatch.swift"), 0o755)   // a directory: skipped
        scratch.write("rwatch.swift", "x")
        #expect(ProjectRecipe.find(from: scratch.file("a/b")) == scratch.file("rwatch.swift"))
        scratch.write("a/rwatch.swift", "y")
        #expect(ProjectRecipe.find(from: scratch.file("a/b")) == scratch.file("a/rwatch.swift"))
    }

    @Test func recipeNamesAreSafeInsideAStringLiteral() {
        #expect(StarterRecipe.recipeName("my-app_2.0") == "my-app_2.0")
        #expect(StarterRecipe.recipeName("we\"ird\\ name") == "weirdname")
        #expect(StarterRecipe.recipeName("日本") == "project")
        #expect(StarterRecipe.recipeName(".hidden") == "project")
    }
}
