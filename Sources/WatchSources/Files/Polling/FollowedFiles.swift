import Glibc
import SystemPackage

/// The rule files outside a polled tree (`PathFilter.followedFiles`: an
/// ancestor's `.gitignore`, `info/exclude`, the global excludes file, an
/// `--ignore-file`, git's index), looked at once per pass: with no inotify
/// watch on their directories, nothing else tells of their change. A file
/// is compared by identity, size, times and mode, itself and (for a
/// symbolic link) what it points to; one that is missing is looked for on
/// every pass, so its creation is a change too.
struct FollowedFiles {
    /// How a file looked: nil while it is missing.
    private struct Look: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64
        var mode: UInt32

        init?(_ path: FilePath, follow: Bool) {
            var info = stat()
            guard path.withPlatformString({ follow ? stat($0, &info) : lstat($0, &info) }) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = PollEntry.nanoseconds(info.st_mtim)
            changed = PollEntry.nanoseconds(info.st_ctim)
            mode = info.st_mode
        }
    }

    private var files: [(path: FilePath, looks: [Look?])]

    /// Starts following `paths`, as they are now.
    init(_ paths: [FilePath]) {
        files = paths.map { ($0, FollowedFiles.look($0)) }
    }

    var isEmpty: Bool { files.isEmpty }

    /// The files that changed since the last call (or `init`).
    mutating func changed() -> [FilePath] {
        var found: [FilePath] = []
        for index in files.indices {
            let now = FollowedFiles.look(files[index].path)
            if now != files[index].looks {
                files[index].looks = now
                found.append(files[index].path)
            }
        }
        return found
    }

    /// The file itself, and what it points to.
    private static func look(_ path: FilePath) -> [Look?] {
        [Look(path, follow: false), Look(path, follow: true)]
    }
}
