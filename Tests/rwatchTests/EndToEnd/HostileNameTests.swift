import Glibc
import Testing
import TestSupport

/// File names that are not UTF-8, or that hold control characters, through
/// the real binary: they reach commands byte for byte, and the terminal
/// escaped, one event per line.
@Suite struct HostileNameTests {
    /// `bad\xff\xfe\xc3(.txt`: three bytes that are not part of valid UTF-8.
    static let badName: [UInt8] = Array("bad".utf8) + [0xFF, 0xFE, 0xC3] + Array("(.txt".utf8)
    /// How JSON writes it: each stray byte as a lone surrogate escape (PEP 383).
    static let badNameJSON = #"bad\udcff\udcfe\udcc3(.txt"#
    /// A name that would colour the terminal red and split a line in two.
    static let evilName = "evil\u{1B}[31mred\nnext\tline\u{7F}.txt"
    /// How a terminal shows it.
    static let evilNameShown = #"evil\e[31mred\nnext\tline\x7f.txt"#

    private func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map(Array.init)
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aNameThatIsNotUTF8ReachesEventsJSONAsSurrogateEscapes() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["events", "--json", "watched"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let path = scratch.file(bytes: Array("watched/".utf8) + Self.badName)
        // Then the event's time, which differs from line to line.
        let expected = #"{"path":""# + scratch.file("watched/") + Self.badNameJSON + #"","kind":"closedWrite","isDirectory":false,"time":"#
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { Scratch.write(bytes: path, "\(attempt)\n") }
            return lines(rwatch.stdoutBytes).contains { $0.starts(with: Array(expected.utf8)) }
        }, "\(text(rwatch.stdoutBytes))")
        // Every line is valid UTF-8.
        #expect(lines(rwatch.stdoutBytes).allSatisfy { String(validating: $0, as: UTF8.self) != nil })
    }

    @Test func aNameThatIsNotUTF8ReachesTheCommandByteForByte() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let directoryName = Array("d".utf8) + [0xFF]
        Scratch.makeDirectory(bytes: scratch.file(bytes: Array("watched/".utf8) + directoryName))
        let script = #"printf %s "$RWATCH_PATHS" > paths; printf %s "$RWATCH_COMMON_PATH" > common; cat "$RWATCH_EVENTS_FILE" > events"#
        let rwatch = RWatch(["-p", "-1", "-w", "watched", "-d", "100ms", "--", "sh", "-c", script], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let directory = scratch.file(bytes: Array("watched/".utf8) + directoryName)
        let path = directory + [UInt8(ascii: "/")] + Self.badName
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { Scratch.write(bytes: path, "\(attempt)\n") }
            return rwatch.exitStatus() != nil
        })
        #expect(rwatch.exitStatus() == 0, "\(rwatch.stderr)")
        let paths = Scratch.readBytes(scratch.file("paths"))
        let common = Scratch.readBytes(scratch.file("common"))
        #expect(paths == path, "RWATCH_PATHS: \(text(paths).debugDescription)")
        #expect(common == directory, "RWATCH_COMMON_PATH: \(text(common).debugDescription)")
        let jsonPath = scratch.file("watched/d") + #"\udcff/"# + Self.badNameJSON
        let events = lines(Scratch.readBytes(scratch.file("events")))
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { String(validating: $0, as: UTF8.self) != nil })
        #expect(events.map(text).allSatisfy { $0.hasPrefix(#"{"path":""# + jsonPath + #"","kind":""#) }, "\(events.map(text))")
    }

    @Test func controlCharactersInNamesAreEscapedInEventsOutput() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["events", "watched"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let expected = "closedWrite " + scratch.file("watched/") + Self.evilNameShown
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/" + Self.evilName, "\(attempt)\n") }
            return lines(rwatch.stdoutBytes).contains(Array(expected.utf8))
        }, "\(text(rwatch.stdoutBytes).debugDescription)")
        // One event, one line: the name's newline did not split it.
        let output = lines(rwatch.stdoutBytes).map(text)
        #expect(!rwatch.stdoutBytes.contains(0x1B))
        #expect(output.allSatisfy { $0.hasSuffix(Self.evilNameShown) }, "\(output.prefix(4))")
    }

    @Test func controlCharactersInNamesAreEscapedInStatusLines() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["-p", "-1", "-w", "watched", "-d", "100ms", "--", "true"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/" + Self.evilName, "\(attempt)\n") }
            return rwatch.exitStatus() != nil
        })
        let stderr = rwatch.stderrBytes
        #expect(!stderr.contains(0x1B) && !stderr.contains(0x7F) && !stderr.contains(0x09), "\(text(stderr).debugDescription)")
        #expect(lines(stderr).map(text).contains("rwatch: watched/\(Self.evilNameShown) changed → true"), "\(text(stderr).debugDescription)")
    }

    @Test func tailPrefixesEscapeControlCharacters() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("a.log", "")
        scratch.write(Self.evilName, "")
        let rwatch = RWatch(["tail", "a.log", Self.evilName], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually {
            scratch.append(Self.evilName, "hello\n")
            return !rwatch.stdoutBytes.isEmpty
        })
        #expect(lines(rwatch.stdoutBytes).first.map(text) == Self.evilNameShown + ": hello", "\(text(rwatch.stdoutBytes).debugDescription)")
        #expect(!rwatch.stdoutBytes.contains(0x1B))
    }
}

/// Paths typed on rwatch's command line that are not UTF-8: the parser sees
/// them decoded, the file system and the command get the bytes.
@Suite struct CommandLineBytesTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aWatchedPathAndACommandWordThatAreNotUTF8AreKeptAsTyped() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let directory = Array("d".utf8) + [0xFF]
        Scratch.makeDirectory(bytes: scratch.file(bytes: directory))
        let word = Array("arg".utf8) + [0xFE, 0xC3] + Array("(".utf8)
        let script = #"printf %s "$1" > argument; printf %s "$RWATCH_PATHS" > paths; printf %s "$LEGACY" > legacy"#
        let arguments = ["-p", "-1", "-w"].map { Array($0.utf8) } + [directory]
            + ["-d", "100ms", "--", "sh", "-c", script, "sh"].map { Array($0.utf8) } + [word]
        let rwatch = RWatch(bytes: arguments, in: scratch.path, environmentBytes: ["LEGACY": [0x6F, 0xFF]], scratch: scratch)
        defer { rwatch.interrupt() }
        let file = scratch.file(bytes: directory + Array("/f".utf8))
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { Scratch.write(bytes: file, "\(attempt)\n") }
            return rwatch.exitStatus() != nil
        })
        #expect(rwatch.exitStatus() == 0, "\(rwatch.stderr)")
        let argument = Scratch.readBytes(scratch.file("argument"))
        let paths = Scratch.readBytes(scratch.file("paths"))
        let legacy = Scratch.readBytes(scratch.file("legacy"))
        #expect(argument == word, "argv: \(text(argument).debugDescription)")
        #expect(paths == file, "RWATCH_PATHS: \(text(paths).debugDescription)")
        // An inherited variable that is not UTF-8 passes through unchanged.
        #expect(legacy == [0x6F, 0xFF], "LEGACY: \(text(legacy).debugDescription)")
    }

    /// Status lines name the command by its words as the child gets them:
    /// a byte that is not UTF-8 is `\xNN`, as in every other line, not
    /// U+FFFD (which made `a\xfeb` and `a\xffb` look the same).
    @Test func aCommandWordThatIsNotUTF8IsShownEscapedInStatusLines() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let word = Array("a".utf8) + [0xFF] + Array("b".utf8)
        let rwatch = RWatch(bytes: ["-1", "--", "sh", "-c", "true"].map { Array($0.utf8) } + [word], in: scratch.path, scratch: scratch)
        #expect(rwatch.waitForExit() == 0)
        #expect(rwatch.stderr.contains(#"starting sh -c true 'a\xffb'"#), "\(rwatch.stderr.debugDescription)")
        #expect(!rwatch.stderr.contains("\u{FFFD}"))
    }

    @Test func aMissingPathThatIsNotUTF8IsNamedEscaped() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = RWatch(bytes: [Array("events".utf8), Array("no".utf8) + [0xFF, 0x1B] + Array("[31m".utf8)], in: scratch.path, scratch: scratch)
        #expect(rwatch.waitForExit() == 2)
        #expect(rwatch.stderr.contains(#"no such file or directory: 'no\xff\e[31m'"#), "\(rwatch.stderr.debugDescription)")
        #expect(!rwatch.stderrBytes.contains(0x1B))
    }
}
