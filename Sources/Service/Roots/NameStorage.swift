/// The bytes of every name in a table, appended in 64 KiB chunks (a name
/// never spans two), so that growing never copies what is stored and an
/// entry refers to its name with a 32-bit offset and an 8-bit length
/// (Linux names are at most 255 bytes).
struct NameStorage: Sendable {
    static let chunkSize = 1 << 16

    private var chunks: [[UInt8]] = []
    /// Bytes of names no entry refers to any more (their entries were aged out).
    private(set) var garbage = 0
    /// Bytes stored, garbage included.
    private(set) var used = 0

    /// Stores `name` (at most 255 bytes) and returns its offset.
    mutating func append(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 {
        precondition(name.count <= 255, "a file name is at most 255 bytes")
        if chunks.isEmpty || chunks[chunks.count - 1].count + name.count > Self.chunkSize {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        let offset = last * Self.chunkSize + chunks[last].count
        chunks[last].append(contentsOf: name)
        used += name.count
        return UInt32(offset)
    }

    /// Calls `body` with the name stored at `offset`.
    func withName<R>(_ offset: UInt32, _ length: UInt8, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let chunk = Int(offset) / Self.chunkSize, start = Int(offset) % Self.chunkSize
        return try chunks[chunk].withUnsafeBufferPointer { bytes in
            try body(UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(length))]))
        }
    }

    /// Notes that a name of `length` bytes is no longer referred to.
    mutating func release(_ length: UInt8) {
        garbage += Int(length)
    }

    /// Whether rebuilding would free enough to be worth it.
    var wantsCompaction: Bool { garbage > 1 << 20 && garbage * 2 > used }
}
