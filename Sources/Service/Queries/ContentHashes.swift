import Glibc
import Signals

/// `content.sha1hex` of files, remembered per path while the file's inode,
/// size and mtime stay the same, so a query asking again reads nothing.
/// At most `capacity` digests are kept (`content_hash_max_items`): the
/// oldest go first. Thread-safe; files are read outside the lock.
final class ContentHashes: Sendable {
    struct Key: Hashable, Sendable {
        var path: [UInt8]
        var ino: UInt64
        var size: Int64
        var mtime: Int64
    }

    /// Counters, as watchman's `debug-contenthash` shows them.
    struct Statistics: Sendable, Equatable {
        var size = 0, hits = 0, misses = 0, stores = 0
    }

    private struct State {
        var digests: [Key: (digest: String, age: Int)] = [:]
        /// Keys in the order stored (with the age they were stored at), oldest first from `head`.
        var order: [(key: Key, age: Int)] = []
        var head = 0
        var age = 0
        var statistics = Statistics()
    }

    private let state = Locked(State())
    let capacity: Int

    /// watchman's default `content_hash_max_items`.
    static let defaultCapacity = 131_072

    init(capacity: Int = ContentHashes.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.size = state.digests.count
            return statistics
        }
    }

    /// The hex digest of the regular file at `path` as `key` describes
    /// it, or why it cannot be had (the error text for the field).
    func digest(_ path: [UInt8], ino: UInt64, size: Int64, mtime: Int64) -> Result<String, HashError> {
        let key = Key(path: path, ino: ino, size: size, mtime: mtime)
        let known: String? = state.withLock { state in
            guard let found = state.digests[key] else {
                state.statistics.misses += 1
                return nil
            }
            state.statistics.hits += 1
            return found.digest
        }
        if let known { return .success(known) }
        let computed = Self.hashFile(path)
        if case .success(let digest) = computed { store(key, digest) }
        return computed
    }

    private func store(_ key: Key, _ digest: String) {
        state.withLock { state in
            state.age += 1
            state.digests[key] = (digest, state.age)
            state.order.append((key, state.age))
            state.statistics.stores += 1
            while state.digests.count > capacity, state.head < state.order.count {
                let (oldest, age) = state.order[state.head]
                state.head += 1
                if state.digests[oldest]?.age == age { state.digests[oldest] = nil }
            }
            if state.head > 1024, state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// Why a file has no digest.
    struct HashError: Error, Sendable, Equatable, CustomStringConvertible {
        var description: String
    }

    /// Reads the file at `path` (not following a final symlink) and hashes it.
    static func hashFile(_ path: [UInt8]) -> Result<String, HashError> {
        let fd = path.withUnsafeBufferPointer { bytes -> Int32 in
            var cString = Array(bytes) + [0]
            return cString.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
            }
        }
        guard fd >= 0 else { return .failure(HashError(description: "\(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var hasher = SHA1()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(HashError(description: "\(String(cString: strerror(errno)))"))
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        return .success(hasher.finish())
    }
}
