import Dispatch
import Glibc
import Service
import SystemPackage
import Testing
import TestSupport
import WatchmanProtocol

/// The global configuration's `sock_access`, `sock_group` and
/// `secondary_sock_group`: what the state directory and the socket become,
/// and the refusals when the configuration or the directory is wrong.
/// Written to pass as root (CI) and as an ordinary user.
@Suite struct SocketAccessTests {
    private static func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    private static func groupOf(_ path: String) -> gid_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_gid : gid_t.max
    }

    /// A group other than the effective one that this process may give its
    /// files: a supplementary group, or any group at all as root.
    private static func otherGroup() -> SocketAccess.Group? {
        var groups = [gid_t](repeating: 0, count: 256)
        let count = getgroups(Int32(groups.count), &groups)
        var candidates = count > 0 ? Array(groups.prefix(Int(count))) : []
        if geteuid() == 0 { candidates += [65534, 1, 2] }
        for id in candidates where id != getegid() {
            if let entry = getgrgid(id), let name = entry.pointee.gr_name { return .init(name: String(cString: name), id: id) }
        }
        return nil
    }

    private static func access(_ json: String) throws -> SocketAccess {
        try SocketAccess.read(try JSONLines.decode(Array(json.utf8)))
    }

    private static func refusal(_ json: String) -> String? {
        do {
            _ = try access(json)
            return nil
        } catch let error as ServeError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func withoutKeysOnlyTheOwnerGetsIn() throws {
        let scratch = TemporaryDirectory(prefix: "rwatch-access")
        defer { scratch.remove() }
        let access = try Self.access("{}")
        #expect(!access.admitsOtherUsers)
        try access.prepareStateDirectory(FilePath(scratch.file("me-state")))
        #expect(Self.mode(scratch.file("me-state")) == 0o700 | S_ISGID)
        #expect(Self.groupOf(scratch.file("me-state")) == getegid())
        #expect(access.socketMode == 0o600)
    }

    @Test func groupAndOthersOpenTheDirectoryAndTheSocket() throws {
        let scratch = TemporaryDirectory(prefix: "rwatch-access")
        defer { scratch.remove() }
        let group = try Self.access(#"{"sock_access": {"group": true}}"#)
        try group.prepareStateDirectory(FilePath(scratch.file("group")))
        #expect(Self.mode(scratch.file("group")) == 0o750 | S_ISGID && group.socketMode == 0o660)
        let everyone = try Self.access(#"{"sock_access": {"group": true, "others": true}}"#)
        try everyone.prepareStateDirectory(FilePath(scratch.file("everyone")))
        #expect(Self.mode(scratch.file("everyone")) == 0o755 | S_ISGID && everyone.socketMode == 0o666)
        #expect(group.admitsOtherUsers && everyone.admitsOtherUsers)
    }

    @Test func anExistingDirectoryIsWidenedOrNarrowed() throws {
        let scratch = TemporaryDirectory(prefix: "rwatch-access")
        defer { scratch.remove() }
        let directory = scratch.file("state")
        mkdir(directory, 0o700)
        chmod(directory, 0o700)
        try Self.access(#"{"sock_access": {"group": true, "others": true}}"#).prepareStateDirectory(FilePath(directory))
        #expect(Self.mode(directory) == 0o755 | S_ISGID)
        try Self.access(#"{"sock_access": {"group": true}}"#).prepareStateDirectory(FilePath(directory))
        #expect(Self.mode(directory) == 0o750 | S_ISGID)
        try Self.access("{}").prepareStateDirectory(FilePath(directory))
        #expect(Self.mode(directory) == 0o700 | S_ISGID)
    }

    @Test func sockGroupIsGivenToTheDirectory() throws {
        guard let other = Self.otherGroup() else { return }
        let scratch = TemporaryDirectory(prefix: "rwatch-access")
        defer { scratch.remove() }
        let directory = scratch.file("state")
        mkdir(directory, 0o700)
        #expect(Self.groupOf(directory) != other.id)
        let access = try Self.access(#"{"sock_group": "\#(other.name)"}"#)
        #expect(access.sockGroup == other)
        try access.prepareStateDirectory(FilePath(directory))
        #expect(Self.groupOf(directory) == other.id && Self.mode(directory) == 0o700 | S_ISGID)
    }

    @Test func aDirectoryOthersMayWriteToIsRefusedUntouched() {
        let scratch = TemporaryDirectory(prefix: "rwatch-access")
        defer { scratch.remove() }
        let directory = scratch.file("state")
        mkdir(directory, 0o700)
        chmod(directory, 0o777)
        #expect(throws: ServeError.self) { try SocketAccess().prepareStateDirectory(FilePath(directory)) }
        do {
            try SocketAccess().prepareStateDirectory(FilePath(directory))
        } catch {
            #expect(error.description.contains("the permissions on \(directory) allow others to write to it"))
        }
        #expect(Self.mode(directory) == 0o777)
    }

    @Test func badValuesAndUnknownGroupsAreNamed() {
        #expect(Self.refusal(#"{"sock_access": "bogus"}"#)?.contains("Expected config value sock_access to be an object") == true)
        #expect(Self.refusal(#"{"sock_access": {"group": "oui"}}"#)?.contains("sock_access.group to be a boolean") == true)
        #expect(Self.refusal(#"{"sock_access": {"others": 1}}"#)?.contains("sock_access.others to be a boolean") == true)
        // A name no group database holds (too long for most, and odd).
        let missing = "rwatch-no-such-group-\(getpid())"
        #expect(Self.refusal(#"{"sock_group": "\#(missing)"}"#)?.contains("group '\(missing)' does not exist") == true)
        #expect(Self.refusal(#"{"secondary_sock_group": "\#(missing)"}"#)?.contains("does not exist") == true)
    }

    /// Serves from a state directory prepared with `access` until `body`
    /// has looked at it.
    private static func serving(_ access: SocketAccess, _ body: (_ directory: String, _ socket: String) -> Void) throws {
        let scratch = TemporaryDirectory(prefix: "rwatch-access")
        defer { scratch.remove() }
        let directory = scratch.file("me-state")
        try access.prepareStateDirectory(FilePath(directory))
        var configuration = ServiceConfiguration(sockname: FilePath(directory + "/sock"))
        configuration.socketAccess = access
        let server = try WatchmanServer(configuration: configuration, components: [ServerCommands()])
        let ready = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "rwatch-test-access").async {
            _ = try? server.serve(ready: { ready.signal() })
            ready.signal()
            done.signal()
        }
        ready.wait()
        body(directory, directory + "/sock")
        server.requestShutdown()
        done.wait()
    }

    @Test func theSocketGetsTheModeAndGroupAsked() throws {
        var access = try Self.access(#"{"sock_access": {"group": true}}"#)
        access.sockGroup = Self.otherGroup()
        try Self.serving(access) { _, socket in
            #expect(Self.mode(socket) == 0o660)
            #expect(Self.groupOf(socket) == (access.sockGroup?.id ?? getegid()))
        }
        try Self.serving(try Self.access(#"{"sock_access": {"others": true, "group": true}}"#)) { _, socket in
            #expect(Self.mode(socket) == 0o666)
        }
    }

    @Test func aSecondaryGroupIsGrantedThroughAnACL() throws {
        guard let other = Self.otherGroup(), Glibc.access("/usr/bin/getfacl", X_OK) == 0 else { return }
        var granting = SocketAccess()
        granting.secondaryGroup = other
        try Self.serving(granting) { directory, socket in
            #expect(Command.run(["getfacl", directory]).output.contains("group:\(other.name):r-x"))
            #expect(Command.run(["getfacl", socket]).output.contains("group:\(other.name):rw-"))
        }
    }
}
