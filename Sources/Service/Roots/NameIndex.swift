/// Finds an entry by its directory and name: an open-addressing hash table
/// of entry ids (linear probing, 4 bytes a slot, at most 70% full), whose
/// keys live in the entries themselves. Callers pass each key's hash and a
/// test of an id against the key, so the index holds nothing but ids.
struct NameIndex: Sendable {
    private var slots: [Int32]
    private var mask: Int
    private(set) var count = 0

    /// Holds nothing and allocates nothing: what stands in the table while
    /// the real index is being changed.
    static let placeholder = NameIndex(slots: [])

    private init(slots: [Int32]) {
        self.slots = slots
        mask = 0
    }

    init(capacity: Int = 1024) {
        var size = 16
        while size * 7 / 10 < capacity { size *= 2 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    /// The hash of a name in the directory `parent` (FNV-1a, 64 bits).
    static func hash(parent: Int32, _ name: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var parentBits = UInt32(bitPattern: parent)
        for _ in 0..<4 {
            hash = (hash ^ UInt64(parentBits & 0xFF)) &* 0x100_0000_01b3
            parentBits >>= 8
        }
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// The id whose key hashes to `hash` and passes `isKey`.
    func find(_ hash: Int, _ isKey: (Int32) -> Bool) -> Int32? {
        var slot = hash & mask
        while true {
            let id = slots[slot]
            if id < 0 { return nil }
            if isKey(id) { return id }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `id` (absent) under `hash`; `hashOf` gives any stored id's
    /// hash, for growing.
    mutating func insert(_ id: Int32, _ hash: Int, hashOf: (Int32) -> Int) {
        if (count + 1) * 10 > slots.count * 7 { grow(hashOf) }
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = id
        count += 1
    }

    /// Removes `id`, stored under `hash`, moving back the ids after it
    /// that would no longer be found past the hole.
    mutating func remove(_ id: Int32, _ hash: Int, hashOf: (Int32) -> Int) {
        var slot = hash & mask
        while slots[slot] != id {
            guard slots[slot] >= 0 else { return }
            slot = (slot + 1) & mask
        }
        var hole = slot
        var next = (hole + 1) & mask
        while slots[next] >= 0 {
            let home = hashOf(slots[next]) & mask
            // Move it back unless its home lies cyclically in (hole, next].
            let between = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !between {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = -1
        count -= 1
    }

    private mutating func grow(_ hashOf: (Int32) -> Int) {
        let old = slots
        slots = [Int32](repeating: -1, count: old.count * 2)
        mask = slots.count - 1
        for id in old where id >= 0 {
            var slot = hashOf(id) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = id
        }
    }
}
