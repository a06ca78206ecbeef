import Glibc
import Testing
import TestSupport

/// `rwatch test`: a recipe's tests compiled with it against RecipeTesting
/// and run on virtual time, through the real binary.
@Suite struct RecipeTestCommandTests {
    /// Each bundled recipe's own tests (recipes/NAME.tests.swift) pass.
    @Test(arguments: ["rebuild-on-save", "dev-server", "chain", "tail-errors"])
    func theBundledRecipesTestsPass(_ name: String) {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["test", name], in: scratch.path, scratch: scratch)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // Swift Testing reports on standard error.
        #expect(result.stderr.contains("passed"))
        #expect(!result.stderr.contains("failed"))
    }

    @Test func aFailingTestExitsOneAndNamesItAndOptionsReachTheRunner() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("mine.swift", """
            import RecipeKit
            let recipe = Recipe("mine", "builds") {
                FileWatcher.watch(["."]).batched(.milliseconds(50)).run(["make"])
            }
            """)
        scratch.write("mine.tests.swift", """
            import RecipeTesting
            import Testing
            @Test func aSaveBuilds() {
                let run = RecipeTest(recipe, files: ["a.c": ""])
                run.save("a.c", "int x;", at: .seconds(1))
                run.advance(to: .seconds(2))
                #expect(run.started == [.run(["make"], at: .milliseconds(1_050))])
            }
            @Test func aSaveBuildsTwice() {
                let run = RecipeTest(recipe, files: ["a.c": ""])
                run.save("a.c", "int x;", at: .seconds(1))
                run.advance(to: .seconds(2))
                #expect(run.started.count == 2)
            }
            """)
        let failing = RWatch.run(["test", "./mine.swift"], in: scratch.path, scratch: scratch)
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(failing.stderr.contains("aSaveBuildsTwice()") && failing.stderr.contains("failed"))
        let skipping = RWatch.run(["test", "./mine.swift", "--", "--skip", "Twice"], in: scratch.path, scratch: scratch)
        #expect(skipping.status == 0, "\(skipping.stdout)\(skipping.stderr)")
        #expect(!skipping.stderr.contains("aSaveBuildsTwice"))
    }

    @Test func testsThatDoNotCompileExitTwoNamingTheirFileAndLine() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("rwatch.swift", "import RecipeKit\nlet recipe = Recipe(\"r\") { Timer.interval(.seconds(1)) }\n")
        scratch.write("rwatch.tests.swift", "import RecipeTesting\nimport Testing\n@Test func a() { let x: Int = \"no\" }\n")
        let result = RWatch.run(["test"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("rwatch.tests.swift:3:"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("rwatch: error: \(scratch.file("rwatch.tests.swift")) with \(scratch.file("rwatch.swift")) "
            + "does not compile (see the compiler's messages above)\n"), "\(result.stderr)")
    }

    @Test func aRecipeWithoutTestsIsOneLineAndExitTwo() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("lonely.swift", "import RecipeKit\nlet recipe = Recipe(\"lonely\") { Timer.interval(.seconds(1)) }\n")
        let result = RWatch.run(["test", "./lonely.swift"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr == "rwatch: error: no tests for \(scratch.file("lonely.swift")): write them in \(scratch.file("lonely.tests.swift")) (rwatch init writes an example)\n")
    }
}
