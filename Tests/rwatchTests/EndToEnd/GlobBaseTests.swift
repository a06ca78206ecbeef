import Glibc
import Testing
import TestSupport

/// Globs written the way watchexec users type them, through the real
/// binary: `./build/**` (relative to the watched path, like `/build/**`),
/// an absolute path naming something under the watched path (`$PWD/build`),
/// and an absolute path that lies outside every watched path (one warning).
@Suite struct GlobBaseTests {
    /// Runs `rwatch events arguments…` in a scratch directory holding
    /// `build/` and `src/`, saving `kept` and each of `dropped` (relative to
    /// it) until `kept` is reported; returns the paths reported (relative)
    /// and rwatch's stderr.
    private func reported(_ arguments: (Scratch) -> [String], kept: String, dropped: [String],
                          directories: [String] = ["build", "src", "other"]) -> (paths: Set<String>, seen: Bool, stderr: String) {
        let scratch = Scratch()
        defer { scratch.remove() }
        for directory in directories { mkdir(scratch.file(directory), 0o700) }
        let rwatch = RWatch(["events"] + arguments(scratch), in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        func paths() -> Set<String> {
            Set(rwatch.stdout.split(separator: "\n").compactMap { line in
                line.split(separator: " ", maxSplits: 1).last.map { String($0.dropFirst(scratch.path.count + 1)) }
            })
        }
        var attempt = 0
        let seen = eventually {
            attempt += 1
            if attempt % 40 == 1 {
                // The dropped ones first: once `kept` is seen, they were read before it.
                for path in dropped { scratch.write(path, "\(attempt)") }
                scratch.write(kept, "\(attempt)")
            }
            return paths().contains(kept)
        }
        return (paths(), seen, rwatch.stderr)
    }

    @Test func aDotSlashIgnoreGlobIsRelativeToTheWatchedPath() {
        let result = reported({ _ in ["-i", "./build/**"] }, kept: "src/a.c", dropped: ["build/x.o"])
        #expect(result.seen, "\(result)")
        #expect(!result.paths.contains("build/x.o"), "\(result.paths)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    @Test func anAbsoluteIgnoreGlobUnderTheWatchedPathMatches() {
        let result = reported({ ["-i", $0.file("build")] }, kept: "src/a.c", dropped: ["build/x.o", "build/deep.o"])
        #expect(result.seen, "\(result)")
        #expect(result.paths.allSatisfy { !$0.hasPrefix("build") }, "\(result.paths)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    @Test func aDotSlashFilterGlobIsRelativeToTheWatchedPath() {
        let result = reported({ _ in ["-f", "./src/**"] }, kept: "src/a.c", dropped: ["other/b.c", "build/x.o", "top.c"])
        #expect(result.seen, "\(result)")
        #expect(result.paths == ["src/a.c"], "\(result.paths)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    @Test func ignoreAndFilterFileLinesTakeTheSameForms() {
        let result = reported({ scratch in
            scratch.write("ignores", "./build/**\n\(scratch.file("other"))/\n")
            scratch.write("filters", "./src/**\n\(scratch.file("other"))/**\n\(scratch.file("build"))/**\n")
            return ["--ignore-file", "ignores", "--filter-file", "filters"]
        }, kept: "src/a.c", dropped: ["other/b.c", "build/x.o", "top.c"])
        #expect(result.seen, "\(result)")
        #expect(result.paths == ["src/a.c"], "\(result.paths)")
    }

    @Test func anAbsoluteGlobAcrossSeveralWatchedPathsMatchesInEach() {
        // `$PWD/**/*.o` watching src and build: absolute paths below either.
        let result = reported({ ["-i", $0.path + "/**/*.o", "src", "build"] },
                              kept: "build/keep.c", dropped: ["src/a.o", "build/b.o"])
        #expect(result.seen, "\(result)")
        #expect(result.paths == ["build/keep.c"], "\(result.paths)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    @Test func anAbsoluteGlobOutsideEveryWatchedPathIsOneWarning() {
        // Watching src only: build is outside it.
        let result = reported({ ["-i", $0.file("build") + "/**", "src"] }, kept: "src/a.c", dropped: [])
        #expect(result.seen, "\(result)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.contains("/build/**") == true, "\(result.stderr)")
    }
}
