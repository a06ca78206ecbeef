import Glibc
import SystemPackage

/// Scanning one directory of a polling pass: list it, `stat` what is not
/// ignored (relative to the open directory), compare with the snapshot.
///
/// An unchanged directory is compared in step with its snapshot (the
/// kernel lists names in the same order while nothing changes), updating
/// it in place: no sorting, hashing or allocation. Only when names come or
/// go is the snapshot rebuilt. Changes of content (`modified`) and
/// metadata (`attributes`) go out as soon as the directory is done; what
/// appeared and vanished waits for the end of the pass, where moves are
/// paired (`PollChanges`). Ignored names are kept by name, never `stat`-ed,
/// and ignored directories are never entered.
extension PollMachine {
    /// Scans `item`, queueing the directories below it on `stack`. False
    /// when the directory could not be opened (gone, or no longer one).
    ///
    /// A directory whose mtime and ctime did not change since the last pass
    /// (and are older than a second, so that two changes within one clock
    /// tick cannot hide) holds the same names: on a local file system,
    /// where those times are this kernel's own, its listing is not read
    /// again, only its entries `stat`-ed.
    func scanDirectory<System: PollSystem>(_ item: Pending, _ system: System, _ changes: inout PollChanges,
                                           _ stack: inout [Pending]) -> Bool {
        let descriptor = system.openDirectory(item.path, following: item.isTop)
        guard descriptor >= 0 else {
            // Not readable now (its mode): what it holds once a chmod lets
            // the pass in is new to the watch, as in a directory that appeared.
            tree[item.index].baseline = false
            return false
        }
        let sameNames = !item.mustList && !tree[item.index].baseline && trustsDirectoryTimes(tree[item.index].device, system)
        var scan = DirectoryScan(machine: self, system: system, item: item, descriptor: descriptor)
        if sameNames {
            defer { system.closeDirectory(descriptor) }
            // The names buffer is only read while the scan runs; the entries
            // are read through the scan, which updates them in place.
            let known = scan.oldNames
            known.withUnsafeBytes { names in
                for position in 0..<scan.oldCount {
                    let (start, length, isDirectory) = scan.nameOfOld(position)
                    let name = UnsafeRawBufferPointer(start: names.baseAddress! + start, count: length)
                    scan.visit(name, type: isDirectory ? UInt8(DT_DIR) : UInt8(DT_REG))
                }
            }
            scan.finish(&changes, &stack)
            return true
        }
        let listed = system.list(descriptor) { name, type, inode in
            scan.visit(UnsafeRawBufferPointer(name), type: type, inode: inode)
        }
        guard listed else { return false }
        scan.finish(&changes, &stack)
        return true
    }

    /// Whether directory times on `device` are this kernel's own (a local
    /// file system), so that an unchanged mtime means unchanged names.
    func trustsDirectoryTimes<System: PollSystem>(_ device: UInt64, _ system: System) -> Bool {
        if let known = localDevices[device] { return known }
        let local = system.hasLocalTimes(device: device)
        localDevices[device] = local
        return local
    }

    /// Whether an ignore file of the directory open at `descriptor` differs
    /// from what the snapshot `index` holds (appeared, vanished, changed).
    func ignoreFilesChanged<System: PollSystem>(_ descriptor: Int32, _ index: Int32, _ system: System) -> Bool {
        let directory = tree[index]
        for name in PathFilter.ruleFileNames.map(\.string) {
            var info = stat()
            let exists = name.withCString { system.status(at: descriptor, $0, &info) }
            let bytes = Array(name.utf8)
            let known = directory.entries.first { entry in
                entry.flags.contains(.ignoreFile) && directory.name(entry).elementsEqual(bytes)
            }
            guard let known else {
                if exists { return true }
                continue
            }
            if !exists || known.inode != UInt64(info.st_ino) || known.size != Int64(info.st_size)
                || known.modified != Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            {
                return true
            }
        }
        return false
    }

    /// The flags of a name at `relative` (below the client's root) under the current filter.
    func decide(_ relative: ArraySlice<UInt8>, _ name: UnsafeRawBufferPointer, isDirectory: Bool) -> PollEntry.Flags {
        var path = Array(relative)
        if !path.isEmpty { path.append(UInt8(ascii: "/")) }
        path.append(contentsOf: name)
        let relativePath = FilePath(bytes: path)
        if isDirectory {
            guard filter.watchesDirectory(relativePath) else { return [.directory, .skipped] }
            return filter.reports(relativePath, isDirectory: true) ? [.directory, .reported] : [.directory]
        }
        let reported = filter.reports(relativePath, isDirectory: false)
        let ignoreFile = filter.readsDirectoryRuleFiles && relativePath.lastComponent.map(PathFilter.isRuleFileName) == true
        if !reported && !ignoreFile { return .skipped }
        var flags: PollEntry.Flags = reported ? .reported : []
        if ignoreFile { flags.insert(.ignoreFile) }
        return flags
    }

    /// Moves the generation on: every directory decides its entries' flags again.
    func bumpGeneration() {
        generation = generation &+ 1 == .max ? 0 : generation &+ 1
    }
}
