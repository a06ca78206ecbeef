#if canImport(Glibc)
import Glibc
#endif
internal import CGlibcShims
import Signals
import SystemPackage

/// One run's cgroup (v2): every process the run starts is born in it, and
/// stays in it whatever it does to its process group or session (setsid, a
/// double fork, daemon(3)), so stopping the run reaches them all, and
/// `cgroup.kill` ends them at once, a process forking meanwhile included.
///
/// rwatch makes them under its own cgroup, in `rwatch-PID/`, where it may:
/// as root, or in a cgroup systemd delegated to the user (`Delegate=yes`,
/// a `systemd-run --user` unit). Elsewhere (`available` is false, and `-v`
/// says why) the runs are followed through their process tree and the
/// subreaper instead (`ProcessGroup`).
///
/// A child is put in the run's cgroup at birth, so not even its first
/// fork can leave before it is in: clone3 makes it there
/// (`CLONE_INTO_CGROUP`, Linux 5.7: `spawnInside`). Where the kernel
/// cannot, rwatch moves itself in under the spawn fence, spawns, and
/// moves back (`spawning(_:)`); that move of a threaded process waits for
/// an RCU grace period, milliseconds on every run.
///
/// A run's cgroup that its run left empty is kept for a later run
/// (`remove()`, `make()`): spawned back to back, as in a restart storm, the
/// first process born in a new cgroup costs the kernel about 0.4 ms more
/// than one born in a cgroup that has held one (`Benchmarks/spawn`; after
/// an idle pause, a clone3 into any cgroup but rwatch's own is that slow).
/// Once handed on, the old `ControlGroup` reaches nothing. One that was
/// ended with `cgroup.kill` is never handed on: Linux 6.18 (at least)
/// kills at birth every child clone3 makes in a cgroup killed before.
final class ControlGroup: Sendable {
    /// The run's cgroup directory.
    let directory: String
    private let state = Locked(State())

    private struct State {
        var phase = Phase.active
        /// Whether `cgroup.kill` was written: then it is not handed on.
        var killed = false
    }

    private enum Phase {
        case active
        /// `remove()` has run; the directory stays where it could not go.
        case removed
        /// `remove()` gave the empty directory to a later run.
        case handedOn
    }

    private init(directory: String) {
        self.directory = directory
    }

    /// Why rwatch makes no cgroups, or nil when it does.
    static var unavailableReason: String? { home.reason }

    /// Whether runs get a cgroup of their own.
    static var available: Bool { home.directory != nil }

    /// An empty cgroup for one run: one a finished run left (`remove()`),
    /// else a new one; nil where rwatch makes none.
    static func make() -> ControlGroup? {
        guard let home = home.directory else { return nil }
        if let spare = spares.withLock({ $0.popLast() }) { return ControlGroup(directory: spare) }
        let number = counter.withLock { value -> Int in
            value += 1
            return value
        }
        let directory = home + "/run-\(number)"
        guard mkdir(directory, 0o755) == 0 else { return nil }
        return ControlGroup(directory: directory)
    }

    /// Starts `path` as `setUp` says, born in this cgroup: the result of
    /// the spawn (0, or an errno) and `pid`; nil, with nothing started,
    /// where clone3 cannot (then `spawning(_:)` can). Call under the spawn
    /// fence.
    func spawnInside(_ pid: inout pid_t, path: [CChar], _ setUp: SpawnSetUp, argv: [UnsafeMutablePointer<CChar>?],
                     environment: [UnsafeMutablePointer<CChar>?]) -> Int32? {
        guard Self.cloneIntoCgroup.withLock({ $0 }) else { return nil }
        let cgroup = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard cgroup >= 0 else { return nil }
        defer { close(cgroup) }
        var child: Int32 = 0
        let (result, code) = setUp.withDescription { setup in
            let result = CGlibcShims_spawn_into_cgroup(&child, cgroup, path, setup, argv, environment)
            return (result, errno)
        }
        pid = child
        guard result >= 0 else {
            // An older kernel, or a sandbox that refuses clone3: move rwatch
            // in instead, from now on. (Out of processes or memory: this time.)
            if [ENOSYS, E2BIG, EINVAL, EPERM, EOPNOTSUPP].contains(code) {
                Diagnostics.verbose("cannot start a run inside its cgroup (clone3: \(Errno(rawValue: code))); rwatch moves in for each spawn instead")
                Self.cloneIntoCgroup.withLock { $0 = false }
            }
            return nil
        }
        return result
    }

    /// Whether clone3 can start a child inside a cgroup here (until it
    /// refuses once; a test turns it off to check the fallback).
    static let cloneIntoCgroup = Locked(true)

    /// Runs `spawn` with rwatch inside this cgroup, so that the child it
    /// makes is born there; false (and `spawn` not run) when rwatch could
    /// not enter. Call under the spawn fence: no other child may be made
    /// meanwhile. If rwatch cannot move back (its own cgroup vanished), it
    /// stops making cgroups and this one is never killed whole.
    func spawning<Result>(_ spawn: () throws -> Result) rethrows -> Result? {
        guard Self.write("0", to: directory + "/cgroup.procs"), let own = Self.home.own else { return nil }
        defer {
            if !Self.write("0", to: own + "/cgroup.procs") {
                Self.home.disable("rwatch could not leave a run's cgroup")
                holdsRwatch.withLock { $0 = true }
            }
        }
        return try spawn()
    }

    /// Set when rwatch itself is stuck inside: `kill()` then signals
    /// process by process instead of writing `cgroup.kill`.
    private let holdsRwatch = Locked(false)

    /// Whether any process of the run is still alive (zombies do not count).
    var isPopulated: Bool {
        state.withLock { $0.phase == .handedOn ? false : populated }
    }

    private var populated: Bool {
        guard let events = Self.read(directory + "/cgroup.events") else { return false }
        return events.split(separator: "\n").contains { $0 == "populated 1" }
    }

    /// The processes in the cgroup and the cgroups below it (a nested
    /// rwatch's runs).
    var members: [pid_t] {
        state.withLock { $0.phase == .handedOn ? [] : allMembers }
    }

    private var allMembers: [pid_t] {
        var pids: [pid_t] = []
        var directories = [directory]
        while let next = directories.popLast() {
            let procs = Self.read(next + "/cgroup.procs") ?? ""
            pids += procs.split(separator: "\n").compactMap { pid_t($0) }
            for name in Self.subdirectories(of: next) { directories.append(next + "/" + name) }
        }
        return pids.filter { $0 != getpid() }
    }

    /// Sends `number` to every member but those in process group
    /// `sparing`, which the caller has signalled whole already: a member
    /// must get one signal, not two (a second SIGHUP is a second reload).
    func signal(_ number: Int32, sparing group: pid_t? = nil) {
        // Under the lock, so that the directory is not handed on meanwhile.
        state.withLock { state in
            guard state.phase != .handedOn else { return }
            for pid in allMembers where group == nil || getpgid(pid) != group { _ = Glibc.kill(pid, number) }
        }
    }

    /// SIGKILL to every member at once (`cgroup.kill`, Linux 5.14), or
    /// member by member where the kernel has no `cgroup.kill`.
    func kill() {
        let written = state.withLock { state in
            guard state.phase != .handedOn else { return true }
            state.killed = true
            return !holdsRwatch.withLock { $0 } && Self.write("1", to: directory + "/cgroup.kill")
        }
        if !written { signal(SIGKILL) }
    }

    /// The run is over: its cgroup, when empty, is kept for a later run
    /// (up to `spareLimit` of them), else removed once it is empty (and
    /// the empty ones below it). Later calls do nothing.
    func remove() {
        let handedOn = state.withLock { state -> Bool? in
            guard state.phase == .active else { return nil }
            let reusable = !state.killed && !holdsRwatch.withLock { $0 } && !populated
                && Self.subdirectories(of: directory).isEmpty && Self.spares.withLock { $0.count } < Self.spareLimit
            state.phase = reusable ? .handedOn : .removed
            return reusable
        }
        switch handedOn {
        case true?: Self.spares.withLock { $0.append(directory) }
        case false?: Self.removeTree(directory)
        case nil: break
        }
    }

    /// Emptied run cgroups that the next runs take (`make()`).
    private static let spares = Locked<[String]>([])
    private static let spareLimit = 4

    // MARK: Where rwatch makes cgroups

    /// rwatch's own cgroup and `rwatch-PID/` below it, made on first use.
    private final class Home: Sendable {
        private let state: Locked<(directory: String?, own: String?, reason: String?)>

        init() {
            state = Locked(Home.discover())
        }

        var directory: String? { state.withLock { $0.directory } }
        var own: String? { state.withLock { $0.own } }
        var reason: String? { state.withLock { $0.reason } }

        func disable(_ why: String) {
            state.withLock { $0 = (nil, $0.own, why) }
        }

        /// Finds the cgroup v2 hierarchy and rwatch's place in it, and makes
        /// `rwatch-PID/` there (clearing what an rwatch that died left).
        private static func discover() -> (String?, String?, String?) {
            guard let mount = MountTable.current().mounts.last(where: { $0.fsType == "cgroup2" }) else {
                return (nil, nil, "no cgroup v2 hierarchy is mounted")
            }
            let lines = (ControlGroup.read("/proc/self/cgroup") ?? "").split(separator: "\n")
            guard let line = lines.first(where: { $0.hasPrefix("0::") }) else { return (nil, nil, "rwatch is in no cgroup v2") }
            let point = String(decoding: mount.mountPoint, as: UTF8.self)
            let own = (point + line.dropFirst(3)).replacingTrailingSlash()
            clearStale(in: own)
            let home = own + "/rwatch-\(getpid())"
            guard mkdir(home, 0o755) == 0 || errno == EEXIST else {
                return (nil, own, "cannot make a cgroup under \(own): \(Errno(rawValue: errno)) (root, or a cgroup systemd delegates, may)")
            }
            ProcessSupervisor.onStop {
                ControlGroup.spares.withLock { $0.removeAll() }
                ControlGroup.removeTree(home)
            }
            return (home, own, nil)
        }

        /// Removes the cgroups of rwatch processes that are gone (only
        /// empty ones can go).
        private static func clearStale(in own: String) {
            for name in ControlGroup.subdirectories(of: own) where name.hasPrefix("rwatch-") {
                guard let pid = pid_t(name.dropFirst(7)), pid != getpid(), Glibc.kill(pid, 0) != 0, errno == ESRCH else { continue }
                ControlGroup.removeTree(own + "/" + name)
            }
        }
    }

    private static let home = Home()
    private static let counter = Locked(0)

    /// rwatch's cgroups directory, removed at the end (when empty).
    static func removeHome() {
        spares.withLock { $0.removeAll() }
        if let directory = home.directory { removeTree(directory) }
    }

    private static func removeTree(_ directory: String) {
        for name in subdirectories(of: directory) { removeTree(directory + "/" + name) }
        _ = rmdir(directory)
    }

    /// The cgroups right below `directory` (its subdirectories).
    private static func subdirectories(of directory: String) -> [String] {
        var names: [String] = []
        _ = FileSystem.forEachName(in: FilePath(directory)) { name, type in
            if type == UInt8(DT_DIR) { names.append(String(decoding: name, as: UTF8.self)) }
        }
        return names
    }

    private static func read(_ path: String) -> String? {
        guard case .contents(let bytes) = FileSystem.readFile(FilePath(path)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == text.utf8.count
    }
}

extension String {
    fileprivate func replacingTrailingSlash() -> String {
        hasSuffix("/") ? String(dropLast()) : self
    }
}
