import Glibc
@testable import RecipeKit
import Testing
import TestSupport

/// The private directory of events files, on a directory of the test's own
/// (the process's shared one is never closed here).
@Suite struct EventsDirectoryTests {
    private func batch(_ paths: [String]) -> ChangeBatch {
        ChangeBatch(paths.map { FileEvent(path: FilePath($0), kind: .modified) })
    }

    private func entries(_ directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    @Test func theDirectoryGoesWithItsLastFile() {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let directory = EventsDirectory(base: base.path)
        let first = RunEnvironment(batch(["/a"]), directory: directory)
        let second = RunEnvironment(batch(["/b"]), directory: directory)
        #expect(entries(base.path).count == 1)
        first.remove()
        first.remove()
        #expect(entries(base.path).count == 1)
        second.remove()
        #expect(entries(base.path).isEmpty)
    }

    /// `ctrlCRemovesThePrivateEventsDirectory` once found a directory left
    /// behind: a run that started after the stop signal's cleanup made a
    /// new one, and rwatch exited before that run ended.
    @Test func aRunStartingAfterTheStopCleanupMakesNothing() {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let directory = EventsDirectory(base: base.path)
        let running = RunEnvironment(batch(["/a"]), directory: directory)
        #expect(running.variables["RWATCH_EVENTS_FILE"] != nil)
        // The stop signal's cleanup: every child is gone by then.
        directory.close()
        #expect(entries(base.path).isEmpty)
        let late = RunEnvironment(batch(["/b"]), directory: directory)
        #expect(entries(base.path).isEmpty, "left behind: \(entries(base.path))")
        #expect(late.variables["RWATCH_EVENTS_FILE"] == nil)
        late.remove()
        running.remove()
        #expect(entries(base.path).isEmpty)
    }
}
