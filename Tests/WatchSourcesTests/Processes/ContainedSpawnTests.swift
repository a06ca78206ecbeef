@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import SystemPackage

/// A run that stops its descendants is born in a cgroup of its own where
/// rwatch may make one (clone3 straight into it), and starts exactly as a
/// `posix_spawn` would have started it: its own process group, standard
/// input from /dev/null, every signal at its default and none blocked,
/// nothing of rwatch's open but what it was given, in the directory asked.
@Suite(.serialized) struct ContainedSpawnTests {
    @Test(arguments: [true, false]) func aContainedChildStartsAsAskedInItsOwnCgroup(bornInside: Bool) {
        // Without clone3 (an older kernel, a sandbox), rwatch moves into the cgroup for the spawn.
        let before = ControlGroup.cloneIntoCgroup.withLock { value in defer { value = bornInside }; return value }
        defer { ControlGroup.cloneIntoCgroup.withLock { $0 = before } }
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let script = """
            grep '^0::' /proc/self/cgroup; cut -d' ' -f5 /proc/$$/stat; echo $$
            grep -E '^Sig(Blk|Ign)' /proc/self/status | tr -d '\t'
            readlink /proc/self/fd/0; pwd
            """
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", script], options: ProcessOptions(workingDirectory: directory)))
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(0), "\(run.events)")
        let lines = run.stdout
        #expect(lines.count == 7, "\(lines)")
        guard lines.count == 7 else { return }
        if ControlGroup.available {
            #expect(lines[0].contains("/rwatch-\(getpid())/run-"), "born in its run's cgroup: \(lines[0])")
        }
        #expect(lines[1] == lines[2], "leads its own process group: \(lines)")
        #expect(lines[3] == "SigBlk:0000000000000000", "\(lines)")
        #expect(lines[4] == "SigIgn:0000000000000000", "\(lines)")
        #expect(lines[5] == "/dev/null")
        #expect(lines[6] == directory)
    }

    /// Nothing of this process's reaches the child but its three standard
    /// descriptors: `ls` finds those, and the one it opened to list them.
    @Test func aContainedChildHasOnlyItsStandardDescriptors() {
        let run = ProcessRecorder(ProcessSource.run(["ls", "/proc/self/fd"]))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["0", "1", "2", "3"], "\(run.events)")
    }

    /// An exec that fails in the child (a script whose interpreter is
    /// missing) is the spawn's error, named, as posix_spawn's would be.
    @Test func aContainedChildWhoseExecFailsIsAnError() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let script = directory + "/tool"
        let fd = open(script, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        #expect(fd >= 0)
        _ = "#!/nonexistent/interpreter\n".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let run = ProcessRecorder(ProcessSource.run([script]))
        #expect(run.waitUntilFinished())
        let error = run.error as? ProcessError
        #expect(error?.reason == .notFound, "\(String(describing: run.error))")
        #expect(run.events.isEmpty)
    }

    /// A child started in a new session (the service a `watchman` command
    /// starts) leads the session and its group, with standard input from
    /// /dev/null and no signal blocked: the same description, lowered to
    /// posix_spawn's setsid.
    @Test func aChildInANewSessionLeadsIt() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let script = """
            { echo $$; cut -d' ' -f5,6 /proc/$$/stat; grep '^SigBlk' /proc/self/status | tr -d '\t'; readlink /proc/self/fd/0; } \
                > "$0/out.tmp" && mv "$0/out.tmp" "$0/out"
            """
        var options = ProcessOptions()
        options.grouping = .newSession
        let pid = try ProcessLauncher.start(["sh", "-c", CommandWord(script), CommandWord(directory)], options: options)
        #expect(eventually { access(directory + "/out", F_OK) == 0 })
        _ = waitpid(pid, nil, 0)  // it has written its last line; whoever reaps it first
        guard case .contents(let bytes) = FileSystem.readFile(FilePath(directory + "/out")) else {
            Issue.record("no output")
            return
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == ["\(pid)", "\(pid) \(pid)", "SigBlk:0000000000000000", "/dev/null"], "\(lines)")
    }

    /// A run's cgroup that its run left empty goes to a later run; the
    /// old handle then reaches nothing in it, whatever is born there next.
    @Test func aRemovedCgroupHandedOnIsOutOfTheOldHandlesReach() throws {
        guard ControlGroup.available, let old = ControlGroup.make() else { return }
        old.remove()
        let directory = old.directory
        var options = ProcessOptions()
        options.grouping = .newSession
        let pid = try ProcessLauncher.start(["sleep", "30"], options: options)
        defer {
            kill(pid, SIGKILL)
            _ = waitpid(pid, nil, 0)
        }
        // A process in the directory (if it still exists: another test's run may have taken it and gone).
        let procs = open(directory + "/cgroup.procs", O_WRONLY | O_CLOEXEC)
        guard procs >= 0 else { return }
        let moved = "\(pid)".withCString { write(procs, $0, strlen($0)) } > 0
        close(procs)
        guard moved else { return }
        #expect(old.members.isEmpty)
        #expect(!old.isPopulated)
    }
}
