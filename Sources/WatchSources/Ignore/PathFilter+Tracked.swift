import SystemPackage

/// What git tracks, kept whatever git's rule files say (`TrackedFiles`): a
/// tracked file that a pattern matches is reported, and a directory the
/// rules ignore is watched when git tracks something in it, for those
/// files only.
extension PathFilter {
    /// Takes what git tracks among the paths its rules ignore (as
    /// `TrackedFiles.load` found it); true when what this filter keeps
    /// changed, so what is watched must be planned anew.
    @discardableResult
    mutating func setTracked(_ files: TrackedFiles) -> Bool {
        guard files != tracked else { return false }
        tracked = files
        var found = Set<[UInt8]>()
        for path in files.paths {
            guard var relative = belowRoot(path) else { continue }
            found.insert(Array(relative))
            // The directories on the way, up to one already kept (its own are then too).
            while let slash = relative.lastIndex(of: UInt8(ascii: "/")) {
                relative = relative[..<slash]
                if !found.insert(Array(relative)).inserted { break }
            }
        }
        let changed = found != kept
        kept = found
        refreshEntered()
        return changed
    }

    /// Works out `entered` again, after the rules or `kept` changed: each
    /// kept directory that git's rules ignore by its own name, and each
    /// kept directory below one, shallowest first.
    mutating func refreshEntered() {
        entered = [:]
        guard !kept.isEmpty, !git.isEmpty else { return }
        let files = Set(tracked.paths.compactMap { belowRoot($0).map(Array.init) })
        let directories = kept.subtracting(files).sorted { $0.count < $1.count }
        for directory in directories {
            let path = FilePath(bytes: directory)
            if let decision = gitDecision(path, isDirectory: true), decision.ignores, !PathFilter.isDotIgnore(decision) {
                entered[directory] = IgnoreReason(source: .file(path: decision.file.path, line: decision.pattern.line),
                                                  pattern: decision.pattern.text, directory: root.pushing(path))
            } else if let slash = directory.lastIndex(of: UInt8(ascii: "/")), let outer = entered[Array(directory[..<slash])] {
                entered[directory] = outer
            }
        }
    }

    /// The rule of the ignored directory holding `relative`, when that
    /// directory is watched only for what git tracks and `relative` is
    /// not one of those paths.
    func enteredReason(_ relative: FilePath) -> IgnoreReason? {
        relative.withBytes { bytes -> IgnoreReason? in
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")),
                  let reason = entered[Array(bytes[..<slash])], !kept.contains(Array(bytes)) else { return nil }
            return reason
        }
    }

    /// Whether `decision` comes from an `.ignore` file: not git's, so what
    /// git tracks does not outweigh it.
    static func isDotIgnore(_ decision: IgnoreRules.Decision) -> Bool {
        decision.file.path.lastComponent == ignoreName
    }

    /// `path` (from the top) below the root, or nil when it is not below it.
    func belowRoot(_ path: [UInt8]) -> ArraySlice<UInt8>? {
        if prefixBytes.isEmpty { return path.isEmpty ? nil : path[...] }
        guard path.count > prefixBytes.count + 1, path.starts(with: prefixBytes),
              path[prefixBytes.count] == UInt8(ascii: "/") else { return nil }
        return path[(prefixBytes.count + 1)...]
    }
}
