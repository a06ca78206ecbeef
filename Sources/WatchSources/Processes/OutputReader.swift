import Signals
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one thread that feeds a process subscription: it reads the child's
/// stdout and stderr pipes with `poll`, sends each line as it completes, and
/// sends `exited` once the whole group is gone and its output is drained.
///
/// Sending happens on this thread only and synchronously, so a slow
/// downstream stops the reading; the pipe fills and the child blocks in
/// `write`. That is the backpressure: memory holds at most one read buffer
/// and one unfinished line per stream.
final class OutputReader: Sendable {
    private let observer: Observer<ProcessEvent>
    private let group: ProcessGroup
    private let wake: WakePipe
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private let cancelled = Atomic<Bool>(false)

    static let bufferSize = 64 * 1024
    /// Reads per stream after the group is gone: what it wrote is all in the
    /// pipe by then; this only bounds a process that left the group (`setsid`)
    /// and keeps writing.
    static let drainLimit = 256

    init(observer: Observer<ProcessEvent>, group: ProcessGroup, stdout: Int32, stderr: Int32, wake: WakePipe) {
        self.observer = observer
        self.group = group
        self.stdoutFD = stdout
        self.stderrFD = stderr
        self.wake = wake
    }

    /// Starts the reading thread. Returns false if no thread could be made.
    func start() -> Bool {
        DetachedThread.start { self.run() }
    }

    /// Stops reading without sending anything more.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        wake.wake()
    }

    private struct Stream {
        var fd: Int32
        let isStdout: Bool
        var splitter = LineSplitter()
        var open: Bool { fd >= 0 }
    }

    private func run() {
        var streams: [Stream] = []
        if stdoutFD >= 0 { streams.append(Stream(fd: stdoutFD, isStdout: true)) }
        if stderrFD >= 0 { streams.append(Stream(fd: stderrFD, isStdout: false)) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        defer {
            buffer.deallocate()
            for stream in streams where stream.open { close(stream.fd) }
        }
        var pollSet: [pollfd] = []
        while !isCancelled {
            if group.isGone, let status = group.leaderExit {
                for index in streams.indices where streams[index].open {
                    drain(&streams[index], buffer)
                }
                if !isCancelled { observer.sendNext(.exited(status)) }
                if !isCancelled { observer.sendCompleted() }
                return
            }
            pollSet.removeAll(keepingCapacity: true)
            pollSet.append(pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0))
            for stream in streams where stream.open {
                pollSet.append(pollfd(fd: stream.fd, events: Int16(POLLIN), revents: 0))
            }
            if poll(&pollSet, nfds_t(pollSet.count), -1) < 0 { continue }  // EINTR
            if pollSet[0].revents != 0 { wake.drain() }
            for item in pollSet.dropFirst() where item.revents != 0 {
                guard let index = streams.firstIndex(where: { $0.fd == item.fd }) else { continue }
                readOnce(&streams[index], buffer)
                if isCancelled { return }
            }
        }
    }

    private var isCancelled: Bool {
        cancelled.load(ordering: .acquiring) || observer.isStopped
    }

    /// One read; false when the stream ended (EOF or error) or would block.
    @discardableResult
    private func readOnce(_ stream: inout Stream, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        let count = read(stream.fd, buffer.baseAddress, buffer.count)
        if count > 0 {
            let isStdout = stream.isStdout
            stream.splitter.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { line in
                let text = LineSplitter.decode(line)
                observer.sendNextFromSource(isStdout ? .stdout(text) : .stderr(text))
            }
            return true
        }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return false }
        end(&stream)
        return false
    }

    /// Reads whatever is buffered in the pipe without waiting for EOF (a
    /// process that left the group may hold the pipe open), then ends the stream.
    private func drain(_ stream: inout Stream, _ buffer: UnsafeMutableRawBufferPointer) {
        _ = fcntl(stream.fd, F_SETFL, O_NONBLOCK)
        var reads = 0
        while stream.open && reads < Self.drainLimit && !isCancelled {
            reads += 1
            if !readOnce(&stream, buffer) { break }
        }
        if stream.open { end(&stream) }
    }

    private func end(_ stream: inout Stream) {
        let isStdout = stream.isStdout
        stream.splitter.finish { line in
            let text = LineSplitter.decode(line)
            observer.sendNextFromSource(isStdout ? .stdout(text) : .stderr(text))
        }
        close(stream.fd)
        stream.fd = -1
    }
}
