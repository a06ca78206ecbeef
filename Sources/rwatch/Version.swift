/// rwatch's version, printed by `rwatch --version` and `rwatch version`.
enum Version {
    static let number = "0.1.0"
    /// `rwatch 0.1.0`: the name first, as `watchexec --version` and `git --version` print.
    static let line = "rwatch \(number)"
}
