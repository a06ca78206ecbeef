import CBuildInfo

/// rwatch's version, printed by `rwatch --version` and `rwatch version`.
/// `number` is the one place the version lives: the Makefile reads it to
/// name the .deb and the tarball.
enum Version {
    static let number = "0.1.0"
    /// The commit this binary was built from (`1b1c955d6e2f`, `-dirty`
    /// when tracked files had changes), or nil when built without the
    /// Makefile, which records it.
    static let commit: String? = recorded(CBuildInfo_commit())
    /// The Swift version that compiled this rwatch and RecipeKit's
    /// modules (`6.3.1`), or nil when built without the Makefile.
    static let swift: String? = recorded(CBuildInfo_swift_version())
    /// `rwatch 0.1.0 (commit 1b1c955d6e2f)`: the name first, as
    /// `watchexec --version` and `git --version` print.
    static let line = "rwatch \(number) (commit \(commit ?? "unknown"))"

    private static func recorded(_ text: UnsafePointer<CChar>) -> String? {
        let value = String(cString: text)
        return value.isEmpty ? nil : value
    }
}
