import Glibc
import Testing
import TestSupport

/// rwatch's own watches beside a running `rwatch serve`: the service holds
/// the inotify watches for every client of a root, each rwatch applies its
/// own rules to what the service reports, and when the service goes away
/// each goes on by itself without losing a change.
@Suite struct ServiceSharingTests {
    /// A watch-mode rwatch in `root` that appends each run's paths to `record`.
    private func watcher(_ served: ServedRoot, record: String, extra: [String] = []) -> RWatch {
        RWatch(["-v", "-d", "0"] + extra + ["--", "sh", "-c", "[ -n \"$RWATCH_PATHS\" ] && echo \"$RWATCH_PATHS\" >> \"$0\"; true", record],
               in: served.root, environment: ["WATCHMAN_SOCK": served.sock], scratch: served.scratch)
    }

    /// How many times each line appears in the file at `path`.
    private func lines(_ path: String) -> [String: Int] {
        Scratch.read(path).split(separator: "\n").reduce(into: [:]) { $0[String($1), default: 0] += 1 }
    }

    @Test func twoWatchesAndARecipeBesideOneServiceHoldNoWatchOfTheirOwn() {
        let served = ServedRoot()
        defer { _ = served.stop() }
        let first = watcher(served, record: served.scratch.file("first"))
        defer { first.interrupt() }
        let second = watcher(served, record: served.scratch.file("second"))
        defer { second.interrupt() }
        let chain = served.scratch.file("chain")
        let recipe = RWatch(["run", "chain", "."], in: served.root, environment: [
            "WATCHMAN_SOCK": served.sock, "LINT": "echo \"$RWATCH_PATHS\" >> \(chain)", "BUILD": "true", "TEST": "true",
        ], scratch: served.scratch)
        defer { recipe.interrupt() }
        for rwatch in [first, second] {
            #expect(eventually { rwatch.stderr.contains("through the service at") }, "\(rwatch.stderr)")
        }
        // The recipe is compiled first: write until its watch has seen a change.
        var attempt = 0
        #expect(eventually(.seconds(90)) {
            attempt += 1
            if attempt % 100 == 1 { served.scratch.write("root/warm-up", "\(attempt)") }
            return !Scratch.read(chain).isEmpty
        }, "\(recipe.stderr)")
        for rwatch in [first, second, recipe] {
            #expect(InotifyWatches.held(byTreeOf: rwatch.pid) == 0, "\(rwatch.stderr)")
        }
        #expect(InotifyWatches.held(byTreeOf: served.server.pid) > 0)
        let before = lines(chain)
        let names = ["a.txt", "b.txt", "sub-c.txt"]
        for name in names {
            served.scratch.write("root/" + name, name)
            let path = served.root + "/" + name
            for record in ["first", "second"] {
                #expect(eventually { lines(served.scratch.file(record))[path] == 1 }, "\(record): \(Scratch.read(served.scratch.file(record)))")
            }
            #expect(eventually { lines(chain)[path] == 1 }, "\(Scratch.read(chain))")
        }
        for record in ["first", "second"] {
            #expect(lines(served.scratch.file(record)).filter { names.map { served.root + "/" + $0 }.contains($0.key) }.values.allSatisfy { $0 == 1 })
        }
        #expect(lines(chain).count == before.count + names.count, "\(Scratch.read(chain))")
    }

    @Test func killingTheServiceMidRunLosesNoChange() {
        let served = ServedRoot()
        defer { _ = served.stop() }
        let record = served.scratch.file("record")
        let rwatch = watcher(served, record: record)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("through the service at") }, "\(rwatch.stderr)")
        mkdir(served.scratch.file("root/sub"), 0o755)
        served.scratch.write("root/sub/doomed.txt", "0")
        served.scratch.write("root/before.txt", "1")
        #expect(eventually { lines(record)[served.root + "/before.txt"] == 1 }, "\(rwatch.stderr)")
        kill(served.server.pid, SIGKILL)
        // Written and deleted while the service dies and rwatch moves to a watch of its own.
        served.scratch.write("root/during-1.txt", "2")
        served.scratch.write("root/during-2.txt", "3")
        unlink(served.scratch.file("root/sub/doomed.txt"))
        #expect(eventually { rwatch.stderr.contains("went away") }, "\(rwatch.stderr)")
        served.scratch.write("root/after.txt", "4")
        // A file gone meanwhile is named by its directory (rwatch kept a hash of its name, not the name).
        for name in ["during-1.txt", "during-2.txt", "after.txt", "sub"] {
            #expect(eventually { lines(record)[served.root + "/" + name] != nil }, "\(name): \(Scratch.read(record)) \(rwatch.stderr)")
        }
        // Each change ran once, the one before the kill included.
        let seen = Scratch.read(record).split(separator: "\n").map(String.init)
        for name in ["before.txt", "during-1.txt", "during-2.txt", "after.txt"] {
            #expect(seen.filter { $0 == served.root + "/" + name }.count <= 1, "\(seen)")
        }
        #expect(rwatch.stderr.split(separator: "\n").filter { $0.contains("went away") }.count == 1, "\(rwatch.stderr)")
        #expect(InotifyWatches.held(byTreeOf: rwatch.pid) > 0)
    }

    @Test func noServiceWatchesByItself() {
        let served = ServedRoot()
        defer { _ = served.stop() }
        let record = served.scratch.file("record")
        let rwatch = watcher(served, record: record, extra: ["--no-service"])
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("with inotify") }, "\(rwatch.stderr)")
        #expect(!rwatch.stderr.contains("through the service"))
        served.scratch.write("root/a.txt", "1")
        #expect(eventually { Scratch.read(record).contains(served.root + "/a.txt") }, "\(rwatch.stderr)")
        #expect(InotifyWatches.held(byTreeOf: rwatch.pid) > 0)
    }

    @Test func aServiceThatWillNotWatchThePathIsSaidOnceAndRwatchWatchesByItself() {
        let scratch = Scratch()
        defer { scratch.remove() }
        // Only directories holding a .watchmanconfig may be watched: the tree has none.
        scratch.write("config.json", "{\"enforce_root_files\": true, \"root_files\": [\".watchmanconfig\"]}")
        let sock = scratch.file("sock")
        let server = RWatch(["serve", "--sockname", sock], in: scratch.path, environment: ["WATCHMAN_CONFIG_FILE": scratch.file("config.json")],
                            scratch: scratch)
        defer { server.interrupt() }
        #expect(eventually { WatchmanSocket(sock) != nil })
        mkdir(scratch.file("tree"), 0o755)
        let rwatch = RWatch(["events", "-v"], in: scratch.file("tree"), environment: ["WATCHMAN_SOCK": sock], scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("with inotify") }, "\(rwatch.stderr)")
        let refusals = rwatch.stderr.split(separator: "\n").filter { $0.contains("refused") && $0.contains("watching with inotify instead") }
        #expect(refusals.count == 1, "\(rwatch.stderr)")
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("tree/a.txt", "\(attempt)") }
            return rwatch.stdout.contains("a.txt")
        }, "\(rwatch.stderr)")
    }

    @Test func withoutAServiceRwatchWatchesByItselfSilently() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = RWatch(["events", "-v"], in: scratch.path, environment: ["WATCHMAN_SOCK": scratch.file("no-such-sock")], scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("with inotify") }, "\(rwatch.stderr)")
        #expect(!rwatch.stderr.contains("warning"), "\(rwatch.stderr)")
    }
}

/// The inotify watches processes hold, as the kernel lists them in
/// `/proc/PID/fdinfo`.
enum InotifyWatches {
    /// The watches held by `pid` and every process below it.
    static func held(byTreeOf pid: pid_t) -> Int {
        var total = 0
        for process in [pid] + descendants(of: pid) {
            guard let directory = opendir("/proc/\(process)/fd") else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.first?.isNumber == true else { continue }
                total += Scratch.read("/proc/\(process)/fdinfo/\(name)").split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.count
            }
        }
        return total
    }

    private static func descendants(of pid: pid_t) -> [pid_t] {
        var parents: [pid_t: pid_t] = [:]
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let child = pid_t(name) else { continue }
            let stat = Scratch.read("/proc/\(child)/stat")
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[child] = parent }
        }
        var found: [pid_t] = []
        var frontier = [pid]
        while let next = frontier.popLast() {
            for (child, parent) in parents where parent == next {
                found.append(child)
                frontier.append(child)
            }
        }
        return found
    }
}
