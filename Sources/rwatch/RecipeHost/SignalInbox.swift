import Glibc
import RecipeKit
import SystemPackage

/// The stop signals (SIGINT, SIGTERM, SIGHUP) as readable bytes for
/// `RecipeHost`'s loop. rwatch's one signal owner takes them (blocked in
/// every thread since `main` began) and, once this inbox exists, hands them
/// here instead of stopping rwatch itself: the host stops its recipe child
/// its own way, then exits.
final class SignalInbox: Sendable {
    /// One signal taken.
    struct Arrival: Equatable {
        var number: Int32
        /// True when the terminal sent it (Ctrl-C, a hang-up) to the whole
        /// foreground process group, the recipe included; false when a
        /// process sent it to rwatch alone (`kill`).
        var fromTerminal: Bool
    }

    /// Poll this for `POLLIN`, then `take()`.
    let readEnd: Int32
    private let writeEnd: Int32

    /// Takes the stop signals over from rwatch's signal owner.
    init() throws {
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try GNUFunctions.makePipe()
        } catch {
            throw RWatchError("cannot make a pipe: \(Errno(rawValue: error.errno).description)")
        }
        readEnd = pipe.read
        writeEnd = pipe.write
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
        _ = fcntl(writeEnd, F_SETFL, O_NONBLOCK)
        let writeEnd = writeEnd
        ProcessSupervisor.handOverStopSignals { number, fromTerminal in
            var record: [Int32] = [number, fromTerminal ? 1 : 0]
            _ = record.withUnsafeMutableBytes { write(writeEnd, $0.baseAddress, $0.count) }
            // A reload's compiler runs in its own group: stop it at once.
            DetachedThread.start { ProcessSupervisor.killAll() }
        }
    }

    /// True when a signal is waiting to be taken (it is left there).
    var hasArrivals: Bool {
        var fd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0
    }

    /// The signals that arrived since the last call (none when none did).
    func take() -> [Arrival] {
        var arrivals: [Arrival] = []
        var record: [Int32] = [0, 0]
        while record.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) == 8 {
            arrivals.append(Arrival(number: record[0], fromTerminal: record[1] == 1))
        }
        return arrivals
    }
}
