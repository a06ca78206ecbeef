import Glibc
import Testing
import TestSupport

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

    /// `swiftc --version` leaves a `TemporaryDirectory.XXXXXX` behind in
    /// `$TMPDIR` (the driver execs the frontend): one per rwatch that compiled.
    @Test func compilingARecipeLeavesNothingInTheTemporaryDirectory() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("tmp"), 0o700)
        scratch.write("r.swift", "import RecipeKit\nlet recipe = Recipe(\"r\", \"r\") { Signal<Int>.empty() }\n")
        let result = RWatch.run(["check", "r.swift"], in: scratch.path,
                                environment: ["TMPDIR": scratch.file("tmp"), "XDG_CACHE_HOME": scratch.file("cache")], scratch: scratch)
        #expect(result.status == 0)
        #expect(result.stderr.contains("compiling recipe"))
        var left: [String] = []
        if let directory = opendir(scratch.file("tmp")) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { left.append(name) }
            }
            closedir(directory)
        }
        #expect(left.isEmpty, "left in TMPDIR: \(left)")
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

    @Test func aCacheDirectoryOthersCanReadIsMadePrivate() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("cache"), 0o700)
        mkdir(scratch.file("cache/rwatch"), 0o700)
        chmod(scratch.file("cache/rwatch"), 0o755)
        scratch.write("r.swift", "import RecipeKit\nlet recipe = Recipe(\"r\", \"r\") { Signal<Int>.empty() }\n")
        let result = RWatch.run(["check", "r.swift"], in: scratch.path, environment: ["XDG_CACHE_HOME": scratch.file("cache")], scratch: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(stat(scratch.file("cache/rwatch"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    /// The binary cached under a text's hash is that text's, even when the
    /// file is saved again while the compiler runs: a compiler that rewrites
    /// the recipe before compiling provokes it every time.
    @Test func aSaveDuringTheCompileDoesNotPutItsBinaryUnderTheOldText() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let cache = ["XDG_CACHE_HOME": scratch.file("cache")]
        let mark = "\(UInt32.random(in: 0...UInt32.max))"
        let text = { (letter: String) in
            """
            import RecipeKit

            // \(mark)
            let recipe = Recipe("once", "writes its letter and ends") {
                Signal.just(ChangeBatch([])).run(["sh", "-c", "echo \(letter) > letter.txt"])
            }

            """
        }
        scratch.write("once.swift", text("A"))
        scratch.write("B.swift", text("B"))
        scratch.write("swiftc", """
            #!/bin/sh
            # A save of the recipe lands as the compile starts.
            case " $* " in *" -o "*) cat '\(scratch.file("B.swift"))' > '\(scratch.file("once.swift"))' ;; esac
            exec "$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)" "$@"

            """)
        chmod(scratch.file("swiftc"), 0o755)
        let compiled = RWatch.run(["check", "once.swift"], in: scratch.path,
                                  environment: cache.merging(["SWIFTC": scratch.file("swiftc")]) { $1 }, scratch: scratch)
        #expect(compiled.status == 0, "\(compiled.stderr)")
        #expect(scratch.read("once.swift") == text("B"))

        // Back to text A: the binary cached for A must do what A says.
        scratch.write("once.swift", text("A"))
        let run = RWatch.run(["run", "once.swift"], in: scratch.path, environment: cache, scratch: scratch)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("compiling recipe"), "\(run.stderr)")
        #expect(scratch.read("letter.txt") == "A\n")
    }

    @Test func aRecipeThatIsAFIFOIsRefusedNotBlockedOn() {
        let scratch = Scratch()
        defer { scratch.remove() }
        #expect(mkfifo(scratch.file("fifo.swift"), 0o600) == 0)
        for command in [["run", "fifo.swift"], ["check", "fifo.swift"]] {
            let rwatch = RWatch(command, in: scratch.path, scratch: scratch)
            let status = rwatch.waitForExit()
            if status == nil { rwatch.interrupt() }
            #expect(status == 2, "\(command): \(rwatch.stderr)")
            #expect(rwatch.stderr.contains("it is a FIFO, not a regular file"), "\(rwatch.stderr)")
        }
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

/// A stop signal while rwatch compiles a recipe (before the recipe runs):
/// what the stop interrupts is not an error of its own; rwatch exits 128+N.
@Suite struct CompileStopTests {
    /// The signal comes while rwatch asks the compiler its version (for the
    /// cache key); the compile after it is refused as rwatch is ending. That
    /// refusal raced the signal owner's exit (2 and an error line instead of
    /// 143 when the main thread won, seen under load); this checks the
    /// outcome end to end. `ProcessSupervisorTests.anExitAskedForWhile
    /// EndingKeepsTheSignalsStatus` forces the losing order.
    @Test func sigtermBeforeTheCompileStartsExits143WithoutAnError() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("swiftc", """
            #!/bin/sh
            case "$1" in --version) echo asked > '\(scratch.file("asked"))'; exec sleep 300 ;; esac
            exec "$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)" "$@"

            """)
        chmod(scratch.file("swiftc"), 0o755)
        scratch.write("r.swift", "import RecipeKit\nlet recipe = Recipe(\"r\", \"r\") { Signal<Int>.empty() }\n")
        for command in [["run", "r.swift"], ["check", "r.swift"]] {
            unlink(scratch.file("asked"))
            let rwatch = RWatch(command, in: scratch.path, environment: [
                "SWIFTC": scratch.file("swiftc"), "XDG_CACHE_HOME": scratch.file("cache"),
            ], scratch: scratch)
            #expect(eventually(.seconds(60)) { access(scratch.file("asked"), F_OK) == 0 })
            kill(rwatch.pid, SIGTERM)
            let status = rwatch.waitForExit(.seconds(30))
            if status == nil { rwatch.interrupt() }
            #expect(status == 143, "\(command): \(rwatch.stderr)")
            #expect(!rwatch.stderr.contains("error"), "\(command): \(rwatch.stderr)")
        }
    }
}
