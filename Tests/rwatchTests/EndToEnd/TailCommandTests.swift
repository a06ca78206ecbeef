import Glibc
import Testing
import TestSupport

/// `rwatch tail FILE… --grep REGEX` through the real binary.
@Suite struct TailCommandTests {
    @Test func keepsOnlyMatchingLinesCaseInsensitively() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("app.log", "INFO started\nERROR disk full\n")
        let rwatch = RWatch(["tail", "app.log", "--from-start", "--grep", "error|warn"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stdout == "ERROR disk full\n" })
        scratch.append("app.log", "INFO fine\nwarning: slow\nnot an err0r\n")
        #expect(eventually { rwatch.stdout == "ERROR disk full\nwarning: slow\n" }, "\(rwatch.stdout)")
    }

    @Test func severalFilesArePrefixedWithTheirPath() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("a.log", "")
        let rwatch = RWatch(["tail", "a.log", "b.log", "--grep", "^GET", "--case-sensitive"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // b.log appears later; a.log's lines go out once the follower is in place.
        #expect(eventually {
            scratch.append("a.log", "GET /a\nget /lower\n")
            return rwatch.stdout.hasPrefix("a.log: GET /a\n")
        })
        scratch.write("b.log", "POST /b\nGET /b\n")
        #expect(eventually { rwatch.stdout.hasSuffix("\nb.log: GET /b\n") })
        #expect(!rwatch.stdout.contains("lower") && !rwatch.stdout.contains("POST"))
    }
}
