@testable import RecipeKit
import Testing

@Suite struct ShellHintTests {
    let notFound = ProcessError(command: "x", reason: .notFound)

    @Test func shellLookingCommandsThatDoNotStartGetTheHint() {
        for arguments in [
            ["python3 -m unittest 2>&1 | tail -1"],
            ["make", "&&", "./run"],
            ["echo", "$(date)"],
            ["cat", "a", "|", "wc"],
            ["ls", ">", "out"],
            ["a;b"],
        ] {
            #expect(ShellHint.applies(to: notFound, arguments: arguments, shell: nil), "\(arguments)")
        }
    }

    @Test func noHintForPlainCommandsAShellOrOtherFailures() {
        #expect(!ShellHint.applies(to: notFound, arguments: ["nosuchprogram", "-x"], shell: nil))
        #expect(!ShellHint.applies(to: notFound, arguments: ["a | b"], shell: "sh"))
        let badDirectory = ProcessError(command: "x", reason: .badWorkingDirectory("/nope"))
        #expect(!ShellHint.applies(to: badDirectory, arguments: ["a | b"], shell: nil))
    }
}
