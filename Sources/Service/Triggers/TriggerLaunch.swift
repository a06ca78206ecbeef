import Glibc
import Signals
import SystemPackage
import WatchSources
import WatchmanProtocol

/// One start of a trigger's command: its arguments (with the files
/// appended when asked, as many as the system takes), its environment
/// (the service's, plus watchman's `WATCHMAN_*`), its standard input (the
/// files, in an unlinked temporary file) and output (the service's log,
/// or files below the root), through `ProcessSource` and so rwatch's
/// process group owner: stopped with the service, nothing left behind.
struct TriggerLaunch {
    let trigger: Trigger
    let evaluation: Evaluation
    let since: ClockPosition?

    /// Starts the command; `ended` runs once it is gone (or could not start).
    func start(handle: ProcessHandle, ended: @escaping @Sendable () -> Void) {
        let spec = trigger.spec
        var overflow = false
        let arguments = self.arguments(overflow: &overflow)
        var descriptors: [Int32: Int32] = [1: trigger.log.descriptor, 2: trigger.log.descriptor]
        var opened: [Int32] = []
        // The child has its copies once `ProcessSource.run` has spawned it (in `subscribe`).
        defer { for fd in opened { close(fd) } }
        do throws(CommandError) {
            func keep(_ fd: Int32?, as number: Int32) {
                guard let fd else { return }
                opened.append(fd)
                descriptors[number] = fd
            }
            keep(try input(overflow: &overflow), as: 0)
            keep(try output(spec.stdout), as: 1)
            keep(try output(spec.stderr), as: 2)
        } catch {
            trigger.log.log(.error, "trigger \(spec.name) on \(RootTable.text(trigger.root.path)): \(error.message)")
            ended()
            return
        }
        var options = ProcessOptions(environment: environment(overflow: overflow), captureOutput: false)
        options.environmentBytes = ["WATCHMAN_ROOT": trigger.root.path]
        if let relative = trigger.spec.query.relativeRoot {
            options.environmentBytes["WATCHMAN_RELATIVE_ROOT"] = trigger.root.path + [UInt8(ascii: "/")] + relative
        }
        options.workingDirectoryPath = FilePath(bytes: workingDirectory)
        options.descriptors = descriptors
        let root = RootTable.text(trigger.root.path)
        let log = trigger.log
        let done = Locked(false)
        let finish: @Sendable () -> Void = {
            if done.withLock({ done in defer { done = true }; return !done }) { ended() }
        }
        _ = ProcessSource.run(arguments.map { CommandWord(bytes: $0) }, options: options, handle: handle).subscribe(
            onNext: { event in
                if case .started = event { log.log(.debug, "\(root): posix_spawnp: \(spec.name)") }
            },
            onError: { error in
                log.log(.error, "\(root): posix_spawnp: \(spec.name) failed: \(error)")
                finish()
            },
            onCompleted: finish
        )
    }

    /// The command, with the matched names after it when `append_files`
    /// is set: as many as fit in half of `ARG_MAX` beside the environment.
    private func arguments(overflow: inout Bool) -> [[UInt8]] {
        var arguments = trigger.spec.command
        guard trigger.spec.appendFiles else { return arguments }
        var budget = Int(sysconf(Int32(_SC_ARG_MAX))) / 2 - Self.environmentSize()
        budget -= arguments.reduce(0) { $0 + $1.count + 1 + MemoryLayout<UnsafeRawPointer>.size }
        for name in evaluation.names {
            budget -= name.count + 1 + MemoryLayout<UnsafeRawPointer>.size
            guard budget > 0 else {
                overflow = true
                break
            }
            arguments.append(name)
        }
        return arguments
    }

    /// Bytes of the service's environment, pointers included.
    private static func environmentSize() -> Int {
        var size = 0
        var entry = environ
        while let pointer = entry.pointee {
            size += strlen(pointer) + 1 + MemoryLayout<UnsafeRawPointer>.size
            entry += 1
        }
        return size
    }

    private func environment(overflow: Bool) -> [String: String] {
        var environment = ["WATCHMAN_TRIGGER": trigger.spec.name, "WATCHMAN_SOCK": trigger.socketPath,
                           "WATCHMAN_CLOCK": evaluation.position.clockString()]
        if let since { environment["WATCHMAN_SINCE"] = since.clockString() }
        if overflow { environment["WATCHMAN_FILES_OVERFLOW"] = "true" }
        return environment
    }

    /// The root, or its relative root, then `chdir` below that (or as given when absolute).
    private var workingDirectory: [UInt8] {
        var base = trigger.root.path
        if let relative = trigger.spec.query.relativeRoot { base += [UInt8(ascii: "/")] + relative }
        guard let chdir = trigger.spec.chdir else { return base }
        return chdir.first == UInt8(ascii: "/") ? chdir : base + [UInt8(ascii: "/")] + chdir
    }

    /// Standard input: `/dev/null`, or the files (at most `max_files_stdin`)
    /// in an unlinked temporary file, read from its start.
    private func input(overflow: inout Bool) throws(CommandError) -> Int32? {
        var bytes: [UInt8]
        switch trigger.spec.input {
        case .devNull:
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CommandError("cannot open /dev/null: \(String(cString: strerror(errno)))") }
            return fd
        case .fields:
            let files = limited(evaluation.files, overflow: &overflow)
            bytes = JSONLines.encode(.array(files))
        case .namePerLine:
            bytes = limited(evaluation.names, overflow: &overflow).flatMap { $0 + [UInt8(ascii: "\n")] }
        }
        return try Self.temporaryFile(holding: bytes)
    }

    private func limited<Element>(_ items: [Element], overflow: inout Bool) -> [Element] {
        guard let limit = trigger.spec.maxFilesStdin, items.count > limit else { return items }
        overflow = true
        return Array(items.prefix(limit))
    }

    private static func temporaryFile(holding bytes: [UInt8]) throws(CommandError) -> Int32 {
        var template = Array("/tmp/rwatch-trigger-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CommandError("cannot make the trigger's input file: \(String(cString: strerror(errno)))") }
        // Other children never see it: ProcessLauncher closes every descriptor it was not given.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count < 0, errno == EINTR { continue }
                close(fd)
                throw CommandError("cannot write the trigger's input file: \(String(cString: strerror(errno)))")
            }
            written += count
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    /// A redirection's file, below the root unless absolute; nil: the log.
    private func output(_ redirection: TriggerSpec.Redirection?) throws(CommandError) -> Int32? {
        guard let redirection else { return nil }
        let path = redirection.path.first == UInt8(ascii: "/")
            ? redirection.path : trigger.root.path + [UInt8(ascii: "/")] + redirection.path
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (redirection.append ? O_APPEND : O_TRUNC)
        let fd = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, flags, 0o666) }
        }
        guard fd >= 0 else {
            throw CommandError("cannot open \(String(decoding: path, as: UTF8.self)): \(String(cString: strerror(errno)))")
        }
        return fd
    }
}
