/// Finds an entry by its directory and name: an open-addressing hash table
/// of entry ids (linear probing, 4 bytes a slot, at most 75% full, grown
/// by half again so that a large tree wastes little), whose keys live in
/// the entries themselves. Callers pass each key's hash and a test of an
/// id against the key, so the index holds nothing but ids.
struct NameIndex: Sendable {
    private var slots: [Int32]
    private(set) var count = 0

    /// Holds nothing and allocates nothing: what stands in the table while
    /// the real index is being changed.
    static let placeholder = NameIndex(slots: [])

    private init(slots: [Int32]) {
        self.slots = slots
    }

    init(capacity: Int = 1024) {
        slots = [Int32](repeating: -1, count: max(16, capacity * 4 / 3 + 1))
    }

    /// The hash of a name in the directory `parent` (FNV-1a over both,
    /// then mixed so that its high bits, which pick the slot, are good).
    static func hash(parent: Int32, _ name: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var parentBits = UInt32(bitPattern: parent)
        for _ in 0..<4 {
            hash = (hash ^ UInt64(parentBits & 0xFF)) &* 0x100_0000_01b3
            parentBits >>= 8
        }
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }

    /// The slot a hash starts probing at: the hash scaled to the table's
    /// size (any size, not only powers of two).
    @inline(__always)
    private func home(_ hash: Int) -> Int {
        Int(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)).multipliedFullWidth(by: UInt64(slots.count)).high)
    }

    @inline(__always)
    private func after(_ slot: Int) -> Int {
        slot + 1 == slots.count ? 0 : slot + 1
    }

    /// The id whose key hashes to `hash` and passes `isKey`.
    func find(_ hash: Int, _ isKey: (Int32) -> Bool) -> Int32? {
        guard !slots.isEmpty else { return nil }
        var slot = home(hash)
        while true {
            let id = slots[slot]
            if id < 0 { return nil }
            if isKey(id) { return id }
            slot = after(slot)
        }
    }

    /// Adds `id` (absent) under `hash`; `hashOf` gives any stored id's
    /// hash, for growing.
    mutating func insert(_ id: Int32, _ hash: Int, hashOf: (Int32) -> Int) {
        if (count + 1) * 4 > slots.count * 3 { grow(hashOf) }
        var slot = home(hash)
        while slots[slot] >= 0 { slot = after(slot) }
        slots[slot] = id
        count += 1
    }

    /// Removes `id`, stored under `hash`, moving back the ids after it
    /// that would no longer be found past the hole.
    mutating func remove(_ id: Int32, _ hash: Int, hashOf: (Int32) -> Int) {
        guard !slots.isEmpty else { return }
        var slot = home(hash)
        while slots[slot] != id {
            guard slots[slot] >= 0 else { return }
            slot = after(slot)
        }
        var hole = slot
        var next = after(hole)
        while slots[next] >= 0 {
            let start = home(hashOf(slots[next]))
            // Move it back unless its home lies cyclically in (hole, next].
            let between = hole <= next ? (start > hole && start <= next) : (start > hole || start <= next)
            if !between {
                slots[hole] = slots[next]
                hole = next
            }
            next = after(next)
        }
        slots[hole] = -1
        count -= 1
    }

    /// Half again as many slots, every id placed anew.
    private mutating func grow(_ hashOf: (Int32) -> Int) {
        let old = slots
        slots = [Int32](repeating: -1, count: max(16, old.count + old.count / 2))
        for id in old where id >= 0 {
            var slot = home(hashOf(id))
            while slots[slot] >= 0 { slot = after(slot) }
            slots[slot] = id
        }
    }
}
