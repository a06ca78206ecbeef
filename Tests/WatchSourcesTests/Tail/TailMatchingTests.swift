@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// `Tail.follow(_:from:matching:)`: only matching lines arrive, however
/// they are cut into writes.
@Suite struct TailMatchingTests {
    @Test func onlyMatchingLinesArrive() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "INFO ok\nERROR disk full\nINFO fine\n")
        let tail = TailRecorder(Tail.follow([log], from: .start, matching: try LinePattern("^ERROR|timeout")))
        defer { tail.dispose() }
        #expect(eventually { tail.texts == ["ERROR disk full"] })
        writeFile(log, "WARN slow\nINFO timeout after 3 s\r\n", append: true)
        #expect(eventually { tail.texts == ["ERROR disk full", "INFO timeout after 3 s"] })
    }

    @Test func aLineSplitAcrossWritesIsMatchedWhole() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log], matching: try LinePattern("status=5[0-9]{2}")))
        defer { tail.dispose() }
        writeFile(log, "GET / status=5", append: true)
        writeFile(log, "03 took=12ms\nGET / status=200\n", append: true)
        #expect(eventually { tail.texts == ["GET / status=503 took=12ms"] })
    }

    @Test func theLastLineOfARotatedFileIsMatchedToo() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "")
        let tail = TailRecorder(Tail.follow([log], matching: try LinePattern("error", ignoringCase: true)))
        defer { tail.dispose() }
        writeFile(log, "an ERROR without newline", append: true)
        #expect(rename(log, log + ".1") == 0)
        writeFile(log, "info\nerror in the new file\n")
        #expect(eventually { tail.texts == ["an ERROR without newline", "error in the new file"] }, "\(tail.texts)")
    }
}
