import Glibc
@testable import rwatch
import TestSupport
import Testing
import WatchSources

@Suite struct FileSystemTests {
    /// A scratch directory holding a symlink to a directory elsewhere: the
    /// link goes, what it points to stays.
    @Test func removingATreeRemovesASymlinkWithoutFollowingIt() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        _ = mkdir(dir.file("kept"), 0o755)
        dir.write("kept/file", "precious")
        _ = mkdir(dir.file("scratch"), 0o755)
        dir.write("scratch/tmp", "x")
        _ = symlink(dir.file("kept"), dir.file("scratch/link"))

        FileSystem.removeTree(dir.file("scratch"))

        #expect(!FileSystem.exists(dir.file("scratch")))
        #expect(dir.read("kept/file") == "precious")
    }

    /// `.`, `..` and repeated slashes go, as the watcher's own paths do.
    @Test func absolutePathsAreNormalized() {
        let cwd = FileSystem.currentDirectory()
        #expect(FileSystem.absolute("a/./b//c/../d") == (cwd == "/" ? "" : cwd) + "/a/b/d")
        #expect(FileSystem.absolute("/x/y/..") == "/x")
    }
}
