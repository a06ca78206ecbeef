#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A path's bytes, for what crosses into C, the environment of a child, a
/// JSON line or the terminal's escaping. A file name is bytes; it need not
/// be UTF-8, and nothing here decodes it.
extension FilePath {
    /// The path made of `bytes` (no NUL among them).
    package init(bytes: some Collection<UInt8>) {
        var chars = [CChar]()
        chars.reserveCapacity(bytes.count + 1)
        for byte in bytes { chars.append(CChar(bitPattern: byte)) }
        chars.append(0)
        self.init(platformString: chars)
    }

    /// The path as C gave it, e.g. a name in `readdir`'s or inotify's buffer.
    package init(cString: UnsafePointer<CChar>) {
        self.init(platformString: cString)
    }

    /// Calls `body` with the path's bytes (no terminating NUL), without copying.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let count = length
        return try withPlatformString { chars in
            try chars.withMemoryRebound(to: UInt8.self, capacity: count + 1) {
                try body(UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }

    /// The path's bytes.
    package var bytes: [UInt8] { withBytes { Array($0) } }

    /// The path as text for matching globs and ignore rules: bytes that are
    /// not UTF-8 become U+FFFD. Never for display (`Quoted`) or for
    /// anything handed on.
    package var matchingText: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}

extension FilePath.Component {
    /// The component made of `bytes`; nil when they are empty or hold a `/`.
    package init?(bytes: some Collection<UInt8>) {
        var chars = [CChar]()
        chars.reserveCapacity(bytes.count + 1)
        for byte in bytes { chars.append(CChar(bitPattern: byte)) }
        chars.append(0)
        self.init(platformString: chars)
    }

    /// Calls `body` with the name's bytes (no terminating NUL), without copying.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withPlatformString { chars in
            let count = strlen(chars)
            return try chars.withMemoryRebound(to: UInt8.self, capacity: count + 1) {
                try body(UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }

    /// The name's bytes.
    package var bytes: [UInt8] { withBytes { Array($0) } }

    /// The name as text for matching (bytes that are not UTF-8 become U+FFFD).
    package var matchingText: String { String(decoding: bytes, as: UTF8.self) }
}
