/// How `FileWatcher` (and `Tail`) learn about changes.
///
///     var options = WatchOptions()
///     options.backend = .poll(interval: .seconds(1))   // an NFS home, say
///
/// inotify only hears about changes made through this machine's kernel: on
/// network and FUSE file systems (NFS, SMB, 9p, virtiofs, sshfs, bindfs, …) a
/// change made on the other side never produces an event, so those trees
/// are polled: listed and `stat`-ed every interval, and compared with what
/// the previous pass saw.
public enum WatchBackend: Sendable, Hashable {
    /// inotify where it works; polling (every `defaultInterval`) for the
    /// mounts whose type cannot deliver remote changes (`MountTable`'s list,
    /// found in `/proc/self/mountinfo`, also for mounts that appear later),
    /// and for whatever has no inotify watch once `max_user_watches` or
    /// `max_user_instances` runs out (with one warning).
    case auto
    /// inotify everywhere, even where it is blind; running out of watches
    /// or instances is an error.
    case inotify
    /// Polling everywhere, a pass every `interval`.
    case poll(interval: Duration)

    /// How often `.auto` polls what it polls: 500 ms.
    public static let defaultInterval: Duration = .milliseconds(500)

    /// The interval polling uses under this backend.
    var pollInterval: Duration {
        if case .poll(let interval) = self { return max(interval, .milliseconds(1)) }
        return WatchBackend.defaultInterval
    }
}
