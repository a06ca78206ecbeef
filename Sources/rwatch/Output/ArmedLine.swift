import RecipeKit

/// What rwatch says about arming a watch: the status line once it is
/// armed, and the progress line drawn while arming is slow. Pure, so
/// that the words and the one-second threshold are tested without a tree
/// or a clock (`ArmingReport` measures and prints).
///
///     rwatch: watching . (312 directories, 41 ms); waiting for a change
///     rwatch: watching src, docs (through rwatch serve, 12 ms)
///     rwatch: arming the watch of .: 20480 directories so far (1.20 s)
enum ArmedLine {
    /// How long arming goes on before a progress line is drawn: below it,
    /// one would only flicker.
    static let progressAfter: Duration = .seconds(1)

    /// The line once armed, without the `rwatch: ` of `Terminal.status`.
    /// `directories` counts the inotify watches arming added: 0 leaves the
    /// count out (a polled tree says so in its own line). `served`: a
    /// running `rwatch serve` watches the paths. `waitsForChange` (`-p`, a
    /// `{}` command): nothing runs before a change, and the line says so.
    static func text(paths: [FilePath], workingDirectory: FilePath, directories: Int, served: Bool, took: Duration,
                     waitsForChange: Bool) -> String {
        let how = served ? "through rwatch serve" : directories > 0 ? count(directories) : nil
        let details = (how.map { [$0] } ?? []) + [Terminal.format(took)]
        let waiting = waitsForChange ? "; waiting for a change" : ""
        return "watching \(shown(paths, in: workingDirectory)) (\(details.joined(separator: ", ")))\(waiting)"
    }

    /// The progress line after `elapsed` of arming, `directories` watched so
    /// far; nil before `progressAfter`.
    static func progress(paths: [FilePath], workingDirectory: FilePath, directories: Int, elapsed: Duration) -> String? {
        guard elapsed >= progressAfter else { return nil }
        return "arming the watch of \(shown(paths, in: workingDirectory)): \(count(directories)) so far (\(Terminal.format(elapsed)))"
    }

    /// `1 directory`, `312 directories`.
    private static func count(_ directories: Int) -> String {
        directories == 1 ? "1 directory" : "\(directories) directories"
    }

    /// The paths as typed relative to the working directory: `.`, `src, docs`.
    private static func shown(_ paths: [FilePath], in workingDirectory: FilePath) -> String {
        paths.map { Quoted.path(Terminal.shown($0, in: workingDirectory)) }.joined(separator: ", ")
    }
}
