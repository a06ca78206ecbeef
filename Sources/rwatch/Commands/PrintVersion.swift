import ArgumentParser

/// `rwatch version`: the same line as `rwatch --version`.
struct PrintVersion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print rwatch's version."
    )

    func run() {
        print(Version.line)
    }
}
