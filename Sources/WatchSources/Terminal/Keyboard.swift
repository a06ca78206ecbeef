import Signals
#if canImport(Glibc)
import Glibc
#endif

/// Keys pressed on rwatch's terminal while no command holds it.
///
///     Keyboard.keys.subscribe(onNext: { key in if key == "q" { … } })
///
/// Hot and shared: one reader thread while anyone is subscribed. It puts
/// the terminal in raw mode (no echo, no line editing; Ctrl-C and Ctrl-Z
/// still signal) only while rwatch holds the terminal and waits for a key,
/// and reads nothing while a command holds it (`ProcessOptions.interactive`):
/// what is typed then is the command's. Nothing is read when standard input
/// is not a terminal, or while rwatch runs in the background.
public enum Keyboard {
    /// Each key as the one byte the terminal sent (escape sequences arrive
    /// as their bytes, one by one).
    public static var keys: Signal<UInt8> { shared }

    private static let shared = Signal<UInt8>.serial { observer in
        guard ControllingTerminal.isTerminal, let wake = try? WakePipe() else { return ActionDisposable() }
        wakes.withLock { $0.append(wake) }
        let reader = KeyReader(observer: observer, wake: wake)
        ControllingTerminal.wantKeys(true)
        guard DetachedThread.start({ reader.run() }) else {
            ControllingTerminal.wantKeys(false)
            return ActionDisposable()
        }
        return ActionDisposable {
            wakes.withLock { list in list.removeAll { $0 === wake } }
            ControllingTerminal.wantKeys(false)
            reader.cancel()
        }
    }.share()

    /// Wake pipes of the running readers.
    private static let wakes = Locked<[WakePipe]>([])

    /// The terminal changed hands: readers look again.
    static func terminalChanged() {
        for wake in wakes.withLock({ $0 }) { wake.wake() }
    }
}

/// The thread behind `Keyboard.keys`.
private final class KeyReader: Sendable {
    private let observer: Observer<UInt8>
    private let wake: WakePipe
    private let cancelled = Locked(false)

    init(observer: Observer<UInt8>, wake: WakePipe) {
        self.observer = observer
        self.wake = wake
    }

    func cancel() {
        cancelled.withLock { $0 = true }
        wake.wake()
    }

    /// The terminal is gone (its window closed) while rwatch held it: end
    /// as its hang-up would have ended a job of a shell, through the signal
    /// owner (every child group stopped, status 129).
    private func hungUp() {
        guard !cancelled.withLock({ $0 }) else { return }
        _ = kill(getpid(), SIGHUP)
    }

    func run() {
        var buffer = [UInt8](repeating: 0, count: 64)
        var wasBackground = false
        while !cancelled.withLock({ $0 }) && !observer.isStopped {
            // Watch the terminal only while rwatch holds it; else wait to be woken.
            // Not once rwatch is ending: keys typed ahead are no requests then.
            let watching = !ControllingTerminal.isHeldByCommand && ControllingTerminal.isForeground && !ControllingTerminal.isEnding
            // The terminal is polled for keys only then, but always for a
            // hang-up (poll reports one whatever was asked).
            var fds = [
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: ControllingTerminal.fd, events: watching ? Int16(POLLIN) : 0, revents: 0),
            ]
            // Woken when the terminal changes hands (a command's group
            // ended or stopped, `fg` continued rwatch: SIGCONT).
            // In the background, look again now and then: a shell's `fg` of
            // a running job sends no signal, so nothing would wake this.
            let background = ControllingTerminal.isTerminal && !ControllingTerminal.isForeground
            if wasBackground && !background { ControllingTerminal.refresh() }  // back in front: raw mode for keys
            wasBackground = background
            let ready = poll(&fds, nfds_t(fds.count), background ? 250 : -1)
            if ready < 0 { continue }  // EINTR
            if fds[0].revents != 0 { wake.drain() }
            let gone = fds[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            if gone && (!watching || fds[1].revents & Int16(POLLIN) == 0) { return hungUp() }
            guard watching, fds[1].revents != 0 else { continue }
            var count = -1
            // Read only while rwatch still holds the terminal: a hand-over
            // waits for this read, so no key meant for a command is taken.
            _ = ControllingTerminal.whileHeldByRwatch {
                count = buffer.withUnsafeMutableBytes { read(ControllingTerminal.fd, $0.baseAddress, $0.count) }
            }
            if count == 0 { return hungUp() }  // raw mode has no end-of-file key
            if count < 0 { continue }
            for byte in buffer[0..<count] where !cancelled.withLock({ $0 }) {
                observer.sendNextFromSource(byte)
            }
        }
    }
}
