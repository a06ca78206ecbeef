import ArgumentParser
import RecipeKit

/// The flags that decide which file events a watch reports, shared by
/// `rwatch` (watch-and-run) and `rwatch events` through `@OptionGroup`:
/// a flag about what is watched or reported is declared here, once, and
/// reaches both commands and `watchOptions`.
struct WatchFlags: ParsableArguments {
    @Option(name: [.customShort("e"), .long], help: ArgumentHelp("Only files with these extensions, comma separated (swift,md).", valueName: "exts"))
    var exts: [String] = []

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp("Only paths matching this glob, ** allowed (repeatable).", valueName: "glob"))
    var filter: [String] = []

    @Option(name: [.customShort("i"), .long], help: ArgumentHelp("Ignore paths matching this glob (repeatable).", valueName: "glob"))
    var ignore: [String] = []

    @Option(name: .customLong("ignore-file"), help: ArgumentHelp("Ignore paths matching the globs in this file, one per line (repeatable).", valueName: "file"), completion: .file())
    var ignoreFile: [String] = []

    @Option(name: .customLong("filter-file"), help: ArgumentHelp("Only paths matching a glob in this file, one per line (repeatable).", valueName: "file"), completion: .file())
    var filterFile: [String] = []

    @Flag(name: .customLong("no-vcs-ignore"), help: "Do not read git's rule files: .gitignore, info/exclude, the global excludes file.")
    var noVCSIgnore = false

    @Flag(name: .customLong("no-project-ignore"), help: "Do not read the project's rule files: .gitignore, .ignore, info/exclude.")
    var noProjectIgnore = false

    @Flag(name: .customLong("no-global-ignore"), help: "Do not read git's global excludes file.")
    var noGlobalIgnore = false

    @Flag(name: .customLong("no-discover-ignore"), help: "Read no rule file: the three above together (-i and --ignore-file still apply).")
    var noDiscoverIgnore = false

    @Flag(name: .customLong("no-default-ignore"), help: "Also watch VCS directories, __pycache__, *.pyc and editor swap, backup and temp files.")
    var noDefaultIgnore = false

    /// `--watch-backend`, `--poll[=INTERVAL]`.
    @OptionGroup var backend: BackendOptions

    @Flag(name: .customLong("no-service"), help: "Watch with this process's own inotify watches even when an rwatch serve is running.")
    var noService = false

    @Flag(name: .customLong("ignore-nothing"), help: "--no-discover-ignore and --no-default-ignore together (-i and --ignore-file still apply).")
    var ignoreNothing = false

    @Option(name: .customLong("fs-events"), help: ArgumentHelp("Only these kinds of change, comma separated: create, modify, delete, rename, attrib (default all).", valueName: "kinds"))
    var fsEvents: [String] = []

    @Flag(name: .customLong("no-meta"), help: "Ignore attribute-only changes (touch without writing, chmod).")
    var noMeta = false

    /// What `--fs-events` names may be, and the kinds each stands for.
    static let eventKinds: [String: Set<FileEvent.Kind>] = [
        "create": [.created], "modify": [.modified, .closedWrite], "delete": [.deleted],
        "rename": [.movedFrom, .movedTo], "attrib": [.attributes],
    ]

    /// Every glob and ignore file must be usable, every `--fs-events` name
    /// known; the error names the first that is not.
    func validate() throws {
        _ = try kinds
        do {
            _ = try watchOptions.validated()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The kinds of change `--fs-events` and `--no-meta` leave.
    var kinds: Set<FileEvent.Kind> {
        get throws {
            var kinds = WatchOptions.allKinds
            let names = fsEvents.flatMap { $0.split(separator: ",") }.map { String($0).trimmingCharacters().lowercased() }.filter { !$0.isEmpty }
            if !names.isEmpty {
                kinds = [.overflow]
                for name in names {
                    guard let named = WatchFlags.eventKinds[name] else {
                        throw ValidationError("--fs-events: unknown kind \(Quoted.path(name)) (create, modify, delete, rename, attrib)")
                    }
                    kinds.formUnion(named)
                }
            }
            if noMeta { kinds.remove(.attributes) }
            return kinds
        }
    }

    /// The flags as the options `FileWatcher.watch` takes.
    var watchOptions: WatchOptions {
        var options = WatchOptions()
        options.include = filter
        options.exclude = ignore
        options.extensions = exts.flatMap { $0.split(separator: ",") }.map { item in
            String(item.drop { $0 == "." }).trimmingCharacters()
        }.filter { !$0.isEmpty }
        let noDiscovery = noDiscoverIgnore || ignoreNothing
        options.useVCSIgnore = !(noVCSIgnore || noDiscovery)
        options.useProjectIgnore = !(noProjectIgnore || noDiscovery)
        options.useGlobalIgnore = !(noGlobalIgnore || noDiscovery)
        options.useDefaultIgnore = !(noDefaultIgnore || ignoreNothing)
        options.backend = backend.backend
        options.usesService = !noService
        options.ignoreFiles = ignoreFile
        options.filterFiles = filterFile
        options.kinds = (try? kinds) ?? WatchOptions.allKinds
        return options
    }

    /// The events of `recursive` paths (every directory below them too) and
    /// `nonRecursive` ones (their own entries only), absolute; the current
    /// directory when both are empty. `batches` are the same events in the
    /// arrays the watcher reads them in (`FileWatcher.batches`: a save whole).
    /// `onRootDeleted` says what a watched path that goes away does;
    /// `defersDuringVCS`, whether a service watching them holds results
    /// while git rewrites the tree (`WatchOptions.defersDuringVCS`). The
    /// `batches`' watches say where they are in `placement`.
    func changes(recursive: [FilePath], nonRecursive: [FilePath], onRootDeleted: RootDeletion = .fail, defersDuringVCS: Bool = false)
        -> (paths: [FilePath], events: Signal<FileEvent>, batches: Signal<[FileEvent]>, placement: WatchPlacement) {
        let deep = recursive.isEmpty && nonRecursive.isEmpty ? [FileSystem.absolute(".")] : recursive
        // A glob that can match nothing (an absolute path outside every
        // watched path) would otherwise do nothing without a word.
        for line in watchOptions.globsMatchingNothing(below: deep + nonRecursive) { Terminal.warning(line) }
        var base = watchOptions
        base.onRootDeleted = onRootDeleted
        base.defersDuringVCS = defersDuringVCS
        var watches: [([FilePath], WatchOptions)] = []
        if !deep.isEmpty { watches.append((deep, base)) }
        if !nonRecursive.isEmpty {
            var options = base
            options.recursive = false
            watches.append((nonRecursive, options))
        }
        // rwatch's own output files are never a change (`OwnOutput`).
        let own = OwnOutput()
        let placement = WatchPlacement(count: watches.count)
        let events = watches.map { FileWatcher.watch($0.0, options: $0.1) }
        let batches = watches.enumerated().map { index, watch in
            FileWatcher.batches(watch.0, options: watch.1, placed: placement.teller(index))
        }
        let merged = (events: events.count == 1 ? events[0] : Signal.merge(events),
                      batches: batches.count == 1 ? batches[0] : Signal.merge(batches))
        guard !own.paths.isEmpty else { return (deep + nonRecursive, merged.events, merged.batches, placement) }
        return (deep + nonRecursive, merged.events.filter { own.isChange($0.path) },
                merged.batches.compactMap { batch in
                    let kept = batch.filter { own.isChange($0.path) }
                    return kept.isEmpty ? nil : kept
                }, placement)
    }

    /// Throws a usage error naming the first of `paths` that does not
    /// exist (as typed: bytes, see `RawArguments`), or that is a loop of
    /// symbolic links.
    static func checkExist(_ paths: [String]) throws {
        for path in RawArguments.paths(paths) where !FileSystem.exists(path) {
            if FileSystem.isLinkLoop(path) {
                throw ValidationError("\(Quoted.path(path)) is a loop of symbolic links (too many levels): nothing to watch there")
            }
            throw ValidationError("no such file or directory: \(Quoted.path(path))")
        }
    }
}
