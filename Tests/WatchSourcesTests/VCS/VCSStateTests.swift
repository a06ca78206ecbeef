import Glibc
import SystemPackage
import Testing
@testable import Signals
@testable import WatchSources
import TestSupport

/// `FileWatcher.vcsState(for:)` on real repositories with real inotify.
@Suite struct VCSStateTests {
    private final class StateRecorder: Sendable {
        let states = Locked<[VCSState]>([])
        var last: VCSState? { states.withLock { $0.last } }
        var kinds: Set<VCSState.Kind> { Set(last?.operations.map(\.kind) ?? []) }
    }

    private func record(_ paths: [String]) -> (StateRecorder, any Disposable) {
        let recorder = StateRecorder()
        let subscription = FileWatcher.vcsState(for: paths).subscribe(onNext: { state in recorder.states.withLock { $0.append(state) } })
        return (recorder, subscription)
    }

    @Test func followsTheIndexLockOfTheRepositoryAboveAWatchedSubdirectory() {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.makeDirectories(repo.top + "/src/deep")
        let (recorder, subscription) = record([repo.top + "/src/deep"])
        defer { subscription.dispose() }
        #expect(recorder.last == VCSState())
        repo.write(".git/index.lock", "")
        #expect(eventually { recorder.kinds == [.gitIndexLock] })
        #expect(recorder.last?.operations.first?.repository == FilePath(repo.top))
        // git renames the lock onto the index when it is done.
        Disk.rename(repo.top + "/.git/index.lock", repo.top + "/.git/index")
        #expect(eventually { recorder.last == VCSState() })
    }

    @Test func aLockPresentAtTheStartIsTheFirstState() {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write(".git/index.lock", "")
        let (recorder, subscription) = record([repo.top])
        defer { subscription.dispose() }
        #expect(recorder.kinds == [.gitIndexLock])
        Disk.remove(repo.top + "/.git/index.lock")
        #expect(eventually { recorder.last == VCSState() })
    }

    @Test func rebaseMergeAndCherryPickAreOperations() {
        let repo = TestRepository()
        defer { repo.remove() }
        let (recorder, subscription) = record([repo.top])
        defer { subscription.dispose() }
        repo.makeDirectories(repo.top + "/.git/rebase-merge")
        #expect(eventually { recorder.kinds == [.rebase] })
        repo.write(".git/rebase-merge/done", "pick 123\n")
        repo.write(".git/MERGE_HEAD", "abc\n")
        #expect(eventually { recorder.kinds == [.rebase, .merge] })
        TemporaryDirectory.removeTree(repo.top + "/.git/rebase-merge")
        Disk.remove(repo.top + "/.git/MERGE_HEAD")
        repo.write(".git/CHERRY_PICK_HEAD", "abc\n")
        #expect(eventually { recorder.kinds == [.cherryPick] })
        #expect(recorder.last?.operations.allSatisfy(\.kind.waitsForPerson) == true)
    }

    @Test func aLinkedWorktreeIsFollowedThroughItsOwnGitDirectory() {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write("a.txt", "a\n")
        #expect(repo.git(["add", "a.txt"]).status == 0)
        #expect(repo.git(["commit", "-qm", "first"]).status == 0)
        let worktree = repo.scratch.file("linked")
        #expect(repo.git(["worktree", "add", "-q", worktree]).status == 0)
        let (recorder, subscription) = record([worktree])
        defer { subscription.dispose() }
        let gitDirectory = repo.top + "/.git/worktrees/linked"
        Disk.write(gitDirectory + "/index.lock", "")
        #expect(eventually { recorder.last?.operations == [VCSState.Operation(kind: .gitIndexLock, repository: FilePath(worktree))] })
        Disk.remove(gitDirectory + "/index.lock")
        #expect(eventually { recorder.last == VCSState() })
    }

    @Test func mercurialsWorkingDirectoryLockIsAnOperation() {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at(".hg"))
        Disk.makeDirectories(dir.at("src"))
        let (recorder, subscription) = record([dir.at("src")])
        defer { subscription.dispose() }
        #expect(symlink("host:1234", dir.at(".hg/wlock")) == 0)
        #expect(eventually { recorder.kinds == [.mercurialLock] })
        Disk.remove(dir.at(".hg/wlock"))
        #expect(eventually { recorder.last == VCSState() })
    }

    @Test func outsideAnyRepositoryItIsIdleAndEnds() {
        let dir = TempDir()
        defer { dir.remove() }
        let completed = Locked(false)
        let subscription = FileWatcher.vcsState(for: [dir.path]).subscribe(onCompleted: { completed.withLock { $0 = true } })
        defer { subscription.dispose() }
        #expect(completed.withLock { $0 })
    }
}
