// TEMPORARY STAND-INS (issue 6 only): the shapes of /work/brief/APIS.md so that
// RecipeKit builds before issues 4 and 5 land. Delete this whole folder when
// WatchSources provides the real FileWatcher / ProcessSource / Tail.
import Dispatch
import Glibc
import Signals

public struct FileEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case created, modified, closedWrite, deleted, movedFrom, movedTo, attributes, overflow }
    public var path: String
    public var kind: Kind
    public var isDirectory: Bool
    public var cookie: UInt32
    public init(path: String, kind: Kind, isDirectory: Bool = false, cookie: UInt32 = 0) {
        self.path = path; self.kind = kind; self.isDirectory = isDirectory; self.cookie = cookie
    }
}

public struct WatchOptions: Sendable {
    public var include: [String] = []
    public var exclude: [String] = []
    public var extensions: [String] = []
    public var useVCSIgnore = true
    public var useDefaultIgnore = true
    public init() {}
    public static func matching(_ globs: String...) -> WatchOptions { var o = WatchOptions(); o.include = globs; return o }
    public func validated() throws -> WatchOptions { self }
}

public enum FileWatcher {
    public static func watch(_ paths: [String], options: WatchOptions = WatchOptions()) -> Signal<FileEvent> { Signal.never() }
}

public struct ChangeBatch: Sendable {
    public init(_ events: [FileEvent]) {
        self.events = events
        var seen = Set<String>()
        paths = events.map(\.path).filter { seen.insert($0).inserted }
        kinds = [:]
        commonRoot = nil
    }
    public var events: [FileEvent]
    public var paths: [String]
    public var kinds: [String: Set<FileEvent.Kind>]
    public var commonRoot: String?
    public func merging(_ other: ChangeBatch) -> ChangeBatch { ChangeBatch(events + other.events) }
}

public struct Glob: Sendable {
    public init(_ pattern: String) throws {}
    public func matches(_ relativePath: String) -> Bool { true }
}

public enum ExitStatus: Sendable, Hashable {
    case exited(Int32)
    case signaled(Int32)
    public var succeeded: Bool { self == .exited(0) }
    public var shellCode: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal): return 128 + signal
        }
    }
}

public enum ProcessEvent: Sendable, Hashable {
    case started(pid: Int32)
    case stdout(String)
    case stderr(String)
    case exited(ExitStatus)
}

public struct ProcessOptions: Sendable {
    public var environment: [String: String] = [:]
    public var workingDirectory: String? = nil
    public var shell: String? = nil
    public var stopSignal: Int32 = SIGTERM
    public var gracePeriod: Duration = .seconds(5)
    public var captureOutput = true
    public init() {}
}

public struct ProcessError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

public enum ProcessSource {
    public static func run(_ arguments: [String], options: ProcessOptions = ProcessOptions()) -> Signal<ProcessEvent> {
        Signal { observer in
            let argv = options.shell.map { [$0, "-c", arguments.joined(separator: " ")] } ?? arguments
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            var environment = [String: String]()
            var pointer = environ
            while let entry = pointer.pointee {
                let text = String(cString: entry)
                if let equals = text.firstIndex(of: "=") { environment[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
                pointer += 1
            }
            environment.merge(options.environment) { $1 }
            let cArgs = argv.map { strdup($0) } + [nil]
            let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            var pid: pid_t = 0
            let result = posix_spawnp(&pid, argv[0], nil, &attributes, cArgs, cEnv)
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
            posix_spawnattr_destroy(&attributes)
            if result != 0 {
                observer.sendError(ProcessError(description: "cannot start \(argv[0]): \(String(cString: strerror(result)))"))
                return ActionDisposable {}
            }
            observer.sendNext(.started(pid: pid))
            let child = pid
            Thread.detach {
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0 && errno == EINTR {}
                if status & 0x7f == 0 {
                    observer.sendNext(.exited(.exited((status >> 8) & 0xff)))
                } else {
                    observer.sendNext(.exited(.signaled(status & 0x7f)))
                }
                observer.sendCompleted()
            }
            return ActionDisposable { kill(-child, SIGKILL) }
        }
    }
}

private enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: body)
    }
}

public enum ProcessSupervisor {
    public static func installSignalHandlers() {}
    public static func stopAll() {}
}

public enum Tail {
    public enum Start: Sendable { case start, end }
    public struct Line: Sendable, Hashable { public var path: String; public var text: String }
    public static func follow(_ path: String, from start: Start = .end) -> Signal<String> { Signal.never() }
    public static func follow(_ paths: [String], from start: Start = .end) -> Signal<Line> { Signal.never() }
}
