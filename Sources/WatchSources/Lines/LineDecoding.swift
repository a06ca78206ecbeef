/// Making a line's `String`, the one copy a kept line costs.
extension LineSplitter {
    /// The line's text, invalid UTF-8 replaced (U+FFFD): the initializer
    /// used checks the bytes once and repairs them if needed.
    @inline(__always)
    static func decode(_ line: UnsafeRawBufferPointer) -> String {
        let count = line.count
        guard count > 0 else { return "" }
        guard count <= 15 else {
            return String(unsafeUninitializedCapacity: count) { buffer in
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: line.baseAddress!, byteCount: count)
                return count
            }
        }
        // A short line fits in the string itself (a "small string", read
        // back as two 8-byte words). Writing it byte by byte makes those
        // reads wait for the bytes to reach the cache (a store-to-load
        // forwarding stall), which cost more than all else per line of
        // `seq`; so it goes in as whole words, read without going past it.
        return String(unsafeUninitializedCapacity: 15) { buffer in
            let target = UnsafeMutableRawPointer(buffer.baseAddress!)
            let source = line.baseAddress!
            if count <= 8 {
                target.storeBytes(of: word(source, count).littleEndian, as: UInt64.self)
            } else {
                // The last 8 bytes, then the first 8 (overlapping them).
                target.storeBytes(of: (source + count - 8).loadUnaligned(as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
                target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            }
            return count
        }
    }

    /// Bytes `0..<count` (1...8) at `source` as a little-endian word,
    /// zero above them, reading nothing past `count`.
    @inline(__always)
    private static func word(_ source: UnsafeRawPointer, _ count: Int) -> UInt64 {
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: source.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: (source + count - 4).loadUnaligned(as: UInt32.self)))
            return low | high << UInt64(8 * (count - 4))
        }
        let middle = count >> 1
        return UInt64(source.load(as: UInt8.self))
            | UInt64(source.load(fromByteOffset: middle, as: UInt8.self)) << UInt64(8 * middle)
            | UInt64(source.load(fromByteOffset: count - 1, as: UInt8.self)) << UInt64(8 * (count - 1))
    }
}
