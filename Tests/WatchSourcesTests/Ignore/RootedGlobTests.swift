import Glibc
import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// How rwatch's own globs apply below a watched root when written as
/// `./x` or as an absolute path, on real directories (whether a glob is
/// absolute depends on what `/` and the root hold).
@Suite struct RootedGlobTests {
    /// Whether `pattern` as `-i` ignores `relative` below `root`.
    private func ignores(_ pattern: String, _ relative: String, root: String, isDirectory: Bool = false) -> Bool {
        PathFilter(root: FilePath(root), options: WatchOptions(exclude: [pattern], useDefaultIgnore: false))
            .ignoreReason(FilePath(relative), isDirectory: isDirectory) != nil
    }

    @Test func dotSlashIsAnchoredAtTheRoot() {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        #expect(ignores("./build/**", "build/x.o", root: scratch.path))
        #expect(ignores("././build", "build", root: scratch.path, isDirectory: true))
        #expect(!ignores("./build/**", "src/build/x.o", root: scratch.path))
        #expect(ignores("./*.o", "a.o", root: scratch.path))
        #expect(!ignores("./*.o", "src/a.o", root: scratch.path))
    }

    @Test func anAbsolutePathBelowTheRootIsAnchoredAtIt() {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        #expect(ignores(scratch.file("build"), "build", root: scratch.path, isDirectory: true))
        #expect(ignores(scratch.file("build/"), "build", root: scratch.path, isDirectory: true))
        #expect(!ignores(scratch.file("build/"), "build", root: scratch.path, isDirectory: false))
        #expect(ignores(scratch.path + "//src/**/*.o", "src/a/b.o", root: scratch.path))
        #expect(!ignores(scratch.file("build"), "src/build", root: scratch.path, isDirectory: true))
        // A wildcard before the root is named: matched against absolute paths.
        let parent = String(scratch.path[..<scratch.path.lastIndex(of: "/")!])
        #expect(ignores(parent + "/*/build", "build", root: scratch.path, isDirectory: true))
        #expect(!ignores(parent + "/nope*/build", "build", root: scratch.path, isDirectory: true))
    }

    @Test func aLeadingSlashStaysAnchoredUnlessItStartsDownTheRootsPath() {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        // `/build` as always: the root's build.
        #expect(ignores("/build", "build", root: scratch.path, isDirectory: true))
        // `/bin`: the root's bin, though `/` has one and the root has none
        // yet (a Go project before its first build).
        #expect(ignores("/bin", "bin", root: scratch.path, isDirectory: true))
        #expect(WatchOptions(exclude: ["/bin"]).globsMatchingNothing(below: [FilePath(scratch.path)]) == [])
        // A path that starts down the root's own and leaves it: outside.
        let first = "/" + scratch.path.split(separator: "/")[0]
        #expect(!ignores(first + "/elsewhere/x", "elsewhere/x", root: scratch.path))
        #expect(WatchOptions(exclude: [first + "/elsewhere/x"]).globsMatchingNothing(below: [FilePath(scratch.path)]).count == 1)
    }

    @Test func globsThatMatchNothingAreNamedOnce() {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        for directory in ["a", "b"] { mkdir(scratch.file(directory), 0o700) }
        scratch.write("ignores", "# c\n./ok\n\(scratch.file("c"))/**\n")
        let options = WatchOptions(include: ["./a/../b"], exclude: [scratch.file("b/x"), scratch.path, "./fine/**"], ignoreFiles: [scratch.file("ignores")])
        let lines = options.globsMatchingNothing(below: [FilePath(scratch.file("a")), FilePath(scratch.file("b"))])
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ignore glob \(scratch.path) ") && $0.contains("nothing below") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("filter glob ./a/../b ") && $0.contains(". or ..") }, "\(lines)")
        #expect(lines.contains { $0.contains("line 3") }, "\(lines)")
    }
}
