@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ProcessTableTests {
    @Test func statLinesWithOddCommandNamesParse() {
        let line = Array("4242 (a (b) c) S 1 4240 4200 0 -1 4194560 0 0 0 0".utf8)
        #expect(ProcessTable.parse(stat: line, pid: 4242) == ProcessTable.Entry(pid: 4242, state: "S", parent: 1, group: 4240, session: 4200))
    }
}
