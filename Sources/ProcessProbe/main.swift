// A test helper, not a product: a process of its own in which
// WatchSourcesTests run `ProcessSupervisor` with two child groups, to send
// it SIGTERM and check that nothing it started outlives it (or a watch).
//
// First prints "sigign MASK": the ignored-signal mask of a child, which must
// be empty although this process blocks SIGINT, SIGTERM and SIGHUP itself.
// Then prints "group PGID" for each child group once it has started, then
// "ready", then waits for a signal. One group (a shell with a background and
// a foreground `sleep`) dies of SIGTERM; the other ignores SIGTERM, so only
// the SIGKILL after its stop timeout ends it.
//
// `ProcessProbe exit-while-ending FIFO`: no children. A stop cleanup
// says "stopping" and then blocks reading FIFO until the test closes its
// end; meanwhile the main thread, told the stop began, asks to exit with 2
// through `ProcessSupervisor.exit`. The exit status must still be the
// signal's (143): an exit asked for while rwatch ends waits for that end.
//
// `ProcessProbe inotify-kept DIR`: watches DIR, stops, waits until the
// inotify reader thread has ended for want of clients, twice, saying each
// time how many inotify fds the process holds ("watching N", "idle N").
//
// `ProcessProbe orphans`: becomes a subreaper, runs `ProcessProbe
// orphan-maker` (which starts `ProcessProbe park` in a group of its own,
// says "parked PID" and exits at once, leaving it running), so that the
// parked process comes to this one as an orphan no group owns; then stops
// orphans (`ProcessSupervisor.stopOrphans`), says "swept PID" and waits
// for a signal.
import Dispatch
import Signals
import WatchSources
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Writes one line to standard output at once (no stdio buffering).
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = write(1, &bytes, bytes.count)
}

ProcessSupervisor.takeOverSignals()

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "inotify-kept" {
    // Twice: watch the directory, stop, wait for the reader thread to end
    // for want of clients; say how many inotify fds the process holds.
    func count(in directory: FilePath, _ matches: (FilePath) -> Bool) -> Int {
        var names: [FilePath] = []
        _ = FileSystem.forEachName(in: directory) { name, _ in names.append(FilePath(bytes: name)) }
        return names.filter { $0 != "." && $0 != ".." && matches(directory.pushing($0)) }.count
    }
    func inotifyDescriptors() -> Int {
        count(in: "/proc/self/fd") { link in
            var target = [CChar](repeating: 0, count: 64)
            let length = link.withPlatformString { readlink($0, &target, target.count - 1) }
            return length > 0 && target[..<length].map { UInt8(bitPattern: $0) } == Array("anon_inode:inotify".utf8)
        }
    }
    func readerRunning() -> Bool {
        count(in: "/proc/self/task") { task in
            guard case .contents(let bytes) = FileSystem.readFile(task.appending("comm")) else { return false }
            return bytes == Array((FileWatcher.readerThreadName + "\n").utf8)
        } > 0
    }
    for _ in 1...2 {
        let subscription = FileWatcher.watch([FilePath(CommandLine.arguments[2])]).subscribe { _ in }
        say("watching \(inotifyDescriptors())")
        subscription.dispose()
        while readerRunning() { usleep(1_000) }
        say("idle \(inotifyDescriptors())")
    }
    exit(0)
}

if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "park" {
    while true { pause() }
}

if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "orphan-maker" {
    _ = ProcessSource.run([CommandLine.arguments[0], "park"]).subscribe(onNext: { event in
        guard case .started(let pid) = event else { return }
        say("parked \(pid)")
        // Without stopping it: the parked process is orphaned.
        exit(0)
    })
    DispatchSemaphore(value: 0).wait()
}

if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "orphans" {
    ProcessControl.becomeSubreaper()
    let parked = Locked<pid_t?>(nil)
    let made = DispatchSemaphore(value: 0)
    _ = ProcessSource.run([CommandLine.arguments[0], "orphan-maker"]).subscribe(onNext: { event in
        if case .stdout(let line) = event, line.hasPrefix("parked ") { parked.withLock { $0 = pid_t(line.dropFirst(7)) } }
    }, onCompleted: { made.signal() })
    made.wait()
    // The maker is gone, so its orphan is this process's child by now.
    ProcessSupervisor.stopOrphans(stopTimeout: .seconds(5))
    say("swept \(parked.withLock { $0 } ?? 0)")
    DispatchSemaphore(value: 0).wait()
}

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "exit-while-ending" {
    let fifo = CommandLine.arguments[2]
    let ending = DispatchSemaphore(value: 0)
    ProcessSupervisor.onStop {
        say("stopping")
        ending.signal()
        // Blocks until the test opens and closes the FIFO's write end.
        let fd = open(fifo, O_RDONLY)
        var byte: UInt8 = 0
        _ = read(fd, &byte, 1)
        close(fd)
    }
    say("ready")
    ending.wait()
    ProcessSupervisor.exit(2)
}

let inspected = DispatchSemaphore(value: 0)
ProcessSource.run(["/bin/sh", "-c", "grep SigIgn /proc/$$/status"]).subscribe(onNext: { event in
    if case .stdout(let line) = event {
        say("sigign " + line.split(separator: "\t").last.map(String.init)!)
    }
}, onCompleted: {
    inspected.signal()
})
inspected.wait()

let commands: [([String], ProcessOptions)] = [
    (["/bin/sh", "-c", "sleep 100 & sleep 100"], ProcessOptions()),
    (["/bin/sh", "-c", "trap '' TERM; sleep 100 & sleep 100"], ProcessOptions(stopTimeout: .milliseconds(300))),
]
let started = DispatchGroup()
for (arguments, options) in commands {
    started.enter()
    ProcessSource.run(arguments, options: options).subscribe(onNext: { event in
        if case .started(let pid) = event {
            say("group \(pid)")
            started.leave()
        }
    }, onError: { error in
        say("error \(error)")
        exit(3)
    })
}
started.wait()
say("ready")
// Not dispatchMain(): it parks the main thread in sigsuspend with every
// signal unblocked. The supervisor's owner thread takes them either way.
DispatchSemaphore(value: 0).wait()
