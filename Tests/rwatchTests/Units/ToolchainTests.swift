@testable import rwatch
import Testing

/// A recipe needs the `swiftc` version that built RecipeKit; without it,
/// one line says what to install, and the command line is untouched.
@Suite struct ToolchainTests {
    let swift631 = "Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu\n"

    func message(_ body: () throws -> Toolchain) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func noSwiftcSaysWhichVersionToInstall() {
        let said = message { try Toolchain.check(nil, needs: "6.3.1") { _ in nil } }
        #expect(said == "swiftc 6.3.1 not found: install Swift 6.3.1 to compile recipes (on PATH, or name it in SWIFTC); the command line needs nothing")
    }

    @Test func anotherVersionIsNamedWithWhatWasFound() {
        let said = message { try Toolchain.check("/usr/bin/swiftc", needs: "6.3.1") { _ in "Swift version 6.2 (swift-6.2-RELEASE)\n" } }
        #expect(said == "swiftc 6.3.1 not found (/usr/bin/swiftc is Swift 6.2): install Swift 6.3.1 to compile recipes (on PATH, or name it in SWIFTC); the command line needs nothing")
        #expect(said?.contains("\n") == false)
    }

    @Test func aSwiftcThatGivesNoVersionIsNoToolchain() {
        let said = message { try Toolchain.check("/bin/true", needs: "6.3.1") { _ in nil } }
        #expect(said?.hasPrefix("swiftc 6.3.1 not found (/bin/true is no working swiftc)") == true)
    }

    @Test func theSameVersionIsUsed() throws {
        #expect(try Toolchain.check("/opt/swift/usr/bin/swiftc", needs: "6.3.1") { _ in swift631 }.swiftc == "/opt/swift/usr/bin/swiftc")
        #expect(Toolchain.number(in: swift631) == "6.3.1")
    }

    /// A build without the Makefile recorded no version: any swiftc is tried.
    @Test func anUnrecordedVersionTakesAnySwiftc() throws {
        #expect(try Toolchain.check("/x/swiftc", needs: nil) { _ in nil }.swiftc == "/x/swiftc")
        #expect(message { try Toolchain.check(nil, needs: nil) { _ in nil } }?.hasPrefix("swiftc not found: install Swift to compile") == true)
    }
}
