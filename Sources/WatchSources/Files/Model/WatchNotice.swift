import Glibc
import Signals
import Synchronization
import SystemPackage

/// What `FileWatcher` (and `Tail`) tells a person that is not a change:
/// which backend reports a root, the one warning when inotify runs out, a
/// rule file it skipped. Read them from `FileWatcher.notices`.
///
///     rwatch: polling /mnt/share (nfs4) every 500ms
public struct WatchNotice: Sendable, Hashable, CustomStringConvertible {
    /// Why a path is polled.
    public enum PollReason: Sendable, Hashable {
        /// `WatchBackend.poll` asked for it.
        case requested
        /// It lies on a mount of this type (`nfs4`, `fuse.sshfs`, …), where
        /// inotify does not see changes made on the other side.
        case fileSystem(String)
        /// inotify ran out of watches (`fs.inotify.max_user_watches`).
        case watchLimit(Int)
        /// No inotify instance could be made (`fs.inotify.max_user_instances`
        /// when `errno` is `EMFILE`).
        case inotifyUnavailable(errno: Int32, instanceLimit: Int)
    }

    /// What was decided.
    public enum Kind: Sendable, Hashable {
        /// Changes of `path` come from inotify.
        case inotify
        /// Changes of `path` come from the service listening at `socket`
        /// (`WatchOptions.usesService`).
        case service(socket: FilePath)
        /// `path` is polled, a pass every `interval`.
        case polling(interval: Duration, reason: PollReason)
        /// `Tail.follow` follows `path` (announced when its subscription
        /// starts, whatever backend reads it), so that a recipe can say
        /// what it follows once it runs.
        case following
        /// A problem with `path` worth one line, said once until its cause
        /// goes away: an ignore file that is a FIFO, a device or larger
        /// than 1 MiB, say.
        case warning(String)
    }

    /// The watched root, mount or directory concerned.
    public var path: FilePath
    public var kind: Kind

    public init(path: FilePath, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// True for the fallback when inotify ran out: worth a line even when
    /// the user asked for nothing.
    public var isWarning: Bool {
        switch kind {
        case .polling(_, .watchLimit), .polling(_, .inotifyUnavailable), .warning: return true
        case .inotify, .service, .polling, .following: return false
        }
    }

    /// One line, e.g. `polling /mnt/share (nfs4) every 500ms`.
    public var description: String {
        let shown = Quoted.path(path)
        switch kind {
        case .inotify:
            return "watching \(shown) with inotify"
        case .following:
            return "following \(shown)"
        case .service(let socket):
            return "watching \(shown) through the service at \(Quoted.path(socket))"
        case .warning(let text):
            return text
        case .polling(let interval, .requested):
            return "polling \(shown) every \(WatchNotice.format(interval))"
        case .polling(let interval, .fileSystem(let type)):
            return "polling \(shown) (\(type)) every \(WatchNotice.format(interval))"
        case .polling(let interval, .watchLimit(let limit)):
            return "inotify watch limit reached (fs.inotify.max_user_watches = \(limit)): polling \(shown) and "
                + "every other directory without a watch every \(WatchNotice.format(interval)); raise the limit with: "
                + "sudo sysctl fs.inotify.max_user_watches=\(max(524_288, limit * 4))"
        case .polling(let interval, .inotifyUnavailable(let code, let limit)):
            if code == EMFILE {
                return "inotify instance limit reached (fs.inotify.max_user_instances = \(limit)): polling \(shown) "
                    + "every \(WatchNotice.format(interval)) instead; raise the limit with: "
                    + "sudo sysctl fs.inotify.max_user_instances=\(max(1024, limit * 4))"
            }
            return "cannot start inotify (\(Errno(rawValue: code).description)): polling \(shown) every "
                + "\(WatchNotice.format(interval)) instead"
        }
    }

    /// `500ms`, `2s`, `1.5s`.
    public static func format(_ duration: Duration) -> String {
        let milliseconds = duration.clampedMilliseconds
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        if milliseconds < 10_000 { return "\(milliseconds)ms" }
        return "\(Double(milliseconds) / 1000)s"
    }
}

extension FileWatcher {
    private static let noticeSubject = PublishSubject<WatchNotice>()
    private static let warned = Atomic<UInt8>(0)

    /// Every `WatchNotice` from now on, on the thread that decided it (the
    /// watcher's reader thread, or a tail follower's). Hot; nothing is
    /// replayed. `RecipeRunner` prints the polling lines and warnings.
    public static var notices: Signal<WatchNotice> { noticeSubject.asSignal() }

    /// Announces `notice`. A warning goes out once per process and kind
    /// (running out of watches, of instances): one line, not one per
    /// directory; running out of watches is followed by a line naming the
    /// processes that hold the most (`announceWatchHolders`).
    static func announce(_ notice: WatchNotice) {
        switch notice.kind {
        case .polling(_, .watchLimit), .polling(_, .inotifyUnavailable):
            let bit: UInt8
            if case .polling(_, .watchLimit) = notice.kind { bit = 1 } else { bit = 2 }
            guard warned.bitwiseOr(bit, ordering: .relaxed).oldValue & bit == 0 else { return }
        default:
            break
        }
        noticeSubject.sendNext(notice)
        if case .polling(_, .watchLimit) = notice.kind { announceWatchHolders(about: notice.path) }
    }

    /// Names, once per process, the processes of this user holding the
    /// most inotify watches (`InotifyUsage`): which program ate the budget.
    /// `line` is that summary, read when the budget ran out (by default
    /// now; the inotify reader reads it before it lets go of the watches
    /// of a subscription that failed for want of one).
    static func announceWatchHolders(about path: FilePath, line: @autoclosure () -> String? = InotifyUsage.summary()) {
        guard warned.bitwiseOr(4, ordering: .relaxed).oldValue & 4 == 0, let line = line() else { return }
        noticeSubject.sendNext(WatchNotice(path: path, kind: .warning(line)))
    }
}

/// The memory that makes each `.warning` come once until its cause goes away.
enum WatchNotices {
    private static let warned = Locked<Set<FilePath>>([])

    /// Announces `message` about `key` unless a warning about `key` was
    /// announced and not cleared since.
    static func warnOnce(about key: FilePath, _ message: String) {
        guard warned.withLock({ $0.insert(key).inserted }) else { return }
        FileWatcher.announce(WatchNotice(path: key, kind: .warning(message)))
    }

    /// `key` is fine again: a later problem with it is worth a warning.
    static func clearWarning(about key: FilePath) {
        _ = warned.withLock { $0.remove(key) }
    }
}
