extension Duration {
    /// Whole nanoseconds, clamped to `0...Int.max / 2`: a timeout for
    /// Dispatch or `poll` (negative means already due; the cap leaves room
    /// to add it to a clock reading without overflow).
    package var clampedNanoseconds: Int {
        let (seconds, attoseconds) = components
        if seconds < 0 || attoseconds < 0 { return 0 }
        let cap = Int.max / 2
        guard seconds < Int64(cap / 1_000_000_000) else { return cap }
        return min(cap, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// Whole milliseconds (rounded down), clamped as `clampedNanoseconds`.
    package var clampedMilliseconds: Int { clampedNanoseconds / 1_000_000 }
}
