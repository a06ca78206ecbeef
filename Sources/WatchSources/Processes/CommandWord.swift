import SystemPackage

/// One argument of a command, as the bytes the child gets in its argv:
/// text, or a path, which need not be UTF-8 (a file name is bytes).
///
///     ProcessSource.run(["wc", "-l", .path(event.path)])
///
/// A string literal is a word, so an array of literals and paths reads like
/// a command line. On a terminal a word is shown escaped (`description`).
public struct CommandWord: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The bytes the child gets (without a terminating NUL).
    public var bytes: [UInt8]

    /// The word `text`, as UTF-8.
    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The word made of `path`'s bytes, exactly.
    public init(_ path: FilePath) {
        bytes = path.bytes
    }

    /// The word made of `bytes`, exactly.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    /// The word made of `path`'s bytes: `["cat", .path(event.path)]`.
    public static func path(_ path: FilePath) -> CommandWord {
        CommandWord(path)
    }

    /// The word as text, bytes that are not UTF-8 replaced by U+FFFD: for
    /// names and messages (a program's name, `RunResult.arguments`), never
    /// for what the child gets.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The word escaped for a terminal (`Quoted.escaped`).
    public var description: String { Quoted.escaped(bytes: bytes) }
}
