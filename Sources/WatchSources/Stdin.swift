import Glibc
import Signals

/// Standard input as a signal.
public enum Stdin {
    /// The lines of standard input (without `\n` or `\r\n`), then completion
    /// at end of input. Shared: every subscriber sees the lines read while it
    /// is subscribed; a thread reads while anyone is subscribed.
    /// They come from `SourceWorld.current.input`, read when the signal
    /// is built: descriptor 0, unless a recipe's tests gave other lines.
    public static var lines: Signal<String> { SourceWorld.current.input().described("Stdin.lines") }

    /// The lines of descriptor 0 (`SourceWorld.live`).
    static var liveLines: Signal<String> { shared }

    private static let shared = lines(from: STDIN_FILENO).share()

    /// The lines read from `fd` (not closed), on a thread of their own that
    /// stops promptly when the subscription is disposed.
    static func lines(from fd: Int32) -> Signal<String> {
        // Serial: only the reader thread sends (after the subscribing thread
        // has, at most, reported that it could not start one).
        Signal.serial { observer in
            let stop: WakePipe
            do throws(GNUFunctions.PipeFailure) {
                stop = try WakePipe()
            } catch {
                observer.sendError(FileWatchError(.cannotWatch(path: "standard input", errno: error.errno)))
                return ActionDisposable {}
            }
            let reader = LineReader(fd: fd, stop: stop, observer: observer)
            DetachedThread.start { reader.run() }
            return ActionDisposable { stop.wake() }
        }
    }
}

/// Reads one fd on its own thread and sends its lines.
private final class LineReader: Sendable {
    let fd: Int32
    /// Woken when the subscription is disposed.
    let stop: WakePipe
    let observer: Observer<String>

    init(fd: Int32, stop: WakePipe, observer: Observer<String>) {
        self.fd = fd
        self.stop = stop
        self.observer = observer
    }

    func run() {
        // The same line rules as process output and tail: `\r\n` stripped,
        // invalid UTF-8 repaired, a line without end cut at 64 MiB.
        var splitter = LineSplitter()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        defer { chunk.deallocate() }
        while !observer.isStopped {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { break }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let count = read(fd, chunk.baseAddress, chunk.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            splitter.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) { line in
                observer.sendNextFromSource(LineSplitter.decode(line))
            }
        }
        splitter.finish { line in observer.sendNextFromSource(LineSplitter.decode(line)) }
        observer.sendCompleted()
    }
}
