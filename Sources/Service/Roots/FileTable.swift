/// Everything a watched root has seen: one `FileEntry` per name (the root
/// itself is entry 0), each with its last `lstat`, the tick of the root's
/// clock at which it appeared (`cclock`) and last changed (`oclock`), and
/// whether it still exists. Deleted entries stay, `exists` false, until
/// `ageOut` forgets them.
///
/// The clock ticks once per batch of changes (`advance`): every change in
/// the batch gets that tick, so a query answered at tick T and a later one
/// `since` T see each change exactly once. Entries are kept in 4,096-entry
/// chunks (growing never copies them), found by name through `NameIndex`,
/// and listed newest first through `ChangeLog`.
///
/// Not thread-safe: its `Root` holds it under a lock.
struct FileTable: Sendable {
    static let chunkShift = 12
    static let chunkSize = 1 << chunkShift

    private var chunks: [[FileEntry]] = []
    private(set) var entryCount = 0
    private var freeIDs: [Int32] = []
    private(set) var names = NameStorage()
    private(set) var shared = SharedFields()
    private var index = NameIndex()
    var log = ChangeLog()
    var times = TickTimes()
    /// The current tick.
    var tick: UInt32 = 0
    /// The newest `oclock` among entries aged out: a clock before it is a fresh instance.
    var lastAgeOut: UInt32 = 0
    /// Whether changes go to `log` (not while a crawl fills the table).
    var logsChanges = true

    /// A table holding only the root directory, as `stat` describes it.
    init(root: FileStat) {
        let empty: [UInt8] = []
        let id = empty.withUnsafeBufferPointer { insertEntry(parent: -1, name: $0, root) }
        assert(id == 0)
        self[0].exists = true
    }

    // MARK: Entries

    subscript(id: Int32) -> FileEntry {
        get { chunks[Int(id) >> Self.chunkShift][Int(id) & (Self.chunkSize - 1)] }
        set { chunks[Int(id) >> Self.chunkShift][Int(id) & (Self.chunkSize - 1)] = newValue }
    }

    /// One past the highest id in use (some below may be free: `isLive`).
    var idLimit: Int32 { Int32(chunks.isEmpty ? 0 : (chunks.count - 1) * Self.chunkSize + chunks[chunks.count - 1].count) }

    /// Whether `id` holds an entry (it may have been aged out and freed).
    func isLive(_ id: Int32) -> Bool { id == 0 || (id < idLimit && self[id].parent >= 0) }

    /// Entries held, deleted ones included (the root counts).
    var count: Int { entryCount }

    func withName<R>(_ id: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let entry = self[id]
        return try names.withName(entry.nameOffset, entry.nameLength, body)
    }

    /// The entry's `lstat`, exactly as `lstat` gave it: what the entry
    /// keeps itself joined with its shared record.
    func details(of entry: FileEntry) -> FileStat {
        let record = shared[entry.shared]
        return FileStat(size: Int64(UInt64(record.sizeHigh) << 32 | UInt64(entry.sizeLow)),
                        ino: UInt64(record.inoHigh) << 32 | UInt64(entry.inoLow), dev: record.dev,
                        mode: UInt32(entry.mode), uid: record.uid, gid: record.gid,
                        nlink: UInt32(record.nlinkHigh) << 24 | entry.nlinkLow, mtime: entry.mtime, ctime: entry.ctime)
    }

    /// The entry's size (the `size` and `empty` terms).
    func size(of entry: FileEntry) -> Int64 {
        Int64(UInt64(shared[entry.shared].sizeHigh) << 32 | UInt64(entry.sizeLow))
    }

    /// The child `name` of the directory `parent`.
    func lookup(parent: Int32, _ name: UnsafeBufferPointer<UInt8>) -> Int32? {
        index.find(NameIndex.hash(parent: parent, name)) { id in
            let entry = self[id]
            return entry.parent == parent && Int(entry.nameLength) == name.count
                && names.withName(entry.nameOffset, entry.nameLength) { $0.elementsEqual(name) }
        }
    }

    /// The entry at `path` (relative to the root, `/`-separated; empty for the root).
    func lookup(path: UnsafeBufferPointer<UInt8>) -> Int32? {
        var id: Int32 = 0
        for component in path.split(separator: UInt8(ascii: "/")) {
            guard let child = UnsafeBufferPointer(rebasing: component).withMemoryRebound(to: UInt8.self, { lookup(parent: id, $0) }) else {
                return nil
            }
            id = child
        }
        return id
    }

    /// Runs `body` on the index, moved out of the table so that changing
    /// it copies nothing while `body` reads the entries' names.
    mutating func withIndex<R>(_ body: (inout NameIndex, borrowing FileTable) -> R) -> R {
        var taken = NameIndex.placeholder
        swap(&taken, &index)
        defer { swap(&taken, &index) }
        return body(&taken, self)
    }

    func hash(of id: Int32) -> Int {
        withName(id) { NameIndex.hash(parent: self[id].parent, $0) }
    }

    /// Adds an entry (not yet in the index) and returns its id.
    mutating func insertEntry(parent: Int32, name: UnsafeBufferPointer<UInt8>, _ stat: FileStat) -> Int32 {
        var entry = FileEntry()
        entry.parent = parent
        entry.nameOffset = names.append(name)
        entry.nameLength = UInt8(name.count)
        apply(stat, to: &entry)
        let id: Int32
        if let reused = freeIDs.popLast() {
            id = reused
            self[id] = entry
        } else {
            if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
                var chunk: [FileEntry] = []
                chunk.reserveCapacity(Self.chunkSize)
                chunks.append(chunk)
            }
            id = idLimit
            chunks[chunks.count - 1].append(entry)
        }
        entryCount += 1
        let key = NameIndex.hash(parent: parent, name)
        withIndex { index, table in index.insert(id, key) { table.hash(of: $0) } }
        return id
    }

    /// Copies what `stat` says into `entry` (its clocks untouched).
    mutating func apply(_ stat: FileStat, to entry: inout FileEntry) {
        entry.sizeLow = UInt32(truncatingIfNeeded: UInt64(max(0, stat.size)))
        entry.inoLow = UInt32(truncatingIfNeeded: stat.ino)
        entry.mtime = stat.mtime
        entry.ctime = stat.ctime
        entry.nlinkLow = stat.nlink
        entry.mode = UInt16(truncatingIfNeeded: stat.mode)
        entry.shared = shared.intern(SharedFields.Record(stat))
    }

    mutating func releaseName(_ length: UInt8) { names.release(length) }

    /// Makes the (already unlinked) `id` reusable.
    mutating func freeEntry(_ id: Int32) {
        freeIDs.append(id)
        entryCount -= 1
    }

    /// Rebuilds the name storage with only the names still referred to.
    mutating func compactNames() {
        var fresh = NameStorage()
        for id in 0..<idLimit where isLive(id) {
            let entry = self[id]
            self[id].nameOffset = names.withName(entry.nameOffset, entry.nameLength) { fresh.append($0) }
        }
        names = fresh
    }

    /// Forgets the change log: changes so far are found by scanning.
    mutating func resetLog() {
        log.reset(baseline: tick)
    }

    /// Whether `stat` says anything `entry` does not.
    func differs(_ entry: FileEntry, _ stat: FileStat) -> Bool {
        entry.inoLow != UInt32(truncatingIfNeeded: stat.ino) || entry.sizeLow != UInt32(truncatingIfNeeded: UInt64(max(0, stat.size)))
            || entry.mtime != stat.mtime || entry.ctime != stat.ctime || entry.nlinkLow != stat.nlink & 0x00FF_FFFF
            || UInt32(entry.mode) != stat.mode & 0xFFFF || shared[entry.shared] != SharedFields.Record(stat)
    }
}
