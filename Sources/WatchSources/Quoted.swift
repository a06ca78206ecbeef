import SystemPackage

/// How rwatch shows a file name, a path or a command name on a terminal:
/// on one line, with nothing the terminal would act on. The one place that
/// escapes text from names for display (status lines, `rwatch events`,
/// `rwatch tail` prefixes, error messages).
///
/// Escaping is `ls -b`'s: a backslash is `\\`; newline, tab, carriage
/// return and escape are `\n`, `\t`, `\r`, `\e`; every other control
/// character (C0, DEL, C1) and every byte that is not part of valid UTF-8
/// is `\xNN`, one per byte. Printable text, non-ASCII letters included,
/// stays as it is.
///
///     Quoted.escaped("a\u{1B}[31m\nb")      // a\e[31m\nb
///     Quoted.path("/var/log/app.log")        // /var/log/app.log
///     Quoted.path("my logs/a\nb.log")        // 'my logs/a\nb.log'
public enum Quoted {
    /// `text` escaped for a terminal, without quotes.
    public static func escaped(_ text: String) -> String {
        var text = text
        return text.withUTF8 { escaped(bytes: $0) }
    }

    /// `path`'s bytes escaped for a terminal, without quotes.
    public static func escaped(_ path: FilePath) -> String {
        path.withBytes { escaped(bytes: $0) }
    }

    /// `bytes` (UTF-8 or not) escaped for a terminal, without quotes.
    public static func escaped(bytes: some Collection<UInt8>) -> String {
        if isShownAsIs(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var out = ""
        LenientUTF8.forEach(bytes) { append($0, to: &out, quoting: false) }
        return out
    }

    /// A whole message line as a terminal gets it: control characters
    /// escaped as `escaped(_:)` does, everything else (backslashes too, as
    /// the line may hold parts escaped already) as it is. The last guard
    /// of status, error and diagnostic lines: a name that reached one
    /// unescaped still cannot drive the terminal or split the line.
    public static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                append(.scalar(scalar), to: &out, quoting: false)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// For error messages: `text` as it is when plain, else in single
    /// quotes (spaces, quotes, anything escaped) with control characters escaped.
    public static func path(_ text: String) -> String {
        var text = text
        return text.withUTF8 { path(bytes: $0) }
    }

    /// `path(_:)` for a path that need not be UTF-8.
    public static func path(_ path: FilePath) -> String {
        path.withBytes { self.path(bytes: $0) }
    }

    private static func path(bytes: UnsafeBufferPointer<UInt8>) -> String {
        let plain = !bytes.isEmpty && !bytes.contains { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "'") } && isShownAsIs(bytes)
        if plain { return String(decoding: bytes, as: UTF8.self) }
        var out = "'"
        LenientUTF8.forEach(bytes) { append($0, to: &out, quoting: true) }
        return out + "'"
    }

    /// True when nothing in `bytes` needs an escape.
    private static func isShownAsIs(_ bytes: some Collection<UInt8>) -> Bool {
        if LenientUTF8.isPlainASCII(bytes) { return !bytes.contains(UInt8(ascii: "\\")) }
        var asIs = true
        LenientUTF8.forEach(bytes) { piece in
            guard asIs, case .scalar(let scalar) = piece, !needsEscape(scalar) else {
                asIs = false
                return
            }
        }
        return asIs
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || scalar == "\\" || isDeceptive(scalar)
    }

    /// Characters a terminal shows as nothing, or that change how the rest
    /// of the line reads: line and paragraph separators, the bidirectional
    /// overrides and isolates (a name ending `\u{202E}gpj.exe` reads as
    /// `exe.jpg`), the byte-order mark and noncharacters. `ls -b` leaves
    /// some of them be; a name is shown here as exactly what it is.
    private static func isDeceptive(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0xFDD0...0xFDEF: return true
        default: return scalar.value & 0xFFFE == 0xFFFE
        }
    }

    /// C0, DEL and C1.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func append(_ piece: LenientUTF8.Piece, to out: inout String, quoting: Bool) {
        switch piece {
        case .byte(let byte):
            hex(byte, to: &out)
        case .scalar(let scalar):
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{1B}": out += "\\e"
            case "'" where quoting: out += "\\'"
            default:
                if needsEscape(scalar) {
                    for byte in String(scalar).utf8 { hex(byte, to: &out) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// A line of someone else's text (a followed log) for a terminal, as
    /// `less -R` shows it: colours (SGR sequences, `ESC [ … m`) and tabs
    /// pass, every other control character is escaped as `escaped(_:)`
    /// escapes it. A log cannot clear the screen, move the cursor, set the
    /// window title or hide text behind a carriage return.
    public static func terminalLine(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { isControl($0) && $0 != "\t" }) else { return text }
        var out = ""
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", let end = sgrEnd(scalars, from: index) {
                out.unicodeScalars.append(contentsOf: scalars[index...end])
                index = end + 1
                continue
            }
            if scalar == "\t" || !isControl(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                append(.scalar(scalar), to: &out, quoting: false)
            }
            index += 1
        }
        return out
    }

    /// The index of the `m` that ends an SGR sequence starting at `start`
    /// (`ESC [`, digits, `;` or `:`, `m`), or nil.
    private static func sgrEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
        var index = start + 2
        while index < scalars.count, index - start < 64 {
            switch scalars[index] {
            case "0"..."9", ";", ":": index += 1
            case "m": return index
            default: return nil
            }
        }
        return nil
    }

    private static func hex(_ byte: UInt8, to out: inout String) {
        func digit(_ value: UInt8) -> Unicode.Scalar { Unicode.Scalar(value < 10 ? 0x30 + value : 0x57 + value) }
        out += "\\x"
        out.unicodeScalars.append(digit(byte >> 4))
        out.unicodeScalars.append(digit(byte & 0xF))
    }
}
