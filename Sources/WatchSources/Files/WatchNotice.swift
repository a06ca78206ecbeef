import Signals
import SystemPackage

/// Something the file watcher tells a person that is not a change, whether
/// or not `-v` asked for the why of things (`Diagnostics`): a rule file it
/// skipped, say.
public enum WatchNotice: Sendable, Hashable, CustomStringConvertible {
    /// A problem worth one line, said once per cause: an ignore file that is
    /// a FIFO, a device or larger than 1 MiB, say.
    case warning(String)

    public var description: String {
        switch self {
        case .warning(let text): return text
        }
    }
}

extension FileWatcher {
    /// Every notice of every watch in this process as it happens (hot:
    /// nothing is replayed to a late subscriber). Delivered on the thread
    /// that noticed, often the watcher's reader thread: keep handlers short.
    public static var notices: Signal<WatchNotice> { WatchNotices.subject.asSignal() }
}

/// The hub behind `FileWatcher.notices`, with the memory that makes each
/// warning come once until its cause goes away.
enum WatchNotices {
    static let subject = PublishSubject<WatchNotice>()
    private static let warned = Locked<Set<FilePath>>([])

    /// Sends `message` unless a warning about `key` was sent and not cleared since.
    static func warnOnce(about key: FilePath, _ message: String) {
        guard warned.withLock({ $0.insert(key).inserted }) else { return }
        subject.sendNext(.warning(message))
    }

    /// `key` is fine again: a later problem with it is worth a warning.
    static func clearWarning(about key: FilePath) {
        _ = warned.withLock { $0.remove(key) }
    }
}
