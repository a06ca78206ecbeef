import Glibc
import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// A path given to watch is watched even when a rule ignores it: the user
/// named it. The rules still apply to what is below it, each by its own
/// name, on every backend.
@Suite struct NamedRootTests {
    @Test(arguments: Backend.allCases) func anIgnoredDirectoryGivenToWatchIsWatched(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write(".gitignore", "build/\n*.o\n")
        repo.makeDirectories(repo.top + "/build/out/deep")
        let build = repo.top + "/build"
        let (recorder, subscription) = record([build], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        #expect(watching(build + "/out/deep", backend))
        Disk.write(build + "/out/deep/report.txt")
        Disk.write(build + "/main.o")
        #expect(settle(recorder, in: build, backend: backend))
        #expect(recorder.hasWrite(build + "/out/deep/report.txt", backend))
        // Below the named path, each name still meets the rules.
        #expect(!recorder.snapshot.contains { $0.path.string.hasSuffix(".o") }, "\(recorder.snapshot)")
    }

    /// Inside an ignored directory, and a default ignore, the same.
    @Test(arguments: Backend.allCases) func aDirectoryInsideAnIgnoredOneGivenToWatchIsWatched(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write(".gitignore", "node_modules/\n")
        repo.makeDirectories(repo.top + "/node_modules/pkg/lib")
        repo.makeDirectories(repo.top + "/.build/debug")
        for root in [repo.top + "/node_modules/pkg", repo.top + "/.build"] {
            let (recorder, subscription) = record([root], options: repo.options(), backend: backend)
            defer { subscription.dispose() }
            Disk.write(root + "/changed.js")
            #expect(settle(recorder, in: root, backend: backend))
            #expect(recorder.hasWrite(root + "/changed.js", backend), "\(root): \(recorder.snapshot)")
        }
    }

    @Test(arguments: Backend.allCases) func anIgnoredFileGivenToWatchIsWatched(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write(".gitignore", "*.log\n")
        repo.write("logs/app.log", "start\n")
        let log = repo.top + "/logs/app.log"
        let (recorder, subscription) = record([log], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 50 == 1 { Disk.append(log, "line \(attempt)\n") }
            return recorder.hasWrite(log, backend)
        })
        #expect(FileWatcher.whyIgnored(log, watching: log) == nil)
    }
}
