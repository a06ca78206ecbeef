@testable import RecipeKit
import Testing

/// The line a recipe binary prints once it runs, from what its sources
/// announced while it subscribed.
@Suite struct RecipeStartTests {
    private let cwd: FilePath = "/home/me/project"

    @Test func aTailRecipeSaysWhatItFollows() {
        let line = RecipeStart.line(name: "tail-errors", notices: [WatchNotice(path: "/home/me/project/app.log", kind: .following)],
                                    workingDirectory: cwd)
        #expect(line == "tail-errors running: following app.log")
    }

    @Test func followedAndWatchedPathsAreSaidOnceEach() {
        let notices = [
            WatchNotice(path: "/var/log/a.log", kind: .following),
            WatchNotice(path: "/home/me/project/Sources", kind: .inotify),
            WatchNotice(path: "/var/log/a.log", kind: .following),
            WatchNotice(path: "/mnt/share", kind: .polling(interval: .milliseconds(500), reason: .requested)),
            WatchNotice(path: "/home/me/project/Sources", kind: .inotify),
        ]
        let line = RecipeStart.line(name: "mixed", notices: notices, workingDirectory: cwd)
        #expect(line == "mixed running: following /var/log/a.log; watching Sources, /mnt/share")
    }

    @Test func theVersionControlDirectoryAndWarningsAreLeftOut() {
        let notices = [
            WatchNotice(path: "/home/me/project", kind: .inotify),
            WatchNotice(path: "/home/me/project/.git", kind: .inotify),
            WatchNotice(path: "/home/me/project/x", kind: .warning("cannot watch x")),
        ]
        #expect(RecipeStart.line(name: "build", notices: notices, workingDirectory: cwd) == "build running: watching .")
    }

    @Test func aRecipeThatWatchesNothingJustRuns() {
        #expect(RecipeStart.line(name: "ticker", notices: [], workingDirectory: cwd) == "ticker running")
    }
}
