@testable import Signals
@testable import WatchSources
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Whether `pid` is still our child in the process table (running or zombie).
func isChildOfThisProcess(_ pid: pid_t) -> Bool {
    guard let entry = ProcessTable.entry(pid) else { return false }
    return entry.parent == getpid()
}

/// Whether every process of group `pgid` is gone (zombies of orphans aside:
/// this machine's init does not reap them).
func groupIsGone(_ pgid: pid_t) -> Bool {
    !ProcessTable.groupIsAlive(pgid)
}

/// A fresh temporary directory, removed by `removeTree`.
func makeTemporaryDirectory() -> String { TemporaryDirectory(prefix: "rwatch-procs").path }

/// Removes a directory tree made by a test.
func removeTree(_ path: String) { TemporaryDirectory.removeTree(path) }

/// Writes `text` to `path`, replacing it.
func writeFile(_ path: String, _ text: String, append: Bool = false, mode: mode_t = 0o644) {
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), mode)
    precondition(fd >= 0, "cannot open \(path)")
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        precondition(written > 0)
        offset += written
    }
    close(fd)
}
