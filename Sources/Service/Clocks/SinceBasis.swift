import Glibc

/// What a `since` value means for one root at the start of a query: all
/// changes after a tick of its clock, all changes after a time, or a fresh
/// instance (everything that exists, each `new`).
public enum SinceBasis: Sendable, Equatable {
    case fresh
    case tick(UInt64)
    case timestamp(Int64)

    public var isFresh: Bool { self == .fresh }
}

extension ClockSpec {
    /// This spec against a root whose clock is at `position` and which
    /// forgot deleted files up to `lastAgeOut`: a clock of this process
    /// and root instance is its tick (fresh when it predates what was
    /// forgotten), any other clock is fresh. A cursor reads its tick
    /// from `cursors` (fresh when unknown) and moves to `position`.
    public func basis(at position: ClockPosition, lastAgeOut: UInt64, cursors: inout [String: UInt64],
                      identity: ClockIdentity = .current) -> SinceBasis {
        switch self {
        case .timestamp(let seconds):
            return .timestamp(seconds)
        case .legacy, .blank:
            return .fresh
        case .clock(let issuer, let clock):
            guard issuer == identity, clock.rootNumber == position.rootNumber, clock.tick >= lastAgeOut else { return .fresh }
            return .tick(clock.tick)
        case .cursor(let name):
            let known = cursors[name]
            cursors[name] = position.tick
            guard let known, known >= lastAgeOut else { return .fresh }
            return .tick(known)
        }
    }
}

extension ClockIdentity {
    /// This process: the second it first handed out a clock, and its pid.
    public static let current = ClockIdentity(startTime: UInt64(max(0, time(nil))), pid: UInt64(getpid()))
}
