import Glibc
import Testing
import WatchmanProtocol
@testable import Service

/// Each field `version` announces (`field-NAME`) answers with what
/// `lstat` and the file say, over a real socket on real files.
@Suite struct FieldValueTests {
    static func file(_ service: ServiceRoot, _ name: String, _ fields: [String]) -> WatchmanValue? {
        let query: WatchmanValue = .object([("fields", .array(fields.map { .string($0) })), ("expression", ["name", .string(name)])])
        return service.call(["query", .string(service.root), query])["files"]?.elements?.first
    }

    @Test func statFieldsAreTheFilesLstat() throws {
        let service = try ServiceRoot()
        service.write("f", "hello\n")
        service.watch()
        var info = stat()
        #expect(lstat(service.tree.file("f"), &info) == 0)
        let fields = ["exists", "new", "type", "size", "mode", "uid", "gid", "ino", "dev", "nlink"]
        let file = try #require(Self.file(service, "f", fields))
        #expect(file["exists"] == true)
        #expect(file["new"] == true)
        #expect(file["type"] == "f")
        #expect(file["size"] == .int(6))
        #expect(file["mode"] == .int(Int64(info.st_mode)))
        #expect(file["uid"] == .int(Int64(info.st_uid)))
        #expect(file["gid"] == .int(Int64(info.st_gid)))
        #expect(file["ino"] == .int(Int64(bitPattern: UInt64(info.st_ino))))
        #expect(file["dev"] == .int(Int64(bitPattern: UInt64(info.st_dev))))
        #expect(file["nlink"] == .int(Int64(info.st_nlink)))
    }

    @Test func timeFieldsAreTheFilesTimesInEachUnit() throws {
        let service = try ServiceRoot()
        service.write("f")
        service.watch()
        var info = stat()
        #expect(lstat(service.tree.file("f"), &info) == 0)
        let units = ["", "_ms", "_us", "_ns", "_f"]
        let file = try #require(Self.file(service, "f", units.map { "mtime" + $0 } + units.map { "ctime" + $0 }))
        for (name, time) in [("mtime", info.st_mtim), ("ctime", info.st_ctim)] {
            let seconds = Int64(time.tv_sec), nanoseconds = Int64(time.tv_nsec)
            #expect(file[name] == .int(seconds))
            #expect(file[name + "_ms"] == .int(seconds * 1000 + nanoseconds / 1_000_000))
            #expect(file[name + "_us"] == .int(seconds * 1_000_000 + nanoseconds / 1000))
            #expect(file[name + "_ns"] == .int(seconds * 1_000_000_000 + nanoseconds))
            guard case .real(let real)? = file[name + "_f"] else { Issue.record("\(name)_f: \(file)"); continue }
            #expect(abs(real - (Double(seconds) + Double(nanoseconds) * 1e-9)) < 1e-6)
        }
    }

    @Test func clocksSymlinkTargetsAndHashesAreReported() throws {
        let service = try ServiceRoot()
        service.write("f", "hello\n")
        #expect(symlink("f", service.tree.file("l")) == 0)
        service.watch()
        let file = try #require(Self.file(service, "f", ["oclock", "cclock", "content.sha1hex", "symlink_target"]))
        #expect(file["oclock"]?.text?.hasPrefix("c:") == true)
        #expect(file["cclock"]?.text?.hasPrefix("c:") == true)
        #expect(file["content.sha1hex"] == "f572d396fae9206628714fb2ce00f72e94f2258f")
        #expect(file["symlink_target"] == .null)
        let link = try #require(Self.file(service, "l", ["type", "symlink_target"]))
        #expect(link["type"] == "l")
        #expect(link["symlink_target"] == "f")
    }
}
