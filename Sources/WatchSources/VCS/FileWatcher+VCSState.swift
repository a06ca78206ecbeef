import Signals
import SystemPackage

extension FileWatcher {
    /// The state of the version-control repositories holding `paths`,
    /// each found by walking up to `.git` or `.hg` (even far above the
    /// paths): the current state first, then each change.
    ///
    ///     FileWatcher.vcsState(for: ["Sources"]).map(\.isBusy)
    ///
    /// It watches each repository's state directory (not recursively) and
    /// follows the files that mark an operation, so its changes come on the
    /// watcher's reader thread in the order the kernel saw them, in step
    /// with `watch`'s events. When no path is in a repository it sends
    /// idle and completes. It does not end when a repository is deleted;
    /// it waits for it to come back.
    public static func vcsState(for paths: [FilePath]) -> Signal<VCSState> {
        SourceWorld.current.files.vcsState(for: paths)
    }

    /// `vcsState(for:)` read by `reader` (when given), in step with the
    /// watches made with it: `rwatch serve` follows a root's operations on
    /// the root's own reader, so that a lock is seen before the changes
    /// made under it.
    package static func vcsState(for paths: [FilePath], reader: Reader?) -> Signal<VCSState> {
        Signal.deferred {
            var repositories: [Repository] = []
            for path in paths {
                if let found = Repository.enclosing(FileSystem.absolute(path)), !repositories.contains(found) {
                    repositories.append(found)
                }
            }
            return vcsState(of: repositories) { directories, options in
                reader.map { flattened(batches(directories, options: options, reader: $0)) } ?? flattened(liveBatches(directories, options: options))
            }
        }
    }

    /// The state of `repositories`, from a watch of their state
    /// directories made with `watch` (a recipe's tests give their virtual
    /// tree's). The files an operation wrote come before its end, even
    /// those held back as possibly temporary: the reader that sees a
    /// marker go delivers them first (`WatchOptions.endsWritesUnder`).
    package static func vcsState(
        of repositories: [Repository], watch: ([FilePath], WatchOptions) -> Signal<FileEvent>
    ) -> Signal<VCSState> {
        guard !repositories.isEmpty else { return Signal.just(VCSState()) }
        var options = WatchOptions(include: VCSState.watchedNames, useVCSIgnore: false, useProjectIgnore: false,
                                   useGlobalIgnore: false, useDefaultIgnore: false, onRootDeleted: .waitForReappearance, recursive: false)
        // What is there now arrives first, as `created`, in step with the watches.
        options.reportsExisting = true
        // A lock counts from the moment it exists.
        options.coalescesSaves = false
        options.endsWritesUnder = repositories.map(\.top)
        return watch(repositories.map(\.stateDirectory), options)
            .scan(VCSTracker(repositories)) { tracker, event in tracker.applying(event) }
            .map(\.state)
            .startWith(VCSState())
            .distinctUntilChanged()
    }

    /// `vcsState(for:)` for paths given as text.
    public static func vcsState(for paths: [String]) -> Signal<VCSState> {
        vcsState(for: paths.map { FilePath($0) })
    }
}

/// The markers present in each repository's state directory, kept from
/// the events that create and remove them.
struct VCSTracker: Sendable {
    private let repositories: [Repository]
    private var present: [FilePath: Set<String>] = [:]

    init(_ repositories: [Repository]) {
        self.repositories = repositories
    }

    func applying(_ event: FileEvent) -> VCSTracker {
        var next = self
        if event.kind == .overflow {
            // Events were lost: look again.
            next.present = [:]
            for repository in repositories {
                for name in VCSState.watchedNames where FileSystem.kind(repository.stateDirectory.appending(name)) != .missing {
                    next.present[repository.stateDirectory, default: []].insert(name)
                }
            }
            return next
        }
        let directory = FileSystem.parent(event.path)
        guard let name = event.path.lastComponent?.matchingText else { return next }
        switch event.kind {
        case .created, .movedTo, .modified, .closedWrite:
            next.present[directory, default: []].insert(name)
        case .deleted, .movedFrom:
            next.present[directory]?.remove(name)
        case .attributes, .overflow:
            break
        }
        return next
    }

    var state: VCSState {
        var operations: [VCSState.Operation] = []
        for repository in repositories {
            for name in (present[repository.stateDirectory] ?? []).sorted() {
                if let kind = VCSState.marker(name, in: repository.kind) {
                    let operation = VCSState.Operation(kind: kind, repository: repository.top)
                    if !operations.contains(operation) { operations.append(operation) }
                }
            }
        }
        return VCSState(operations: operations)
    }
}
