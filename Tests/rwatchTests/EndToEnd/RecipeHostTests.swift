import Glibc
import Testing
import TestSupport

/// A recipe run as rwatch's child (`rwatch run`): what it inherits.
@Suite struct RecipeHostTests {
    /// An inherited variable whose value is not UTF-8 reaches the recipe,
    /// and so its commands, byte for byte (not as U+FFFD).
    @Test func anEnvironmentValueThatIsNotUTF8ReachesTheRecipeIntact() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("env.swift", """
            import RecipeKit

            let recipe = Recipe("env", "writes a variable") {
                Signal.just(ChangeBatch([])).run(["sh", "-c", "printf %s \\"$RWATCH_TEST_BYTES\\" > value"], options: RunOptions(statusLines: false))
            }

            """)
        let value: [UInt8] = [0x61, 0xFF, 0xFE, 0x0A, 0xC3, 0x28, 0x62]
        let rwatch = RWatch(bytes: [Array("run".utf8), Array("env.swift".utf8)], in: scratch.path,
                            environmentBytes: ["RWATCH_TEST_BYTES": value], scratch: scratch)
        let status = rwatch.waitForExit(.seconds(120))
        if status == nil { rwatch.interrupt() }
        #expect(status == 0, "\(rwatch.stderr)")
        #expect(Scratch.readBytes(scratch.file("value")) == value)
    }
}
