import Glibc
import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// rwatch's rule engine against `git check-ignore` on the same trees, on
/// every backend: the same verdict for every path (what a watch reports
/// when each file is written), and for an ignored path the same deciding
/// file and line (what `rwatch -v` names).
@Suite struct GitCheckIgnoreTests {
    /// The paths where rwatch, watching `root` (relative to the top) with
    /// `backend`, disagrees with git; `paths` maps each path (from the
    /// top) to whether it is a directory.
    private func disagreements(_ repo: TestRepository, root: String, paths: [String: Bool], backend: Backend) -> [String] {
        let rootPath = FilePath(root.isEmpty ? repo.top : repo.top + "/" + root)
        let options = repo.options(WatchOptions(useDefaultIgnore: false))
        var filter = PathFilter(root: rootPath, options: options)
        let below = paths.keys.compactMap { path in FileSystem.relative(FilePath(repo.top + "/" + path), to: rootPath).map { (path, $0) } }
            .filter { !$0.1.isEmpty }
        // Read the rule files as a walk would: each directory before what is in it.
        let directories = below.filter { paths[$0.0] == true }.sorted { $0.1.components.count < $1.1.components.count }
        filter.loadDirectory(FilePath(), at: rootPath)
        for (path, relative) in directories { filter.loadDirectory(relative, at: FilePath(repo.top + "/" + path)) }
        let git = repo.checkIgnore(below.map(\.0))
        var found: [String] = []
        for (path, relative) in below.sorted(by: { $0.0 < $1.0 }) {
            let theirs = git[path] ?? nil
            let ours = filter.whyIgnored(relative, isDirectory: paths[path]!)
            let gitIgnores = theirs?.ignored ?? false
            if gitIgnores != (ours != nil) {
                found.append("\(path): git \(gitIgnores ? "ignores (\(theirs!.file):\(theirs!.line))" : "keeps"), rwatch \(ours.map { "ignores (\($0))" } ?? "keeps")")
            } else if gitIgnores, let theirs, let ours, ours.source != .file(path: theirs.file, line: theirs.line) {
                found.append("\(path): git names \(theirs.file):\(theirs.line), rwatch \(ours)")
            }
        }
        // What the backend reports when every file is written: those git keeps.
        let files = below.filter { paths[$0.0] == false }.map(\.0)
        let kept = Set(files.filter { (git[$0] ?? nil)?.ignored != true }.map { repo.top + "/" + $0 })
        let reported = reportedWrites(of: files.map { repo.top + "/" + $0 }, watching: rootPath.string, options, backend)
        for path in reported.symmetricDifference(kept).sorted() {
            found.append("\(path): git \(kept.contains(path) ? "keeps" : "ignores"), the \(backend) watch \(reported.contains(path) ? "reports" : "drops") its write")
        }
        return found
    }

    /// The paths among `files` whose write a watch of `root` reports.
    private func reportedWrites(of files: [String], watching root: String, _ options: WatchOptions, _ backend: Backend) -> Set<String> {
        let (recorder, subscription) = record([root], options: options, backend: backend)
        defer { subscription.dispose() }
        for file in files { Disk.append(file, "more\n") }
        // Everything written before it has been reported.
        switch backend {
        case .inotify: InotifyReader.shared.barrier()
        case .poll: PollScanner.shared.fence()
        }
        return Set(recorder.snapshot.map(\.path.string))
    }

    @Test(arguments: Backend.allCases) func aHandWrittenTreeAgreesWithGit(_ backend: Backend) {
        let repo = TestRepository(globalConfig: "[core]\n\texcludesFile = ~/global-ignore\n")
        defer { repo.remove() }
        TemporaryDirectory.writeFile(repo.home + "/global-ignore", "*.bak\n!keep.bak\n/top-only.txt\n")
        repo.write(".git/info/exclude", "# local\n*.local\n!not.local\n")
        repo.write(".gitignore", "*.log\n!important.log\nbuild/\n/anchored.txt\ndoc/*.txt\n**/tmp\ncache/*\n!cache/keep\nout/**\n\\#hash\ntrailing.txt   \nesc\\ aped\\ \n*.local\n")
        repo.write("src/.gitignore", "!*.log\n*.gen\n/only-here\n[Tt]emp*\n*.bak\n")
        repo.write("src/deep/.gitignore", "!keep.gen\n")
        let files = ["a.log", "important.log", "src/a.log", "build/x.o", "build/keep.txt", "src/build/y", "anchored.txt",
                     "src/anchored.txt", "doc/a.txt", "src/doc/a.txt", "a/b/tmp/z", "cache/one", "cache/keep", "out/x/y",
                     "#hash", "trailing.txt", "esc aped ", "x.local", "not.local", "src/x.gen", "src/deep/keep.gen",
                     "src/deep/other.gen", "src/only-here", "src/deep/only-here", "src/Temp1", "src/temp2", "x.bak",
                     "keep.bak", "src/x.bak", "top-only.txt", "src/top-only.txt", "sp ace.txt"]
        var paths: [String: Bool] = [:]
        for file in files {
            repo.write(file, "x\n")
            paths[file] = false
            var directory = file
            while let slash = directory.lastIndex(of: "/") {
                directory = String(directory[..<slash])
                paths[directory] = true
            }
        }
        repo.makeDirectories(repo.top + "/out")
        paths["out"] = true
        #expect(disagreements(repo, root: "", paths: paths, backend: backend) == [])
        #expect(disagreements(repo, root: "src", paths: paths, backend: backend) == [])
        #expect(disagreements(repo, root: "src/deep", paths: paths, backend: backend) == [])
    }

    @Test(arguments: Backend.allCases) func withoutCoreExcludesFileTheXDGIgnoreFileApplies(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        TemporaryDirectory.writeFile(repo.xdg + "/git/ignore", "*.swp\nglobal/\n")
        repo.write("a.swp", "")
        repo.write("global/x", "")
        repo.write("kept.txt", "")
        #expect(disagreements(repo, root: "", paths: ["a.swp": false, "global": true, "global/x": false, "kept.txt": false], backend: backend) == [])
        let filter = PathFilter(root: FilePath(repo.top), options: repo.options(WatchOptions(useDefaultIgnore: false)))
        #expect(filter.whyIgnored("a.swp", isDirectory: false)?.source == .file(path: FilePath(repo.xdg + "/git/ignore"), line: 1))
    }

    @Test(arguments: Backend.allCases, 0..<48) func generatedTreesAgreeWithGit(_ backend: Backend, seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 17)
        let repo = TestRepository()
        defer { repo.remove() }
        let tree = GeneratedTree(&random)
        tree.write(into: repo)
        let global = repo.home + "/global-ignore"
        TemporaryDirectory.writeFile(global, tree.globalExcludes)
        TemporaryDirectory.writeFile(repo.globalConfig, "[core]\n\texcludesFile = \(global)\n")
        var roots = [""]
        // Also from a directory below the top that git does not ignore: the rules above it apply.
        let candidates = tree.paths.filter(\.value).keys.sorted()
        let verdicts = repo.checkIgnore(candidates)
        if let below = candidates.first(where: { (verdicts[$0] ?? nil)?.ignored != true }) { roots.append(below) }
        for root in roots {
            let found = disagreements(repo, root: root, paths: tree.paths, backend: backend)
            #expect(found == [], "\(backend), seed \(seed), root '\(root)'\n\(tree.description)")
        }
    }
}

/// A random tree of files and directories, with random `.gitignore`s,
/// `info/exclude` and global excludes, from a small vocabulary that makes
/// patterns and names meet often.
struct GeneratedTree: CustomStringConvertible {
    static let names = ["a", "b", "ab", "x.log", "y.txt", ".h", "d1", "d2", "#n", "sp ce", "[k]", "Temp"]

    /// Path (from the top) → is a directory.
    var paths: [String: Bool] = [:]
    /// Directory (from the top, "" for it) → `.gitignore` contents.
    var ignoreFiles: [String: String] = [:]
    var infoExclude = ""
    var globalExcludes = ""

    /// With `upperCase`, names and literal pattern segments are upper-cased
    /// at random and the patterns use upper-case classes too (for
    /// `core.ignorecase`); without it, a seed gives the tree it always gave.
    init(_ random: inout SeededGenerator, upperCase: Bool = false) {
        for _ in 0..<30 {
            let depth = Int.random(in: 1...4, using: &random)
            let path = (0..<depth).map { _ in
                let name = Self.names.randomElement(using: &random)!
                return upperCase && Bool.random(using: &random) ? name.uppercased() : name
            }.joined(separator: "/")
            var directory = path
            while let slash = directory.lastIndex(of: "/") {
                directory = String(directory[..<slash])
                paths[directory] = true
            }
            if paths[path] == nil { paths[path] = Int.random(in: 0..<6, using: &random) == 0 }
        }
        // A leaf first taken as a file may have become a directory since.
        for path in paths.keys where paths.keys.contains(where: { $0.hasPrefix(path + "/") }) { paths[path] = true }
        let directories = [""] + paths.filter(\.value).keys.sorted()
        var chosen: Set<String> = [""]
        for _ in 0..<2 { chosen.insert(directories.randomElement(using: &random)!) }
        for directory in chosen {
            ignoreFiles[directory] = Self.lines(Int.random(in: 1...6, using: &random), &random, upperCase: upperCase)
        }
        infoExclude = Self.lines(Int.random(in: 0...2, using: &random), &random, upperCase: upperCase)
        globalExcludes = Self.lines(Int.random(in: 0...2, using: &random), &random, upperCase: upperCase)
    }

    private static func lines(_ count: Int, _ random: inout SeededGenerator, upperCase: Bool) -> String {
        (0..<count).map { _ in
            Int.random(in: 0..<10, using: &random) == 0 ? "# a comment" : pattern(&random, upperCase: upperCase)
        }.joined(separator: "\n") + "\n"
    }

    private static func pattern(_ random: inout SeededGenerator, upperCase: Bool) -> String {
        var text = (0..<Int.random(in: 1...3, using: &random)).map { _ in segment(&random, upperCase: upperCase) }.joined(separator: "/")
        switch Int.random(in: 0..<6, using: &random) {
        case 0: text = "/" + text
        case 1: text = "**/" + text
        default: break
        }
        switch Int.random(in: 0..<6, using: &random) {
        case 0: text += "/"
        case 1: text += "/**"
        default: break
        }
        if Int.random(in: 0..<4, using: &random) == 0 { text = "!" + text }
        if Int.random(in: 0..<12, using: &random) == 0 { text += "  " }
        return text
    }

    private static func segment(_ random: inout SeededGenerator, upperCase: Bool) -> String {
        let wild = ["*", "*.log", "a*", "?", "?b", "[ab]", "[!a]*", "**", "d?", "[[:lower:]]*", "*.*", "[T]emp"]
            + (upperCase ? ["*.LOG", "A*", "[AB]", "[A-D]*", "[[:upper:]]*", "[!A]*", "\\Temp", "D?"] : [])
        if Int.random(in: 0..<2, using: &random) == 0 { return wild.randomElement(using: &random)! }
        var name = ""
        var chosen = names.randomElement(using: &random)!
        if upperCase, Bool.random(using: &random) { chosen = chosen.uppercased() }
        for character in chosen {
            if "#[]\\!".contains(character) { name += "\\" }
            name.append(character)
        }
        return name
    }

    /// Makes the tree in `repo`, with its `.gitignore`s and `info/exclude`.
    func write(into repo: TestRepository) {
        for directory in paths.filter(\.value).keys { repo.makeDirectories(repo.top + "/" + directory) }
        for file in paths.filter({ !$0.value }).keys { repo.write(file, "") }
        for (directory, contents) in ignoreFiles { repo.write(directory.isEmpty ? ".gitignore" : directory + "/.gitignore", contents) }
        repo.write(".git/info/exclude", infoExclude)
    }

    var description: String {
        let files = ignoreFiles.sorted { $0.key < $1.key }.map { "[\($0.key)/.gitignore]\n\($0.value)" }.joined()
        return "paths: \(paths.sorted { $0.key < $1.key }.map { $0.key + ($0.value ? "/" : "") })\n\(files)[info/exclude]\n\(infoExclude)[global]\n\(globalExcludes)"
    }
}

extension TemporaryDirectory {
    /// Writes `text` to the file at `path`, replacing it.
    static func writeFile(_ path: String, _ text: String) {
        guard let handle = fopen(path, "w") else { fatalError("cannot write \(path)") }
        fputs(text, handle)
        fclose(handle)
    }
}
