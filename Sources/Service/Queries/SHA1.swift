/// SHA-1 (FIPS 180-4), fed in pieces: what watchman's `content.sha1hex`
/// field reports for a file's bytes. Not for anything that must resist
/// collisions; it names contents the way git and watchman do.
struct SHA1 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var block = [UInt8](repeating: 0, count: 64)
    private var filled = 0
    private var length: UInt64 = 0

    /// Adds `bytes` to what is hashed.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var index = 0
        while index < bytes.count {
            let take = min(64 - filled, bytes.count - index)
            for offset in 0..<take { block[filled + offset] = bytes[index + offset] }
            filled += take
            index += take
            if filled == 64 {
                compress()
                filled = 0
            }
        }
    }

    /// The digest as 40 lowercase hex digits; the hasher is spent.
    mutating func finish() -> String {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        let padding = (filled + 1) % 64 <= 56 ? 56 - (filled + 1) % 64 : 120 - (filled + 1) % 64
        tail += [UInt8](repeating: 0, count: padding)
        tail += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        let total = length
        tail.withUnsafeBytes { update($0) }
        length = total
        let words = [state.0, state.1, state.2, state.3, state.4]
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        for word in words {
            for shift in stride(from: 28, through: 0, by: -4) { hex.append(digits[Int((word >> UInt32(shift)) & 0xF)]) }
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private mutating func compress() {
        var w = [UInt32](repeating: 0, count: 80)
        for i in 0..<16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16..<80 {
            let mixed = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
            w[i] = mixed << 1 | mixed >> 31
        }
        var (a, b, c, d, e) = state
        for i in 0..<80 {
            let (f, k): (UInt32, UInt32)
            switch i {
            case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
            (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}
