import Glibc
import SystemPackage
import WatchSources
import WatchmanProtocol

/// Who besides the service's own user may reach its socket, from the
/// global configuration (`sock_group`, `sock_access`, `secondary_sock_group`),
/// and the modes, group and ACL that follow for the state directory and the
/// socket. Other users who get through connect as clients that may only
/// look (`ServiceClient.isOwner` false), never as the owner.
public struct SocketAccess: Sendable, Equatable {
    /// A group resolved from its name.
    public struct Group: Sendable, Equatable {
        public var name: String
        public var id: gid_t

        public init(name: String, id: gid_t) {
            self.name = name
            self.id = id
        }
    }

    /// `sock_access.group`: the socket's group may connect (socket 0660,
    /// directory 0750).
    public var group = false
    /// `sock_access.others`: everyone may connect (socket 0666, directory 0755).
    public var others = false
    /// `sock_group`: the group the state directory and socket get; nil:
    /// the process's effective group.
    public var sockGroup: Group?
    /// `secondary_sock_group`: one more group let in through an ACL
    /// (directory r-x, socket rw-), the user need not belong to it.
    public var secondaryGroup: Group?
    /// `__sock_file_group` (for tests only): the group the socket must end
    /// up with, when it differs from `sockGroup`.
    public var socketFileGroup: Group?

    public init() {}

    /// The state directory's mode: always setgid, so that what is made in
    /// it (the socket) takes its group.
    public var directoryMode: mode_t {
        0o700 | S_ISGID | (group ? 0o050 : 0) | (others ? 0o005 : 0)
    }

    /// The socket's mode.
    public var socketMode: mode_t {
        0o600 | (group ? 0o060 : 0) | (others ? 0o006 : 0)
    }

    /// Whether a client of another user may be served at all (as one that
    /// may only look): only when the configuration opened the socket.
    public var admitsOtherUsers: Bool { group || others || secondaryGroup != nil }

    /// The access the global configuration `value` describes; an error in
    /// the wording the service's start reports.
    public static func read(_ value: WatchmanValue) throws(ServeError) -> SocketAccess {
        var access = SocketAccess()
        if let given = value["sock_access"] {
            guard given.pairs != nil else { throw ServeError("Expected config value sock_access to be an object") }
            for key in ["group", "others"] {
                guard let flag = given[key] else { continue }
                guard let on = flag.boolean else { throw ServeError("Expected config value sock_access.\(key) to be a boolean") }
                if key == "group" { access.group = on } else { access.others = on }
            }
        }
        access.sockGroup = try group(value, "sock_group")
        access.secondaryGroup = try group(value, "secondary_sock_group")
        access.socketFileGroup = try group(value, "__sock_file_group")
        return access
    }

    private static func group(_ value: WatchmanValue, _ key: String) throws(ServeError) -> Group? {
        guard let given = value[key] else { return nil }
        guard let name = given.text else { throw ServeError("Expected config value \(key) to be a string") }
        return try resolve(name)
    }

    /// The group called `name` in the group database.
    public static func resolve(_ name: String) throws(ServeError) -> Group {
        var entry = Glibc.group()
        var found: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 16 << 10)
        let code = getgrnam_r(name, &entry, &buffer, buffer.count, &found)
        guard code == 0 else { throw ServeError("getting gid for '\(name)' failed: \(String(cString: strerror(code)))") }
        guard found != nil else { throw ServeError("group '\(name)' does not exist") }
        return Group(name: name, id: entry.gr_gid)
    }
}

extension SocketAccess {
    /// Makes `directory` the service's state directory: created if missing,
    /// refused unless this user owns it and no one else may write to it,
    /// then given `directoryMode`, the socket group and the secondary
    /// group's ACL (an existing directory is widened or narrowed to them).
    /// `strict` (rwatch's own default directory): a symbolic link, or a
    /// mode wider than the configuration allows, is refused, not changed.
    public func prepareStateDirectory(_ directory: FilePath, strict: Bool = false) throws(ServeError) {
        if directory.withPlatformString({ mkdir($0, 0o700) }) != 0, errno != EEXIST {
            throw .system("cannot make \(Quoted.escaped(directory))", errno)
        }
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (strict ? O_NOFOLLOW : 0)
        let fd = directory.withPlatformString { open($0, flags) }
        guard fd >= 0 else { throw .system("cannot use \(Quoted.escaped(directory)) as the state directory", errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .system("cannot use \(Quoted.escaped(directory))", errno) }
        guard status.st_uid == geteuid() else {
            throw ServeError("\(Quoted.escaped(directory)) belongs to uid \(status.st_uid), not to this user (uid \(geteuid())): refusing to serve from it")
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o022 == 0 else {
            throw ServeError("the permissions on \(directory.string) allow others to write to it: "
                + "make sure what is in it is yours, then run chmod \(String(directoryMode & 0o777, radix: 8)) on it")
        }
        let allowed = directoryMode | (secondaryGroup == nil ? 0 : 0o050)
        if strict, mode & 0o077 & ~allowed != 0 {
            throw ServeError("\(Quoted.escaped(directory)) is open to other users (mode \(String(mode, radix: 8))): "
                + "run chmod \(String(directoryMode & 0o777, radix: 8)) on it")
        }
        let groupID = sockGroup?.id ?? getegid()
        if status.st_gid != groupID, fchown(fd, uid_t.max, groupID) != 0 {
            throw .system("setting up group '\(sockGroup?.name ?? String(groupID))' failed", errno)
        }
        guard fchmod(fd, directoryMode) == 0 else { throw .system("cannot set the mode of \(Quoted.escaped(directory))", errno) }
        if let secondaryGroup, PosixACL.grant(fd: fd, mode: directoryMode, group: secondaryGroup.id, permissions: 5) != 0 {
            throw .system("setting up group '\(secondaryGroup.name)' on \(Quoted.escaped(directory)) failed", errno)
        }
    }

    /// Gives the freshly bound socket at `path` its mode, group and ACL. A
    /// socket that cannot be given the expected group is refused: the
    /// users meant to reach it could not.
    func settleSocket(_ path: FilePath) throws(ServeError) {
        guard path.withPlatformString({ chmod($0, socketMode) }) == 0 else {
            throw .system("cannot set the mode of the socket \(Quoted.escaped(path))", errno)
        }
        if let expected = socketFileGroup ?? sockGroup {
            var status = stat()
            guard path.withPlatformString({ lstat($0, &status) }) == 0 else { throw .system("cannot use \(Quoted.escaped(path))", errno) }
            if status.st_gid != expected.id, path.withPlatformString({ lchown($0, uid_t.max, expected.id) }) != 0 {
                throw ServeError("for socket '\(path.string)', gid \(status.st_gid) doesn't match expected gid \(expected.id) "
                    + "(group name \(expected.name)).")
            }
        }
        if let secondaryGroup, PosixACL.grant(path: path, mode: socketMode, group: secondaryGroup.id, permissions: 6) != 0 {
            throw .system("setting up group '\(secondaryGroup.name)' on \(Quoted.escaped(path)) failed", errno)
        }
    }
}

/// Watchman's per-user state directory (`--test-state-dir`), shared by
/// the service and the `watchman` command that looks for its socket.
public enum StateDirectory {
    /// `parent/USER-state`, USER the password database's name for this
    /// process's effective user (its number when it has none).
    public static func path(under parent: FilePath) -> FilePath {
        let user = getpwuid(geteuid())?.pointee.pw_name.map { String(cString: $0) } ?? "\(geteuid())"
        return parent.appending("\(user)-state")
    }
}
