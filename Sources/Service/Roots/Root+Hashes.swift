import Dispatch

extension Root {
    /// Whether `content_hash_warming` asks for digests ahead of queries.
    var warmsHashes: Bool {
        state.withLock { state in
            if case .bool(true)? = state.configuration.value("content_hash_warming") { return true }
            return false
        }
    }

    /// With `content_hash_warming`, computes in the background the digests
    /// of the regular files at `relatives` (every file when nil), up to the
    /// cache's capacity, so that a query for `content.sha1hex` reads nothing.
    func warmHashes(_ relatives: [[UInt8]]?) {
        guard warmsHashes else { return }
        let table = state.withLock { $0.table }
        var files: [(path: [UInt8], entry: FileEntry, details: FileStat)] = []
        if let relatives {
            for relative in relatives {
                guard let id = relative.withUnsafeBufferPointer({ table.lookup(path: $0) }) else { continue }
                files.append((absolute(relative), table[id], table.details(of: table[id])))
            }
        } else {
            var paths = PathBuilder()
            for id in 1..<table.idLimit where table.isLive(id) && table[id].type == .regular {
                files.append((absolute(paths.path(of: id, in: table)), table[id], table.details(of: table[id])))
                if files.count >= hashes.capacity { break }
            }
        }
        let work = files.filter { $0.entry.exists && $0.entry.type == .regular }
        guard !work.isEmpty else { return }
        let hashes = hashes
        DispatchQueue.global(qos: .utility).async {
            for (path, entry, details) in work { _ = hashes.digest(path, ino: details.ino, size: details.size, mtime: entry.mtime) }
        }
    }
}
