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

    @Test func manyLinesArriveInOrder() {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let count = Locked(0)
        let inOrder = Locked(true)
        let done = Locked(false)
        let subscription = Stdin.lines(from: ends[0]).subscribe(
            onNext: { line in
                count.withLock { seen in
                    if line != String(seen) { inOrder.withLock { $0 = false } }
                    seen += 1
                }
            },
            onCompleted: { done.withLock { $0 = true } }
        )
        defer { subscription.dispose() }
        // The reader drains the pipe on its own thread, so these writes go through.
        let text = Array((0..<200_000).map { "\($0)\n" }.joined().utf8)
        var offset = 0
        while offset < text.count {
            let written = text[offset...].withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            #expect(written > 0)
            if written <= 0 { break }
            offset += written
        }
        close(ends[1])
        #expect(eventually { done.withLock { $0 } })
        #expect(count.withLock { $0 } == 200_000)
        #expect(inOrder.withLock { $0 })
    }
}
