import Glibc
import Testing
import TestSupport

/// `rwatch -r --build BUILD -- SERVER`: the build runs at start and on each
/// change while the old server keeps serving; only a build that passed
/// restarts the server; a change during a build restarts the build.
@Suite struct BuildGateTests {
    /// The build records its start and end in `builds`, whether a server
    /// was serving while it ran, waits for `release` while `slow` exists,
    /// and fails while `fail` exists. The server records its pid in `servers`.
    private static let build = """
        echo "start $$" >> builds
        if [ -s servers ] && kill -0 "$(tail -n 1 servers)" 2>/dev/null; then echo "serving during $$" >> builds; fi
        if [ -e slow ]; then while [ ! -e release ]; do sleep 0.01; done; fi
        if [ -e fail ]; then echo "fail $$" >> builds; exit 1; fi
        echo "ok $$" >> builds
        """
    private static let server = #"echo "$$" >> servers; exec sleep 1000"#

    private func lines(_ scratch: Scratch, _ name: String) -> [String] {
        scratch.read(name).split(separator: "\n").map(String.init)
    }

    @Test func onlyAPassingBuildRestartsTheServerWhichServesMeanwhile() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o755)
        scratch.write("build.sh", Self.build)
        scratch.write("server.sh", Self.server)
        let rwatch = RWatch(["-r", "-w", "src", "--build", "sh build.sh", "--", "sh", "server.sh"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let servers = { self.lines(scratch, "servers").compactMap { pid_t($0) } }
        let builds = { self.lines(scratch, "builds") }
        // At start: the build, then the server.
        #expect(eventually { servers().count == 1 }, "\(rwatch.stderr)")
        #expect(builds().first?.hasPrefix("start ") == true && builds().contains { $0.hasPrefix("ok ") })
        // A change: the build runs while the first server serves; it passes,
        // and the server is restarted.
        // (The watch was in place before the first build ran.)
        scratch.write("src/a", "a")
        #expect(eventually { servers().count == 2 }, "\(rwatch.stderr)")
        #expect(builds().contains { $0.hasPrefix("serving during ") }, "\(builds())")
        #expect(eventually { !isAlive(servers()[0]) })
        // A failing build leaves the second server up and says so in one line.
        scratch.write("fail", "")
        let failsBefore = builds().filter { $0.hasPrefix("fail ") }.count
        scratch.write("src/b", "b")
        #expect(eventually { builds().filter { $0.hasPrefix("fail ") }.count > failsBefore })
        #expect(eventually { rwatch.stderr.contains("sh server.sh keeps running: sh build.sh did not pass, so it was not restarted") }, "\(rwatch.stderr)")
        #expect(servers().count == 2 && isAlive(servers()[1]))
    }

    @Test func aChangeDuringTheBuildRestartsTheBuildNotTheServer() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o755)
        scratch.write("build.sh", Self.build)
        scratch.write("server.sh", Self.server)
        let rwatch = RWatch(["-r", "-w", "src", "--build", "sh build.sh", "--", "sh", "server.sh"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let servers = { self.lines(scratch, "servers").compactMap { pid_t($0) } }
        let starts = { self.lines(scratch, "builds").filter { $0.hasPrefix("start ") } }
        #expect(eventually { servers().count == 1 }, "\(rwatch.stderr)")
        scratch.write("slow", "")
        scratch.write("src/a", "a")
        #expect(eventually { starts().count == 2 }, "\(rwatch.stderr)")
        // The slow build waits; a change restarts it.
        scratch.write("src/b", "b")
        #expect(eventually { starts().count == 3 }, "\(rwatch.stderr)")
        let stopped = starts()[1].dropFirst("start ".count)
        #expect(servers().count == 1 && isAlive(servers()[0]))
        scratch.write("release", "")
        #expect(eventually { servers().count == 2 }, "\(rwatch.stderr)")
        // The stopped build never finished; the server was restarted once.
        #expect(!lines(scratch, "builds").contains("ok \(stopped)"))
        #expect(servers().count == 2)
    }

    @Test func aBuildThatFailsAtStartStartsNoServer() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o755)
        scratch.write("build.sh", Self.build)
        scratch.write("server.sh", Self.server)
        scratch.write("fail", "")
        let rwatch = RWatch(["-r", "-w", "src", "--build", "sh build.sh", "--", "sh", "server.sh"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("sh server.sh not started: sh build.sh did not pass; waiting for a change") }, "\(rwatch.stderr)")
        unlink(scratch.file("fail"))
        scratch.write("src/a", "a")
        #expect(eventually { !scratch.read("servers").isEmpty }, "\(rwatch.stderr)")
    }
}
