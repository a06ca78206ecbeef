import ArgumentParser
import RecipeKit

/// The flags that decide which file events a watch reports, shared by
/// `rwatch` (watch-and-run) and `rwatch events` through `@OptionGroup`:
/// a flag about what is watched or reported is declared here, once, and
/// reaches both commands and `watchOptions`.
struct WatchFlags: ParsableArguments {
    @Option(name: [.customShort("e"), .long], help: ArgumentHelp("Only files with these extensions, comma separated (swift,md).", valueName: "exts"))
    var exts: [String] = []

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp("Only paths matching this glob, ** allowed (repeatable).", valueName: "glob"))
    var filter: [String] = []

    @Option(name: [.customShort("i"), .long], help: ArgumentHelp("Ignore paths matching this glob (repeatable).", valueName: "glob"))
    var ignore: [String] = []

    @Flag(name: .customLong("no-vcs-ignore"), help: "Do not read .gitignore and .ignore files.")
    var noVCSIgnore = false

    @Flag(name: .customLong("no-default-ignore"), help: "Also watch .git, .hg, .svn, .build and editor swap/backup files.")
    var noDefaultIgnore = false

    /// `--watch-backend`, `--poll[=INTERVAL]`.
    @OptionGroup var backend: BackendOptions

    /// Every glob must compile; the error names the first that does not.
    func validate() throws {
        do {
            _ = try watchOptions.validated()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The flags as the options `FileWatcher.watch` takes.
    var watchOptions: WatchOptions {
        var options = WatchOptions()
        options.include = filter
        options.exclude = ignore
        options.extensions = exts.flatMap { $0.split(separator: ",") }.map { item in
            String(item.drop { $0 == "." }).trimmingCharacters()
        }.filter { !$0.isEmpty }
        options.useVCSIgnore = !noVCSIgnore
        options.useDefaultIgnore = !noDefaultIgnore
        options.backend = backend.backend
        return options
    }

    /// Throws a usage error naming the first of `paths` that does not
    /// exist (as typed: bytes, see `RawArguments`).
    static func checkExist(_ paths: [String]) throws {
        for path in RawArguments.paths(paths) where !FileSystem.exists(path) {
            throw ValidationError("no such file or directory: \(Quoted.path(path))")
        }
    }
}
