extension Signal where Value == ChangeBatch {
    /// Also sends an empty batch right after subscribing, so that the first
    /// run happens at once instead of at the first change (what rwatch does
    /// without `--postpone`). The source is subscribed first, so no change
    /// made during that first run is missed.
    public func startingNow() -> Signal<ChangeBatch> {
        Signal.merge([self, Signal.just(ChangeBatch([]))]).described("startingNow", after: self)
    }
}
