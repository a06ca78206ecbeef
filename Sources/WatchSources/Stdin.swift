import Glibc
import Signals

/// Standard input as a signal.
public enum Stdin {
    /// The lines of standard input (without `\n` or `\r\n`), then completion
    /// at end of input. Shared: every subscriber sees the lines read while it
    /// is subscribed; a thread reads while anyone is subscribed.
    public static var lines: Signal<String> { shared }

    private static let shared = lines(from: STDIN_FILENO).share()

    /// The lines read from `fd` (not closed), on a thread of their own that
    /// stops promptly when the subscription is disposed.
    static func lines(from fd: Int32) -> Signal<String> {
        Signal { observer in
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                observer.sendError(FileWatchError(.cannotWatch(path: "standard input", errno: errno)))
                return ActionDisposable {}
            }
            let stop = ends[1]
            let reader = LineReader(fd: fd, stopFD: ends[0], observer: observer)
            reader.start()
            return ActionDisposable {
                var one: UInt8 = 1
                _ = write(stop, &one, 1)
                close(stop)
            }
        }
    }
}

/// Reads one fd on its own thread and sends its lines.
private final class LineReader: Sendable {
    let fd: Int32
    let stopFD: Int32
    let observer: Observer<String>

    init(fd: Int32, stopFD: Int32, observer: Observer<String>) {
        self.fd = fd
        self.stopFD = stopFD
        self.observer = observer
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<LineReader>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if result == 0 { pthread_detach(thread) } else { Unmanaged<LineReader>.fromOpaque(context).release() }
    }

    private func run() {
        defer { close(stopFD) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !observer.isStopped {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { break }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: chunk[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                var line = pending[..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                observer.sendNext(String(decoding: line, as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { observer.sendNext(String(decoding: pending, as: UTF8.self)) }
        observer.sendCompleted()
    }
}
