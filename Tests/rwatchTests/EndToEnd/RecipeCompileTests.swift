import Glibc
import Testing

@Suite(.serialized) struct RecipeCompileTests {
    @Test func aBrokenRecipeExits2WithItsOwnFileAndLine() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("broken.swift", """
            import RecipeKit

            let recipe = Recipe("broken", "does not compile") {
                FileWatcher.watch(["."]).runn(["true"])
            }

            """)
        let result = RWatch.run(["run", "broken.swift"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains(scratch.file("broken.swift") + ":4:"))
        #expect(result.stderr.contains("does not compile"))
    }

    @Test func theCacheIsPrivateAndAWarmRunDoesNotRecompile() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let cacheHome = scratch.file("cache")
        let marker = "once-\(UInt32.random(in: 0...UInt32.max))"
        scratch.write("once.swift", """
            import RecipeKit

            // \(marker)
            let recipe = Recipe("once", "runs one command and ends") {
                Signal.just(ChangeBatch([])).run(["sh", "-c", "echo ran >> ran.log"])
            }

            """)
        let cold = RWatch.run(["run", "once.swift"], in: scratch.path, environment: ["XDG_CACHE_HOME": cacheHome], scratch: scratch)
        #expect(cold.status == 0)
        #expect(cold.stderr.contains("compiling recipe"))
        var info = stat()
        #expect(stat(cacheHome + "/rwatch", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)

        let warm = RWatch.run(["run", "once.swift"], in: scratch.path, environment: ["XDG_CACHE_HOME": cacheHome], scratch: scratch)
        #expect(warm.status == 0)
        #expect(!warm.stderr.contains("compiling recipe"))
        #expect(scratch.read("ran.log") == "ran\nran\n")
    }

    @Test func aCacheDirectoryWritableByOthersIsRefused() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("cache"), 0o700)
        mkdir(scratch.file("cache/rwatch"), 0o700)
        chmod(scratch.file("cache/rwatch"), 0o777)
        scratch.write("r.swift", "import RecipeKit\nlet recipe = Recipe(\"r\", \"r\") { Signal<Int>.empty() }\n")
        let result = RWatch.run(["check", "r.swift"], in: scratch.path, environment: ["XDG_CACHE_HOME": scratch.file("cache")], scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("refusing cache directory"))
    }

    @Test func checkCompilesEveryBundledRecipe() {
        let scratch = Scratch()
        defer { scratch.remove() }
        for name in ["rebuild-on-save", "chain", "dev-server", "tail-errors"] {
            let result = RWatch.run(["check", name], in: scratch.path, scratch: scratch)
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
        let list = RWatch.run(["recipes"], in: scratch.path, scratch: scratch)
        #expect(list.status == 0)
        #expect(list.stdout.contains("rebuild-on-save"))
        #expect(list.stdout.contains("swift build on every save"))
    }
}
