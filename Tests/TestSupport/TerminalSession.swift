#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair opened by a test: the master stays with the test
/// (it types into it and reads what the program shows); the slave becomes a
/// program's controlling terminal, the program leading a new session on it
/// (`prepare(_:flags:)`), as a shell's job in a terminal window does.
public final class TerminalSession: @unchecked Sendable {
    // Safety: used by one test's thread only.
    /// The test's end; -1 once `hangUp()` closed it.
    public private(set) var master: Int32
    /// The program's end, `/dev/pts/N`.
    public let slavePath: String
    private var shown: [UInt8] = []

    /// Opens a new pair; nil when the system has no pseudo-terminals.
    public init?() {
        // posix_openpt, unlockpt and ptsname as the kernel takes them (the
        // Glibc module leaves the XSI names out).
        let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
        let getNumber: UInt = 0x8004_5430  // TIOCGPTN
        guard ioctl(fd, setLock, &unlock) == 0, ioctl(fd, getNumber, &number) == 0 else {
            close(fd)
            return nil
        }
        master = fd
        slavePath = "/dev/pts/\(number)"
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { if master >= 0 { close(master) } }

    /// Closes the test's end, as closing a terminal window does: the kernel
    /// hangs the terminal up (SIGHUP to its session leader and foreground group).
    public func hangUp() {
        guard master >= 0 else { return }
        close(master)
        master = -1
    }

    /// Types `text` (a key, a line with `\n`, `\u{3}` for Ctrl-C, `\u{1A}` for Ctrl-Z).
    public func type(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Makes the terminal `columns` wide and `rows` high, as resizing its
    /// window does (what TIOCGWINSZ then reports to the program).
    public func resize(columns: UInt16, rows: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Everything the program has shown so far (read without waiting).
    public var output: String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            shown += buffer[0..<count]
        }
        return String(decoding: shown, as: UTF8.self)
    }

    /// `stty -g` of the terminal: its modes, as a string to compare.
    public func modes() -> String {
        guard let pipe = popen("stty -g < '\(slavePath)'", "r") else { return "" }
        var buffer = [CChar](repeating: 0, count: 1024)
        var text = ""
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        pclose(pipe)
        return text
    }

    /// Sets up `actions` and the spawn `flags` so that the spawned program
    /// leads a new session whose controlling terminal is the slave, on fds 0, 1, 2.
    public func prepare(_ actions: inout posix_spawn_file_actions_t, flags: inout Int32) {
        // Opening the terminal after setsid() makes it the controlling one.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        flags |= 0x80  // POSIX_SPAWN_SETSID
    }
}

/// One process's row in `/proc/PID/stat`: state, group, terminal's foreground group.
public struct ProcessStat: Sendable, Equatable {
    public var state: Character
    public var parent: Int32
    public var group: Int32
    public var foregroundGroup: Int32

    /// The row of `pid`, nil when it does not exist.
    public init?(_ pid: Int32) {
        let text = TemporaryDirectory.read("/proc/\(pid)/stat")
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // state ppid pgrp session tty_nr tpgid
        guard fields.count > 5, let state = fields[0].first, let parent = Int32(fields[1]),
              let group = Int32(fields[2]), let foreground = Int32(fields[5]) else { return nil }
        self.state = state
        self.parent = parent
        self.group = group
        self.foregroundGroup = foreground
    }

    /// The children of `pid` (from every process's parent field).
    public static func children(of pid: Int32) -> [Int32] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var found: [Int32] = []
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let child = Int32(name), ProcessStat(child)?.parent == pid { found.append(child) }
        }
        return found
    }
}
