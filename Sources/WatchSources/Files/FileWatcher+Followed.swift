import Signals
import SystemPackage

extension FileWatcher {
    /// The changes to one file that `Tail` follows, from the process's
    /// reader (never a service, never polled: `Tail` polls a name itself
    /// when inotify cannot see it), so that a process that tails logs and
    /// watches files holds one inotify instance and one reader thread.
    /// Each write passes the moment it is read (no save coalescing: a
    /// log's line is not a save to wait for the end of); the file missing
    /// at the start, or its directory, is waited for as after a deletion,
    /// and every change of the name (created, renamed away or onto,
    /// deleted) arrives.
    static func followedFile(_ path: FilePath) -> Signal<[FileEvent]> {
        Signal { observer in
            var options = WatchOptions(
                useVCSIgnore: false, useProjectIgnore: false, useGlobalIgnore: false, useDefaultIgnore: false,
                onRootDeleted: .waitForReappearance, backend: .inotify, recursive: false
            )
            options.usesService = false
            options.coalescesSaves = false
            let sink = EventSink(observer: observer, kinds: options.kinds)
            let reader = InotifyReader.shared
            let id = reader.makeID()
            let client = ReaderClient(id: id, paths: [FileSystem.absolute(path)], options: options, sink: sink)
            client.waitsForMissingRoots = true
            // `Tail` says the name is followed: a recipe does not list it as watched too.
            client.announcesWatch = false
            reader.add(client)
            return ActionDisposable {
                sink.end()
                reader.remove(id)
            }
        }
    }
}
