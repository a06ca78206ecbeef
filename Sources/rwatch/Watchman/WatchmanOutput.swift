import Glibc
import WatchmanProtocol

/// Where the watchman command's answers go: each PDU written whole to
/// stdout in the asked encoding (JSON indented for a terminal, else one
/// compact line per PDU, which `--persistent` readers split on).
struct WatchmanOutput {
    var encoding: WatchmanArguments.Encoding
    var pretty: Bool

    /// The bytes `value` is printed as.
    func bytes(_ value: WatchmanValue) -> [UInt8] {
        encoding == .json && pretty ? JSONLines.encodePretty(value) : encoding.wire.encode(value)
    }

    /// Writes `value` to stdout at once (a persistent reader waits for it).
    func write(_ value: WatchmanValue) {
        let bytes = bytes(value)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { exit(1) }  // stdout closed: nobody reads the answers
            written += count
        }
    }
}
