import Signals
import SystemPackage
import Testing
import TestSupport
@testable import WatchSources

/// `TrackedFilesRefresh` with git's threads run by the test, one at a
/// time, and git's answers numbered.
@Suite struct TrackedFilesRefreshTests {
    /// The threads the refresh asked for, not yet run.
    final class Threads: Sendable {
        private let waiting = Locked<[@Sendable () -> Void]>([])
        /// Whether a thread may be made.
        let refuses = Locked(false)

        func start(_ body: @escaping @Sendable () -> Void) -> Bool {
            if refuses.withLock({ $0 }) { return false }
            waiting.withLock { $0.append(body) }
            return true
        }

        var count: Int { waiting.withLock { $0.count } }

        /// Runs the first thread asked for; false when none waits.
        @discardableResult
        func runNext() -> Bool {
            let body: (@Sendable () -> Void)? = waiting.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            body?()
            return body != nil
        }
    }

    private static let top = FilePath("/repo")

    /// A refresh whose git answers, at its nth run, that it tracks the one file "n".
    private func refresh(_ threads: Threads, requests: [FilePath: TrackedFilesRefresh.Request]? = nil) -> (TrackedFilesRefresh, Locked<Int>) {
        let runs = Locked(0)
        let refresh = TrackedFilesRefresh(
            requests: requests ?? [Self.top: (gitDirectory: FilePath("/repo/.git"), environment: nil, within: [])],
            load: { requests in
                let run = runs.withLock { runs in
                    runs += 1
                    return runs
                }
                return requests.mapValues { _ in TrackedFiles(paths: [Array("\(run)".utf8)]) }
            },
            startThread: { threads.start($0) })
        return (refresh, runs)
    }

    /// Subscribes to `refresh`, and what it is handed: the file git tracks in each answer.
    private func subscribe(_ refresh: TrackedFilesRefresh) -> (id: Int?, Locked<[String]>) {
        let received = Locked<[String]>([])
        let (id, latest) = refresh.subscribe { found in
            received.withLock { $0.append(Self.file(found)) }
        }
        if let latest { received.withLock { $0.append("latest " + Self.file(latest)) } }
        return (id, received)
    }

    private static func file(_ found: TrackedFilesRefresh.Answer) -> String {
        found[top].flatMap { $0.paths.first.map { String(decoding: $0, as: UTF8.self) } } ?? "none"
    }

    @Test func everySubscriberTakesEachAnswer() {
        let threads = Threads()
        let (refresh, _) = refresh(threads)
        let (_, first) = subscribe(refresh)
        let (_, second) = subscribe(refresh)
        refresh.mayHaveChanged()
        #expect(threads.runNext())
        #expect(first.withLock { $0 } == ["1"])
        #expect(second.withLock { $0 } == ["1"])
        #expect(threads.count == 0)
    }

    /// Changes while git runs: one more run, after the answer.
    @Test func changesWhileGitRunsMakeOneMoreRun() {
        let threads = Threads()
        let (refresh, runs) = refresh(threads)
        let (_, received) = subscribe(refresh)
        refresh.mayHaveChanged()
        refresh.mayHaveChanged()
        refresh.mayHaveChanged()
        #expect(threads.count == 1)
        threads.runNext()
        #expect(received.withLock { $0 } == ["1"])
        #expect(threads.count == 1)
        threads.runNext()
        #expect(received.withLock { $0 } == ["1", "2"])
        #expect(threads.count == 0)
        #expect(runs.withLock { $0 } == 2)
    }

    /// A client that ended: the answer of a run under way is dropped, and
    /// nothing starts any more.
    @Test func stopDropsAnswersAndStartsNothing() {
        let threads = Threads()
        let (refresh, runs) = refresh(threads)
        let (_, received) = subscribe(refresh)
        refresh.mayHaveChanged()
        refresh.mayHaveChanged()
        refresh.stop()
        threads.runNext()
        #expect(threads.count == 0)
        refresh.mayHaveChanged()
        #expect(threads.count == 0)
        #expect(received.withLock { $0 }.isEmpty)
        // Its thread started after the stop: git was not asked.
        #expect(runs.withLock { $0 } == 0)
        #expect(subscribe(refresh).id == nil)
    }

    /// A poll job made before an answer and started after it takes that
    /// answer when it subscribes; one that unsubscribed takes nothing more.
    @Test func aLaterSubscriberTakesTheLastAnswerAndOneGoneTakesNothing() {
        let threads = Threads()
        let (refresh, _) = refresh(threads)
        let (first, early) = subscribe(refresh)
        refresh.mayHaveChanged()
        threads.runNext()
        let (_, late) = subscribe(refresh)
        #expect(late.withLock { $0 } == ["latest 1"])
        refresh.unsubscribe(first!)
        refresh.mayHaveChanged()
        threads.runNext()
        #expect(early.withLock { $0 } == ["1"])
        #expect(late.withLock { $0 } == ["latest 1", "2"])
    }

    /// No thread for git: nothing is stuck; the next change asks again.
    @Test func noThreadLeavesItReadyForTheNextChange() {
        let threads = Threads()
        let (refresh, _) = refresh(threads)
        let (_, received) = subscribe(refresh)
        threads.refuses.withLock { $0 = true }
        refresh.mayHaveChanged()
        threads.refuses.withLock { $0 = false }
        refresh.mayHaveChanged()
        threads.runNext()
        #expect(received.withLock { $0 } == ["1"])
    }

    /// Outside any repository there is nothing to ask.
    @Test func noRepositoryNoGit() {
        let threads = Threads()
        let (refresh, _) = refresh(threads, requests: [:])
        refresh.mayHaveChanged()
        #expect(threads.count == 0)
    }

    /// A subscriber is called without the refresh's lock held: it may
    /// tell the refresh of a change, or subscribe, from its handler.
    @Test func aSubscriberMayCallTheRefreshBack() {
        let threads = Threads()
        let (refresh, _) = refresh(threads)
        let calls = Locked(0)
        _ = refresh.subscribe { _ in
            guard calls.withLock({ $0 += 1; return $0 }) == 1 else { return }
            refresh.mayHaveChanged()
            _ = refresh.subscribe { _ in }
        }
        refresh.mayHaveChanged()
        threads.runNext()
        threads.runNext()
        #expect(calls.withLock { $0 } == 2)
        #expect(threads.count == 0)
    }

    /// With real threads (`DetachedThread`), the answer arrives.
    @Test func gitsThreadDelivers() {
        let refresh = TrackedFilesRefresh(
            requests: [Self.top: (gitDirectory: FilePath("/repo/.git"), environment: nil, within: [])],
            load: { requests in requests.mapValues { _ in TrackedFiles(paths: [Array("x".utf8)]) } })
        let (_, received) = subscribe(refresh)
        refresh.mayHaveChanged()
        #expect(eventually { received.withLock { $0 } == ["x"] })
        refresh.stop()
    }
}
