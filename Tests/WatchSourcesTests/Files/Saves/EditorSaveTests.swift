import Glibc
import Signals
import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// Editors' save patterns must reach subscribers as a change of the real
/// path only: no temporary or backup names, no delete or create of it.
@Suite struct EditorSaveTests {
    /// The kinds seen for `path`, and whether any other path (but the marker) was reported.
    private func outcome(_ recorder: Recorder, _ dir: TempDir, _ path: String) -> (kinds: Set<FileEvent.Kind>, strays: [FileEvent]) {
        let events = recorder.snapshot
        let kinds = Set(events.filter { $0.path.string == path }.map(\.kind))
        let strays = events.filter { $0.path.string != path && !$0.path.string.hasSuffix("zz-marker") }
        return (kinds, strays)
    }

    @Test(arguments: Backend.allCases) func writeToTempThenRenameIsOneModification(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("main.swift")
        Disk.write(file, "old\n")
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        // JetBrains' safe write: new text to a temporary, old file to a backup, swap, drop the backup.
        Disk.write(dir.at("main.swift___jb_tmp___"), "new\n")
        Disk.rename(file, dir.at("main.swift___jb_old___"))
        Disk.rename(dir.at("main.swift___jb_tmp___"), file)
        Disk.remove(dir.at("main.swift___jb_old___"))
        #expect(eventually { recorder.has(.modified, file) })
        #expect(settle(recorder, in: dir.path, backend: backend))
        let (kinds, strays) = outcome(recorder, dir, file)
        #expect(kinds == [.modified])
        #expect(strays.isEmpty)
    }

    @Test(arguments: Backend.allCases) func sedInPlaceIsOneModification(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("notes.md")
        Disk.write(file, "hello\n")
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        // `sed -i` writes ./sedXXXXXX, then renames it over the file.
        Disk.write(dir.at("sedA1b2C3"), "HELLO\n")
        Disk.rename(dir.at("sedA1b2C3"), file)
        #expect(eventually { recorder.has(.modified, file) })
        #expect(settle(recorder, in: dir.path, backend: backend))
        let (kinds, strays) = outcome(recorder, dir, file)
        #expect(kinds == [.modified])
        #expect(strays.isEmpty)
    }

    @Test(arguments: Backend.allCases) func vimBackupRenameWriteIsOneModification(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("app.c")
        Disk.write(file, "int x;\n")
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        // vim (backupcopy=no): probe file 4913, rename to app.c~, write a new app.c, drop the backup.
        Disk.write(dir.at("4913"), "")
        Disk.remove(dir.at("4913"))
        Disk.rename(file, dir.at("app.c~"))
        Disk.write(file, "int y;\n")
        chmod(file, 0o644)
        Disk.remove(dir.at("app.c~"))
        #expect(eventually { recorder.hasWrite(file, backend) })
        #expect(settle(recorder, in: dir.path, backend: backend))
        let (kinds, strays) = outcome(recorder, dir, file)
        #expect(kinds.isSubset(of: [.modified, .closedWrite, .attributes]))
        #expect(kinds.contains(.modified))
        #expect(strays.isEmpty)
    }

    @Test(arguments: Backend.allCases) func truncateAndWriteIsAModificationOfThePathOnly(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("config.json")
        Disk.write(file, "{}\n")
        let (recorder, subscription) = record([dir.path], backend: backend)
        defer { subscription.dispose() }
        Disk.write(file, "{\"a\": 1}\n")   // O_TRUNC, write, close: VS Code's default
        #expect(eventually { recorder.hasWrite(file, backend) })
        #expect(settle(recorder, in: dir.path, backend: backend))
        let (kinds, strays) = outcome(recorder, dir, file)
        // Polling sees the new size and mtime, not the close.
        #expect(kinds == (backend == .inotify ? [.modified, .closedWrite] : [.modified]))
        #expect(strays.isEmpty)
        #expect(ChangeBatch(recorder.events(for: file)).paths == [FilePath(file)])
    }

    @Test(arguments: Backend.allCases) func aWatchedSingleFileSurvivesAtomicReplacement(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("settings.toml")
        Disk.write(file, "a = 1\n")
        Disk.write(dir.at("sibling.txt"))
        let (recorder, subscription) = record([file], backend: backend)
        defer { subscription.dispose() }
        func count(_ kind: FileEvent.Kind) -> Int { recorder.events(for: file).filter { $0.kind == kind }.count }
        Disk.write(dir.at(".settings.toml.tmp"), "a = 2\n")
        Disk.rename(dir.at(".settings.toml.tmp"), file)
        #expect(eventually { recorder.has(.modified, file) })
        // Still watched after the replacement, and the old inode is no concern.
        let replaced = count(.modified)
        Disk.append(file, "b = 3\n")
        #expect(eventually { count(.modified) > replaced })
        // Its siblings stay unreported: by the time a later change of the file
        // arrives, the sibling's change has been read and dropped.
        let written = count(backend.written)
        Disk.append(dir.at("sibling.txt"), "noise")
        Disk.append(file, "c = 4\n")
        #expect(eventually { count(backend.written) > written })
        #expect(recorder.failure.withLock { $0 } == nil)
        #expect(recorder.snapshot.allSatisfy { $0.path.string == file })
    }

    @Test(arguments: Backend.allCases) func aWatchedSingleFileSurvivesVimsSave(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("todo.txt")
        Disk.write(file, "one\n")
        let (recorder, subscription) = record([file], backend: backend)
        defer { subscription.dispose() }
        Disk.rename(file, dir.at("todo.txt~"))
        Disk.write(file, "two\n")
        Disk.remove(dir.at("todo.txt~"))
        #expect(eventually { recorder.hasWrite(file, backend) })
        let writes = recorder.events(for: file).filter { $0.kind == backend.written }.count
        Disk.append(file, "three\n")
        #expect(eventually { recorder.events(for: file).filter { $0.kind == backend.written }.count > writes })
        #expect(recorder.failure.withLock { $0 } == nil)
        #expect(!recorder.snapshot.contains { [.deleted, .movedFrom, .created].contains($0.kind) })
    }

    /// Subscribes to `FileWatcher.batches` (read by `seams`' own reader,
    /// when given), keeping every batch.
    private func recordBatches(_ path: String, seams: ReaderSeams? = nil) -> (Locked<[ChangeBatch]>, any Disposable) {
        let batches = Locked<[ChangeBatch]>([])
        let watch = seams.map { FileWatcher.batches([FilePath(path)], options: WatchOptions(), reader: FileWatcher.Reader(seams: $0)) }
            ?? FileWatcher.batches([path])
        let subscription = watch.subscribe(onNext: { events in batches.withLock { $0.append(ChangeBatch(events)) } })
        return (batches, subscription)
    }

    /// Writes a marker and waits for its batch: everything before it has been delivered.
    private func settleBatches(_ batches: Locked<[ChangeBatch]>, in dir: TempDir, _ name: String) -> Bool {
        Disk.write(dir.at(name))
        return eventually { batches.withLock { $0.contains { $0.paths.contains(FilePath(dir.at(name))) } } }
    }

    @Test func anInPlaceWriteReadInTwoPartsIsOneBatch() {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("main.swift")
        Disk.write(file, "old\n")
        let (batches, subscription) = recordBatches(dir.path)
        defer { subscription.dispose() }
        withoutSpawns {
            let fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC)
            _ = Array("new\n".utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            // The reader has read the truncation and the write; the file is still open.
            InotifyReader.shared.barrier()
            close(fd)
        }
        #expect(settleBatches(batches, in: dir, "zz-marker"))
        let withFile = batches.withLock { $0 }.filter { $0.paths.contains(FilePath(file)) }
        #expect(withFile.count == 1)
        #expect(withFile.first?.events.map(\.kind) == [.modified, .closedWrite])
    }

    /// Saves `app.c` `count` times as `editor` does, each followed by a
    /// marker reported (with `halvesApart`, renames' halves read apart);
    /// whether the saves were quick, the file, and every batch.
    private func savedBatches(_ editor: EditorSave, count: Int, halvesApart: Bool = false)
        -> (quick: Bool, outcome: (file: String, batches: [ChangeBatch])) {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("app.c")
        Disk.write(file, "int x;\n")
        let seams = halvesApart ? ReaderSeams() : nil
        let (batches, subscription) = recordBatches(dir.path, seams: seams)
        defer { subscription.dispose() }
        seams?.readRenameHalvesApart(in: FilePath(dir.path))
        var quick = true
        for save in 0..<count {
            quick = editor.save(file, "int x = \(save);\n", first: save == 0) && quick
            #expect(settleBatches(batches, in: dir, "zz-marker-\(save)"))
        }
        return (quick, (file, batches.withLock { $0 }))
    }

    /// The kernel queues a rename's two halves one after the other, so the
    /// reader can read the first alone; the seam makes it do so every time.
    @Test(arguments: [EditorSave.jetBrains, .vimRename]) func aSaveWhoseRenameHalvesAreReadApartIsOneBatch(_ editor: EditorSave) {
        let (file, all) = QuickSave.attempts { savedBatches(editor, count: 1, halvesApart: true) }
        let withFile = all.filter { $0.paths.contains(FilePath(file)) }
        #expect(withFile.count == 1, "\(editor): \(all)")
        #expect(withFile.first?.kinds[FilePath(file)]?.contains(.modified) == true, "\(editor): \(all)")
        #expect(!all.flatMap(\.events).contains { $0.kind == .movedFrom || $0.kind == .deleted }, "\(editor): \(all)")
    }

    @Test func aRenameWhoseHalvesAreReadApartIsOneMove() {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at("old.txt"), "x\n")
        let seams = ReaderSeams()
        let (batches, subscription) = recordBatches(dir.path, seams: seams)
        defer { subscription.dispose() }
        seams.readRenameHalvesApart(in: FilePath(dir.path))
        Disk.rename(dir.at("old.txt"), dir.at("new.txt"))
        #expect(settleBatches(batches, in: dir, "zz-marker"))
        let moves = batches.withLock { $0 }.filter { $0.paths.contains(FilePath(dir.at("old.txt"))) }
        #expect(moves.count == 1)
        #expect(moves.first?.events.map(\.kind) == [.movedFrom, .movedTo])
    }

    @Test(arguments: EditorSave.allCases) func eachEditorsSaveIsOneBatchOfTheRealPath(_ editor: EditorSave) {
        let (file, all) = QuickSave.attempts { savedBatches(editor, count: 2) }
        let withFile = all.filter { $0.paths.contains(FilePath(file)) }
        #expect(withFile.count == 2, "\(editor): \(all)")
        #expect(withFile.allSatisfy { $0.kinds[FilePath(file)]?.contains(.modified) == true }, "\(editor): \(all)")
        let strays = all.flatMap(\.paths).filter { $0 != FilePath(file) && !$0.string.contains("zz-marker") }
        #expect(strays.isEmpty, "\(editor): \(strays)")
    }
}
