import Glibc
import SystemPackage
import Testing
import TestSupport
@testable import WatchSources

/// Names that are not UTF-8 reach subscribers byte for byte, through
/// inotify's names and through scans of new directories alike.
@Suite struct ByteNameTests {
    private static let bad: [UInt8] = Array("bad".utf8) + [0xFF, 0xFE, 0xC3] + Array("(.txt".utf8)

    private func path(_ bytes: [UInt8]) -> FilePath { FilePath(bytes: bytes) }

    @Test func aFileNameThatIsNotUTF8IsReportedByteForByte() {
        let dir = TempDir()
        defer { dir.remove() }
        let (recorder, subscription) = record([dir.path], options: .matching("*.txt"))
        defer { subscription.dispose() }
        let file = Array(dir.path.utf8) + [UInt8(ascii: "/")] + Self.bad
        TemporaryDirectory.write(bytes: file, "x\n")
        #expect(eventually { recorder.snapshot.contains { $0.kind == .closedWrite && $0.path == path(file) } })
        #expect(recorder.snapshot.allSatisfy { $0.path == path(file) })
    }

    @Test func aDirectoryThatIsNotUTF8IsWatchedAndScanned() {
        let dir = TempDir()
        defer { dir.remove() }
        let outside = TempDir()
        defer { outside.remove() }
        let name = Array("d".utf8) + [0xFF]
        // Made outside, with a file in it, then moved in: the scan reports the file.
        let staged = Array(outside.path.utf8) + [UInt8(ascii: "/")] + name
        TemporaryDirectory.makeDirectory(bytes: staged)
        TemporaryDirectory.write(bytes: staged + [UInt8(ascii: "/")] + Self.bad, "x\n")
        let (recorder, subscription) = record([dir.path])
        defer { subscription.dispose() }
        let moved = Array(dir.path.utf8) + [UInt8(ascii: "/")] + name
        #expect(path(staged).withPlatformString { from in path(moved).withPlatformString { rename(from, $0) } } == 0)
        let scanned = moved + [UInt8(ascii: "/")] + Self.bad
        #expect(eventually { recorder.has(.created, path(scanned)) })
        // And it is watched: a change inside it is reported under its name.
        let later = moved + Array("/later".utf8)
        TemporaryDirectory.write(bytes: later, "y\n")
        #expect(eventually { recorder.has(.closedWrite, path(later)) })
        #expect(recorder.failure.withLock { $0 } == nil)
    }

    @Test func theCommonRootOfABatchKeepsItsBytes() {
        let directory = path(Array("/p/d".utf8) + [0xFF])
        let batch = ChangeBatch([
            FileEvent(path: directory.appending("a"), kind: .modified),
            FileEvent(path: directory.appending("b"), kind: .modified),
        ])
        #expect(batch.commonRoot == directory)
    }
}
