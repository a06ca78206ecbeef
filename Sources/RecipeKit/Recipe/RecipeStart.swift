import SystemPackage

/// The status line a recipe binary prints once its pipelines are
/// subscribed, its watches armed and its logs open: that it runs, and what
/// it watches and follows, so that a recipe that waits (a log with no new
/// line yet, a tree with no change) does not look stuck.
///
///     rwatch: tail-errors running: following app.log
///     rwatch: build running: watching Sources, Tests
///     rwatch: ticker running
///
/// Made from the `WatchNotice`s announced while the recipe subscribed.
/// A version-control directory (the `.git` that `settlingVCS` watches to
/// hold runs during a checkout) is rwatch's business, not the recipe's, and
/// is left out.
enum RecipeStart {
    /// The line, without the `rwatch: ` that `Terminal.status` adds; paths
    /// shown relative to `workingDirectory` (`.` for itself).
    static func line(name: String, notices: [WatchNotice], workingDirectory: FilePath) -> String {
        var following: [FilePath] = []
        var watching: [FilePath] = []
        for notice in notices {
            switch notice.kind {
            case .following:
                if !following.contains(notice.path) { following.append(notice.path) }
            case .inotify, .service, .polling:
                let vcs = notice.path.components.contains { $0.string == ".git" || $0.string == ".hg" }
                if !vcs, !watching.contains(notice.path) { watching.append(notice.path) }
            case .warning:
                break
            }
        }
        let shown = { (paths: [FilePath]) in
            paths.map { Quoted.path(Terminal.shown($0, in: workingDirectory)) }.joined(separator: ", ")
        }
        var parts: [String] = []
        if !following.isEmpty { parts.append("following " + shown(following)) }
        if !watching.isEmpty { parts.append("watching " + shown(watching)) }
        return "\(name) running" + (parts.isEmpty ? "" : ": " + parts.joined(separator: "; "))
    }
}
