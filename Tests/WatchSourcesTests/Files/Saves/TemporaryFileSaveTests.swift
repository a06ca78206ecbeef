import Glibc
import Signals
import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// A save through a temporary file is one change of the real file, on
/// every backend, whatever the temporary is called: the default ignores
/// are off here, so the names themselves help nothing (`TemporaryFileSave`).
@Suite struct TemporaryFileSaveTests {
    /// Saves `file` three times with `save`, each followed by a marker
    /// (`zz-marker-N`) reported; returns whether the saves were quick
    /// (`QuickSave`), and what arrived, as arrays.
    private func saves(_ save: TemporaryFileSave, _ backend: Backend) -> (quick: Bool, outcome: (file: String, arrays: [[FileEvent]], ok: Bool)) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("app.c")
        Disk.write(file, "int x;\n")
        let arrays = Locked<[[FileEvent]]>([])
        let options = backend.options(WatchOptions(useDefaultIgnore: false))
        let subscription = FileWatcher.batches([dir.path], options: options)
            .subscribe(onNext: { events in arrays.withLock { $0.append(events) } })
        defer { subscription.dispose() }
        var ok = true
        var quick = true
        for round in 0..<3 {
            quick = save.save(file, "int x = \(round);\n") && quick
            let marker = dir.at("zz-marker-\(round)")
            Disk.write(marker)
            if backend == .poll { PollScanner.shared.fence() }
            ok = ok && eventually { arrays.withLock { $0.joined().contains { $0.path == FilePath(marker) } } }
        }
        return (quick, (file, arrays.withLock { $0 }, ok))
    }

    @Test(arguments: Backend.allCases, TemporaryFileSave.allCases)
    func aSaveThroughATemporaryFileIsAChangeOfTheRealFileOnly(_ backend: Backend, _ save: TemporaryFileSave) {
        let (file, arrays, ok) = QuickSave.attempts { saves(save, backend) }
        #expect(ok)
        let events = arrays.joined()
        let strays = events.filter { $0.path != FilePath(file) && !$0.path.string.contains("zz-marker") }
        #expect(strays.isEmpty, "\(backend), \(save): \(strays)")
        #expect(!events.contains { $0.path == FilePath(file) && ($0.kind == .deleted || $0.kind == .movedFrom) }, "\(backend), \(save): \(events)")
        // Each save reaches the subscriber whole, in one array (a run per
        // array is a run per save); polling may see an in-place write half
        // done, a rename never.
        let withFile = arrays.filter { $0.contains { $0.path == FilePath(file) } }
        if backend == .inotify || save.isRename {
            #expect(withFile.count == 3, "\(backend), \(save): \(arrays)")
        } else {
            #expect(withFile.count >= 3, "\(backend), \(save): \(arrays)")
        }
    }
}
