import WatchmanProtocol

/// A point in time as a watchman client names it: a clock this service
/// handed out (`c:START:PID:ROOT:TICK`), a named cursor (`n:NAME`), or a
/// Unix timestamp in seconds.
///
///     try ClockSpec(parsing: .string("c:1700000000:4242:1:17"))
///     try ClockSpec(parsing: .string("n:builds"))
///     try ClockSpec(parsing: .int(1700000000))
///
/// A clock of another process (start time or pid differ), of another
/// instance of the root (root number differs) or in watchman's pre-2.8.2
/// form (`c:PID:TICK`) always means a fresh instance.
public enum ClockSpec: Sendable, Equatable {
    /// Seconds since the Unix epoch.
    case timestamp(Int64)
    /// A clock string of the current form.
    case clock(ClockIdentity, ClockPosition)
    /// `c:PID:TICK`, watchman's form before 2.8.2: never ours.
    case legacy
    /// A named cursor, the whole string (`n:NAME`), as watchman keys it.
    case cursor(String)
    /// The object form without a `clock` member: a fresh instance.
    case blank

    /// Why a value is no clockspec.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String { "invalid clockspec" }
    }

    /// Reads a clockspec: an integer, a clock or cursor string, or an
    /// object with an optional `clock` member (an `scm` member is refused:
    /// only a query's `since` has one, which `SCMClock.split` takes off).
    public init(parsing value: WatchmanValue) throws(ParseError) {
        switch value {
        case .int(let seconds):
            self = .timestamp(seconds)
        case .string, .bytes:
            guard let bytes = value.stringBytes else { throw ParseError() }
            self = try Self.parse(bytes)
        case .object:
            if value["scm"] != nil { throw ParseError() }
            guard let clock = value["clock"] else {
                self = .blank
                return
            }
            // A clock string of either form, as watchman reads one here (its
            // SCM tests send `c:0:0`); no cursor.
            guard let bytes = clock.stringBytes else { throw ParseError() }
            let spec = try Self.parse(bytes)
            switch spec {
            case .clock, .legacy: self = spec
            default: throw ParseError()
            }
        default:
            throw ParseError()
        }
    }

    /// A clock string or a cursor.
    private static func parse(_ bytes: [UInt8]) throws(ParseError) -> ClockSpec {
        if bytes.starts(with: Array("n:".utf8)) {
            return .cursor(String(decoding: bytes, as: UTF8.self))
        }
        guard bytes.starts(with: Array("c:".utf8)) else { throw ParseError() }
        let fields = bytes.dropFirst(2).split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        let numbers = fields.map { ClockSpec.number($0) }
        guard !numbers.contains(nil) else { throw ParseError() }
        switch numbers.count {
        case 4:
            let identity = ClockIdentity(startTime: numbers[0]!, pid: numbers[1]!)
            return .clock(identity, ClockPosition(rootNumber: numbers[2]!, tick: numbers[3]!))
        case 2:
            return .legacy
        default:
            throw ParseError()
        }
    }

    /// A decimal number of at most 19 digits.
    private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
        }
        return value
    }
}

/// The process a clock came from: the second it started and its pid.
public struct ClockIdentity: Sendable, Hashable {
    public var startTime: UInt64
    public var pid: UInt64

    public init(startTime: UInt64, pid: UInt64) {
        self.startTime = startTime
        self.pid = pid
    }
}

/// A position on one root's clock: which instance of the root (a new
/// number each time a root is watched) and how far its clock had ticked.
public struct ClockPosition: Sendable, Hashable {
    public var rootNumber: UInt64
    public var tick: UInt64

    public init(rootNumber: UInt64, tick: UInt64) {
        self.rootNumber = rootNumber
        self.tick = tick
    }

    /// `c:START:PID:ROOT:TICK`, the clock string clients hand back.
    public func clockString(_ identity: ClockIdentity = .current) -> String {
        "c:\(identity.startTime):\(identity.pid):\(rootNumber):\(tick)"
    }
}
