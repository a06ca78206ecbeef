import RecipeKit
@testable import rwatch
import Testing

/// The words rwatch says once a watch is armed, and the progress line's
/// one-second threshold, without a tree or a clock.
@Suite struct ArmedLineTests {
    private let cwd: FilePath = "/home/me/project"

    @Test func aPostponedWatchSaysWhatHowManyHowLongAndThatItWaits() {
        let line = ArmedLine.text(paths: ["/home/me/project"], workingDirectory: cwd, directories: 312, served: false,
                                  took: .milliseconds(41), waitsForChange: true)
        #expect(line == "watching . (312 directories, 41 ms); waiting for a change")
    }

    @Test func pathsAreShownRelativeToTheWorkingDirectory() {
        let line = ArmedLine.text(paths: ["/home/me/project/src", "/etc/app", "/home/me/project/my docs"], workingDirectory: cwd,
                                  directories: 1, served: false, took: .milliseconds(1500), waitsForChange: false)
        #expect(line == "watching src, /etc/app, 'my docs' (1 directory, 1.50 s)")
    }

    @Test func aServedWatchSaysSoRatherThanCountingWatches() {
        let line = ArmedLine.text(paths: ["/home/me/project"], workingDirectory: cwd, directories: 0, served: true,
                                  took: .milliseconds(12), waitsForChange: true)
        #expect(line == "watching . (through rwatch serve, 12 ms); waiting for a change")
    }

    @Test func aPolledTreeHasNoCountOfWatches() {
        let line = ArmedLine.text(paths: ["/mnt/share"], workingDirectory: cwd, directories: 0, served: false,
                                  took: .milliseconds(3), waitsForChange: true)
        #expect(line == "watching /mnt/share (3 ms); waiting for a change")
    }

    @Test func noProgressLineBeforeASecond() {
        #expect(ArmedLine.progress(paths: [cwd], workingDirectory: cwd, directories: 5000, elapsed: .milliseconds(999)) == nil)
    }

    @Test func aProgressLineAfterASecondSaysHowFarArmingHasCome() {
        let line = ArmedLine.progress(paths: [cwd], workingDirectory: cwd, directories: 20480, elapsed: .milliseconds(1200))
        #expect(line == "arming the watch of .: 20480 directories so far (1.20 s)")
    }
}
