import Glibc
import Testing
import TestSupport

/// What rwatch does with symbolic links, on both backends: a link inside
/// the tree is reported as itself and never followed (so its target's
/// changes come once, under the target's own path, and a loop of links is
/// harmless); a watched path that is a link is followed, and its changes
/// are named under the link.
@Suite struct SymlinkTests {
    static let backends = [["--watch-backend", "inotify"], ["--poll=50ms"]]

    /// `rwatch events BACKEND PATH` in `scratch`, once it reports (a save
    /// of `probe` under `watched` came through).
    private func start(_ scratch: Scratch, _ backend: [String], watching path: String = "watched") -> RWatch {
        let rwatch = RWatch(["events"] + backend + [path], in: scratch.path, scratch: scratch)
        var attempt = 0
        _ = eventually {
            attempt += 1
            if attempt % 100 == 1 { scratch.write("watched/probe", "\(attempt)") }
            return rwatch.stdout.contains("probe")
        }
        return rwatch
    }

    /// Saves `watched/sentinel` and waits until it is reported: every
    /// change made before it has been seen by then.
    private func settle(_ rwatch: RWatch, _ scratch: Scratch) {
        scratch.write("watched/sentinel", "end")
        #expect(eventually { rwatch.stdout.contains("sentinel") }, "\(rwatch.stdout)")
    }

    @Test(arguments: backends)
    func aLinkToADirectoryInsideTheTreeIsItselfAndItsTargetIsReportedOnce(backend: [String]) {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o755)
        mkdir(scratch.file("watched/real"), 0o755)
        symlink("real", scratch.file("watched/link"))
        let rwatch = start(scratch, backend)
        defer { rwatch.interrupt() }
        scratch.write("watched/real/f", "x")
        symlink("real", scratch.file("watched/second"))
        settle(rwatch, scratch)
        let lines = rwatch.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix(" " + scratch.file("watched/real/f")) }, "\(rwatch.stdout)")
        #expect(lines.contains { $0.hasPrefix("created ") && $0.hasSuffix(" " + scratch.file("watched/second")) }, "\(rwatch.stdout)")
        #expect(!lines.contains { $0.contains("/link/") || $0.contains("/second/") }, "followed a link: \(rwatch.stdout)")
    }

    @Test(arguments: backends)
    func aLinkToADirectoryOutsideTheTreeIsNotFollowedUnlessWatchedByName(backend: [String]) {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o755)
        mkdir(scratch.file("outside"), 0o755)
        symlink(scratch.file("outside"), scratch.file("watched/out"))
        let tree = start(scratch, backend)
        defer { tree.interrupt() }
        scratch.write("outside/unseen", "x")
        settle(tree, scratch)
        #expect(!tree.stdout.contains("unseen"), "\(tree.stdout)")
        // Named as the path to watch, the link is followed; paths keep its name.
        let byName = RWatch(["events"] + backend + ["watched/out"], in: scratch.path, scratch: scratch)
        defer { byName.interrupt() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 100 == 1 { scratch.write("outside/seen", "\(attempt)") }
            return byName.stdout.contains(scratch.file("watched/out/seen"))
        }, "\(byName.stdout)")
    }

    @Test(arguments: backends)
    func loopsOfLinksAreHarmless(backend: [String]) {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o755)
        mkdir(scratch.file("watched/deep"), 0o755)
        symlink(".", scratch.file("watched/self"))
        symlink("b", scratch.file("watched/a"))
        symlink("a", scratch.file("watched/b"))
        symlink("../..", scratch.file("watched/deep/up"))
        let rwatch = start(scratch, backend)
        defer { rwatch.interrupt() }
        scratch.write("watched/deep/f", "x")
        symlink("deep", scratch.file("watched/deep/inner"))
        settle(rwatch, scratch)
        #expect(rwatch.stdout.contains(scratch.file("watched/deep/f")), "\(rwatch.stdout)")
        #expect(!rwatch.stdout.contains("/self/") && !rwatch.stdout.contains("/up/"), "\(rwatch.stdout)")
        #expect(rwatch.exitStatus() == nil, "\(rwatch.stderr)")
    }

    @Test func aWatchedPathThatIsALoopOfLinksIsOneLineAndExit2() {
        let scratch = Scratch()
        defer { scratch.remove() }
        symlink("loop", scratch.file("loop"))
        for arguments in [["-w", "loop", "--", "true"], ["events", "loop"]] {
            let result = RWatch.run(arguments, in: scratch.path, scratch: scratch)
            #expect(result.status == 2)
            #expect(result.stderr == "rwatch: error: loop is a loop of symbolic links (too many levels): nothing to watch there\n", "\(result.stderr)")
        }
    }
}
