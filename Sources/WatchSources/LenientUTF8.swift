/// Bytes read as UTF-8 without losing any: each valid sequence gives its
/// scalar, each byte that is not part of valid UTF-8 is given back as is.
/// File names are bytes; this is how the display escaping (`Quoted`) and
/// JSON's surrogate escapes (`JSONLine`) see them.
package enum LenientUTF8 {
    /// One piece of the input.
    package enum Piece: Equatable {
        /// A valid UTF-8 sequence.
        case scalar(Unicode.Scalar)
        /// A byte that is not part of valid UTF-8 (a maximal invalid
        /// subpart is given byte by byte).
        case byte(UInt8)
    }

    /// Calls `body` with every piece of `bytes`, in order.
    package static func forEach(_ bytes: some Collection<UInt8>, _ body: (Piece) -> Void) {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var index = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                body(.scalar(Unicode.UTF8.decode(encoded)))
                index = bytes.index(index, offsetBy: encoded.count)
            case .error(let length):
                for _ in 0..<length {
                    body(.byte(bytes[index]))
                    index = bytes.index(after: index)
                }
            case .emptyInput:
                return
            }
        }
    }

    /// Whether `bytes` are printable ASCII only (no escaping needed anywhere).
    package static func isPlainASCII(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
