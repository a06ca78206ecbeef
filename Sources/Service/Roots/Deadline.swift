import Dispatch

extension DispatchTime {
    /// `duration` from now (a negative one is now).
    static func after(_ duration: Duration) -> DispatchTime {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + (seconds >= 0 ? attoseconds / 1_000_000_000 : 0)
        return .now() + .nanoseconds(Int(clamping: nanoseconds))
    }
}
