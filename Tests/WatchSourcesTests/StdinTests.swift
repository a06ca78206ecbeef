import Glibc
@testable import Signals
import Testing
@testable import WatchSources
import TestSupport

@Suite struct StdinTests {
    @Test func splitsLinesAndCompletesAtEndOfInput() {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let lines = Locked<[String]>([])
        let done = Locked(false)
        let subscription = Stdin.lines(from: ends[0]).subscribe(
            onNext: { line in lines.withLock { $0.append(line) } },
            onCompleted: { done.withLock { $0 = true } }
        )
        defer { subscription.dispose() }
        let text = "one\r\ntwo\n\nthree without newline"
        _ = text.utf8CString.withUnsafeBufferPointer { write(ends[1], $0.baseAddress, $0.count - 1) }
        close(ends[1])
        #expect(eventually { done.withLock { $0 } })
        #expect(lines.withLock { $0 } == ["one", "two", "", "three without newline"])
    }

    @Test func disposingStopsTheReaderPromptly() {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let done = Locked(false)
        let subscription = Stdin.lines(from: ends[0]).subscribe(onCompleted: { done.withLock { $0 = true } })
        subscription.dispose()
        _ = "late\n".utf8CString.withUnsafeBufferPointer { write(ends[1], $0.baseAddress, $0.count - 1) }
        // The reader thread has stopped: the line stays in the pipe for us.
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 16)
        var got = 0
        #expect(eventually {
            let count = read(ends[0], &buffer, buffer.count)
            if count > 0 { got += count }
            return got == 5
        })
        #expect(!done.withLock { $0 })
    }
}
