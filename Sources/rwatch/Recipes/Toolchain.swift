import RecipeKit

/// The Swift compiler a recipe is compiled with, checked before anything
/// is compiled. RecipeKit's modules are built without library evolution,
/// so only the compiler version that wrote them reads them: a recipe needs
/// that version of `swiftc` (recorded by the build, `Version.swift`), and
/// the command line needs no toolchain at all. Without a matching
/// `swiftc` every recipe command fails in one line that says so (exit 2).
struct Toolchain {
    /// The `swiftc` to run.
    let swiftc: String

    /// `swiftc` as `installation` finds it, when its version is the one
    /// RecipeKit was built with. `versionOf` answers `swiftc --version`'s
    /// text (nil when it failed).
    static func find(in installation: Installation, versionOf: (String) -> String?) throws -> Toolchain {
        try check(installation.compiler(), needs: Version.swift, versionOf: versionOf)
    }

    /// `swiftc` (nil: none found) when its version is `needed` (any
    /// version when the build recorded none), else the one-line error.
    static func check(_ swiftc: String?, needs needed: String?, versionOf: (String) -> String?) throws -> Toolchain {
        guard let swiftc else { throw missing(needed, found: nil) }
        guard let needed else { return Toolchain(swiftc: swiftc) }
        let found = versionOf(swiftc).flatMap(number(in:))
        guard found == needed else {
            throw missing(needed, found: "\(Quoted.path(swiftc)) is " + (found.map { "Swift \($0)" } ?? "no working swiftc"))
        }
        return Toolchain(swiftc: swiftc)
    }

    /// `swiftc 6.3.1 not found: install Swift 6.3.1 to compile recipes; the
    /// command line needs nothing`, with what was found instead.
    static func missing(_ needed: String?, found: String?) -> RWatchError {
        let version = needed.map { " " + $0 } ?? ""
        let instead = found.map { " (\($0))" } ?? ""
        return RWatchError("swiftc\(version) not found\(instead): install Swift\(version) to compile recipes "
            + "(on PATH, or name it in SWIFTC); the command line needs nothing")
    }

    /// `6.3.1` from `Swift version 6.3.1 (swift-6.3.1-RELEASE)`.
    static func number(in versionText: String) -> String? {
        guard let range = versionText.firstRange(of: "Swift version ") else { return nil }
        let number = versionText[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return number.isEmpty ? nil : String(number)
    }
}
