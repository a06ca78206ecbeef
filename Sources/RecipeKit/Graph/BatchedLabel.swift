import Signals

/// The parameters of `batched`: the quiet time, then what is not the default.
enum BatchedLabel {
    static func parameters(_ quiet: Duration, _ maxWait: Duration, _ holds: NewFileHolds?) -> [String] {
        [quiet.label] + (maxWait == .seconds(1) ? [] : ["maxWait: " + maxWait.label]) + (holds == nil ? [] : ["holdingNewFiles"])
    }
}
