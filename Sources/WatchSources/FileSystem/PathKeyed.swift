#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A path as a hash key, hashed and compared as one block of bytes.
/// `FilePath`'s own `Hashable` feeds the hasher a byte at a time, which
/// shows on every event where the watcher looks a path up.
struct PathKey: Hashable {
    let path: FilePath

    init(_ path: FilePath) { self.path = path }

    func hash(into hasher: inout Hasher) {
        path.withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (lhs: PathKey, rhs: PathKey) -> Bool {
        lhs.path.length == rhs.path.length && lhs.path.withBytes { left in
            rhs.path.withBytes { right in memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
        }
    }
}

/// A dictionary keyed by paths (through `PathKey`), used like `[FilePath: Value]`.
struct PathDictionary<Value>: Sequence {
    private var storage: [PathKey: Value] = [:]

    init() {}

    subscript(path: FilePath) -> Value? {
        get { storage[PathKey(path)] }
        set { storage[PathKey(path)] = newValue }
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }
    mutating func removeAll() { storage.removeAll() }

    func makeIterator() -> some IteratorProtocol<(FilePath, Value)> {
        storage.lazy.map { ($0.key.path, $0.value) }.makeIterator()
    }
}

/// A set of paths (through `PathKey`), used like `Set<FilePath>`; a
/// removal from an empty set hashes nothing.
struct PathSet: Sequence {
    private var storage: Set<PathKey> = []

    init() {}

    func makeIterator() -> some IteratorProtocol<FilePath> {
        storage.lazy.map(\.path).makeIterator()
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }

    func contains(_ path: FilePath) -> Bool { !storage.isEmpty && storage.contains(PathKey(path)) }

    @discardableResult
    mutating func insert(_ path: FilePath) -> Bool { storage.insert(PathKey(path)).inserted }

    /// The path, if it was in the set.
    @discardableResult
    mutating func remove(_ path: FilePath) -> FilePath? {
        guard !storage.isEmpty else { return nil }
        return storage.remove(PathKey(path))?.path
    }

    mutating func removeAll() { storage.removeAll() }
}
