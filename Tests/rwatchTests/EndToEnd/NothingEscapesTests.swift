import Glibc
import Testing
import TestSupport

/// What a run starts outside its process group (setsid, a double fork,
/// `nohup … &` under a shell with job control) is stopped with the run: on
/// restart, when the run ends, and on exit; rwatch exits only once it is
/// all gone. Each test runs twice: as rwatch finds this machine (a cgroup
/// per run, as root), and in a mount namespace without cgroup v2, where
/// rwatch follows the process tree and takes orphans as the subreaper.
@Suite struct NothingEscapesTests {
    /// Unmounts every cgroup v2 hierarchy in a new mount namespace, then
    /// becomes rwatch: no cgroup can be made there.
    static let withoutCgroups = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                                 #"for m in $(awk '$3 == "cgroup2" { print $2 }' /proc/mounts); do umount -l "$m" || exit 97; done; exec "$@""#,
                                 "no-cgroups"]

    /// Each run records its shell and the daemons it leaves, one per line:
    /// a setsid child, a double-forked setsid grandchild, and a job of a
    /// shell with job control (its own group), then waits.
    static let leaver = """
        setsid sleep 1000 & echo "$!" >> "$0"
        (setsid sleep 1000 & echo "$!" >> "$0")
        sh -mc 'nohup sleep 1000 >/dev/null 2>&1 & echo "$!" >> "$0"' "$0"
        echo "shell $$" >> "$0"
        """

    private func pids(_ scratch: Scratch) -> [pid_t] {
        scratch.read("pids").split(separator: "\n").compactMap { pid_t($0.split(separator: " ").last ?? "") }
    }

    private func runs(_ scratch: Scratch) -> Int {
        scratch.read("pids").split(separator: "\n").filter { $0.hasPrefix("shell ") }.count
    }

    @Test(arguments: [false, true])
    func aRestartAndTheExitStopEveryDaemonARunLeft(cgroupsRemoved: Bool) {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o755)
        let script = Self.leaver + "\nexec sleep 1000"
        let rwatch = RWatch(["-v", "-r", "-w", "src", "--", "sh", "-c", script, scratch.file("pids")], in: scratch.path,
                            wrapper: cgroupsRemoved ? Self.withoutCgroups : [], scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { runs(scratch) == 1 }, "\(rwatch.stderr)")
        #expect(rwatch.stderr.contains(cgroupsRemoved ? "followed through their process tree" : "a cgroup of its own"), "\(rwatch.stderr)")
        let first = pids(scratch)
        #expect(first.count == 4 && first.allSatisfy(isAlive), "\(first)")
        scratch.write("src/a", "a")
        #expect(eventually { runs(scratch) == 2 }, "\(rwatch.stderr)")
        // The second run started once everything of the first was gone.
        #expect(!first.contains(where: isAlive), "left running: \(first.filter(isAlive))")
        let second = pids(scratch).filter { !first.contains($0) }
        #expect(rwatch.interrupt() == 130)
        #expect(!second.contains(where: isAlive), "left after exit: \(second.filter(isAlive))")
    }

    @Test(arguments: [false, true])
    func aRunThatEndsOnItsOwnTakesItsDaemonsWithIt(cgroupsRemoved: Bool) {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o755)
        let rwatch = RWatch(["-w", "src", "--", "sh", "-c", Self.leaver, scratch.file("pids")], in: scratch.path,
                            wrapper: cgroupsRemoved ? Self.withoutCgroups : [], scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("✓ sh -c") }, "\(rwatch.stderr)")
        // The run is over only once what it left is gone.
        let left = pids(scratch)
        #expect(left.count == 4)
        #expect(!left.contains(where: isAlive), "left running: \(left.filter(isAlive))")
    }

    @Test func onceExitsOnlyWhenEveryDescendantIsGone() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = RWatch(["-1", "--", "sh", "-c", Self.leaver, scratch.file("pids")], in: scratch.path, scratch: scratch)
        #expect(rwatch.waitForExit() == 0, "\(rwatch.stderr)")
        let left = pids(scratch)
        #expect(left.count == 4 && !left.contains(where: isAlive), "left running: \(left.filter(isAlive))")
    }
}
