import Glibc
import RecipeKit

/// The supervisor's signals as readable bytes: SIGINT, SIGTERM, SIGHUP and
/// SIGCHLD are blocked in every thread (`blockHandledSignals`, before any
/// thread starts), and one thread takes them with `sigwaitinfo` and writes
/// each to a pipe that the supervisor's loop polls beside its other
/// descriptors. No code runs in a signal handler.
final class SignalInbox: Sendable {
    /// One signal taken.
    struct Arrival: Equatable {
        var number: Int32
        /// True when the terminal sent it (Ctrl-C, a hang-up) to the whole
        /// foreground process group, the recipe included; false when a
        /// process sent it to rwatch alone (`kill`).
        var fromTerminal: Bool
    }

    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGCHLD]

    /// Poll this for `POLLIN`, then `take()`.
    let readEnd: Int32
    private let writeEnd: Int32

    /// Blocks the handled signals in the calling thread, and so in every
    /// thread it starts from now on. Call first thing.
    static func blockHandledSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in handled { sigaddset(&set, number) }
        return set
    }

    /// Starts the thread that waits for the signals.
    init() throws {
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try GNUFunctions.makePipe()
        } catch {
            throw RWatchError("cannot make a pipe: \(String(cString: strerror(error.errno)))")
        }
        readEnd = pipe.read
        writeEnd = pipe.write
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
        let writeEnd = writeEnd
        let started = DetachedThread.start {
            var set = Self.signalSet()
            var info = siginfo_t()
            while true {
                let number = sigwaitinfo(&set, &info)
                if number < 0 { continue }
                // SI_KERNEL: sent by the kernel (the terminal's line discipline).
                var record: [Int32] = [number, info.si_code == 0x80 ? 1 : 0]
                _ = record.withUnsafeMutableBytes { write(writeEnd, $0.baseAddress, $0.count) }
            }
        }
        guard started else { throw RWatchError("cannot start a thread") }
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
