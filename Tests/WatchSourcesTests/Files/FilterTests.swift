import Glibc
import Testing
@testable import WatchSources
import TestSupport

/// Filters on real trees: what is reported, and what is not even watched.
@Suite struct FilterTests {
    @Test(arguments: Backend.allCases) func gitignoreRulesHideFilesAndIgnoredDirectoriesAreNotWatched(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at(".gitignore"), "*.log\n!important.log\nbuild/\n/anchored.txt\n")
        Disk.makeDirectories(dir.at("build/out"))
        Disk.makeDirectories(dir.at("src/nested"))
        Disk.write(dir.at("src/.ignore"), "*.gen\n")
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        #expect(!watching(dir.at("build"), backend) && !watching(dir.at("build/out"), backend))
        #expect(watching(dir.at("src/nested"), backend))
        Disk.write(dir.at("debug.log"))
        Disk.write(dir.at("important.log"))
        Disk.write(dir.at("build/out/artifact.o"))
        Disk.write(dir.at("anchored.txt"))
        Disk.write(dir.at("src/anchored.txt"))
        Disk.write(dir.at("src/nested/code.gen"))
        Disk.write(dir.at("code.gen"))
        #expect(settle(recorder, in: dir.path, backend: backend))
        let paths = Set(recorder.snapshot.map(\.path.string))
        #expect(paths.contains(dir.at("important.log")))
        #expect(paths.contains(dir.at("src/anchored.txt")))
        #expect(paths.contains(dir.at("code.gen")))
        #expect(!paths.contains(dir.at("debug.log")))
        #expect(!paths.contains(dir.at("anchored.txt")))
        #expect(!paths.contains(dir.at("src/nested/code.gen")))
        #expect(!paths.contains { $0.hasPrefix(dir.at("build")) })
    }

    @Test(arguments: Backend.allCases) func defaultIgnoreSkipsVCSDirectoriesWithoutWatchingThem(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at(".git/objects/ab"))
        Disk.makeDirectories(dir.at(".build/debug"))
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        #expect(!watching(dir.at(".git/objects"), backend) && !watching(dir.at(".build/debug"), backend))
        Disk.write(dir.at(".git/index"))
        Disk.write(dir.at("file.swift.swp"))
        #expect(settle(recorder, in: dir.path, backend: backend))
        #expect(recorder.snapshot.allSatisfy { $0.path.string.hasSuffix("zz-marker") })
    }

    @Test(arguments: Backend.allCases) func includeExcludeAndExtensionsApplyToEvents(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at("Sources/App"))
        Disk.makeDirectories(dir.at("Sources/Generated"))
        let options = WatchOptions(include: ["Sources/**/*.swift", "zz-marker"], exclude: ["Sources/Generated"])
        let (recorder, subscription) = record([dir.path], options: options, backend: backend)
        defer { subscription.dispose() }
        #expect(!watching(dir.at("Sources/Generated"), backend))
        Disk.write(dir.at("Sources/App/main.swift"))
        Disk.write(dir.at("Sources/App/notes.txt"))
        Disk.write(dir.at("top.swift"))
        Disk.write(dir.at("Sources/Generated/gen.swift"))
        #expect(settle(recorder, in: dir.path, backend: backend))
        let paths = Set(recorder.snapshot.map(\.path.string))
        #expect(paths == [dir.at("Sources/App/main.swift"), dir.at("zz-marker")])
    }

    @Test(arguments: Backend.allCases) func extensionListReportsOnlyThoseFiles(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let (recorder, subscription) = record([dir.path], options: WatchOptions(extensions: ["md", "swift"]), backend: backend)
        defer { subscription.dispose() }
        Disk.write(dir.at("a.md"))
        Disk.write(dir.at("b.txt"))
        Disk.makeDirectories(dir.at("d.md"))
        Disk.write(dir.at("c.swift"))
        #expect(eventually { recorder.hasWrite(dir.at("c.swift"), backend) })
        let paths = Set(recorder.snapshot.map(\.path.string))
        #expect(paths == [dir.at("a.md"), dir.at("c.swift")])
    }

    @Test(arguments: Backend.allCases) func aGitignoreWrittenAfterStartTakesEffect(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at("sub"))
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        Disk.write(dir.at("sub/.gitignore"), "*.cache\n")
        Disk.write(dir.at("sub/x.cache"))
        Disk.write(dir.at("x.cache"))
        #expect(settle(recorder, in: dir.path, backend: backend))
        #expect(recorder.hasWrite(dir.at("x.cache"), backend))
        #expect(!recorder.snapshot.contains { $0.path.string == dir.at("sub/x.cache") })
    }

    @Test(arguments: Backend.allCases) func vcsIgnoreCanBeTurnedOff(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at(".gitignore"), "*.log\n")
        let (recorder, subscription) = record([dir.path], options: WatchOptions(useVCSIgnore: false), backend: backend)
        defer { subscription.dispose() }
        Disk.write(dir.at("a.log"))
        #expect(eventually { recorder.hasWrite(dir.at("a.log"), backend) })
    }

    @Test(arguments: Backend.allCases) func oddFileNamesArriveIntact(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        let names = ["with space.txt", "new\nline.txt", "$(touch pwned).txt", "ünï©ødé.txt", "-dash"]
        for name in names { Disk.write(dir.at(name)) }
        for name in names {
            #expect(eventually { recorder.hasWrite(dir.at(name), backend) })
        }
        #expect(access(dir.at("pwned"), F_OK) != 0)
    }
}
