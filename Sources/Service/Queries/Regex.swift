import CPCRE2
import Signals

/// The pattern of a `pcre` or `ipcre` term: a Perl-compatible regular
/// expression (PCRE2, its 8-bit library, no UTF mode), matched against a
/// name's bytes, unanchored: `["pcre", "^test_"]` finds `test_plan.php`.
/// `ipcre` and `case_sensitive: false` compile it caseless (ASCII letters,
/// as the bytes of a name are matched without UTF mode).
final class Regex: @unchecked Sendable {
    // Safety: `code` is never changed after `init`; the match data, the
    // one mutable part, is only touched inside `scratch.withLock`.
    private let code: OpaquePointer
    private let scratch: Locked<OpaquePointer>

    /// Compiles `pattern`; the error reads as watchman's: `invalid pcre:
    /// code 114 missing closing parenthesis at offset 1 in (`.
    init(_ pattern: [UInt8], caseless: Bool, term: String) throws(QueryError) {
        var errorCode: Int32 = 0
        var offset = 0
        let compiled = pattern.withUnsafeBufferPointer { buffer in
            pcre2_compile_8(buffer.baseAddress, buffer.count, caseless ? UInt32(PCRE2_CASELESS) : 0, &errorCode, &offset, nil)
        }
        guard let compiled else {
            var message = [UInt8](repeating: 0, count: 256)
            let length = pcre2_get_error_message_8(errorCode, &message, message.count)
            let text = String(decoding: message.prefix(max(0, Int(length))), as: UTF8.self)
            throw .parse("invalid \(term): code \(errorCode) \(text) at offset \(offset) in \(String(decoding: pattern, as: UTF8.self))")
        }
        guard let data = pcre2_match_data_create_from_pattern_8(compiled, nil) else {
            pcre2_code_free_8(compiled)
            throw .parse("invalid \(term): out of memory")
        }
        code = compiled
        scratch = Locked(data)
    }

    deinit {
        scratch.withLock { pcre2_match_data_free_8($0) }
        pcre2_code_free_8(code)
    }

    /// A subject with an address for the empty name (PCRE2 wants one).
    private static let empty: [UInt8] = [0]

    /// Whether the pattern matches somewhere in `name`. An error of the
    /// matcher (a backtracking limit) counts as no match.
    func matches(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let subject = name.baseAddress else { return Regex.empty.withUnsafeBufferPointer { matches(UnsafeBufferPointer(start: $0.baseAddress, count: 0)) } }
        return scratch.withLock { data in
            pcre2_match_8(code, subject, name.count, 0, 0, data, nil) >= 0
        }
    }
}
