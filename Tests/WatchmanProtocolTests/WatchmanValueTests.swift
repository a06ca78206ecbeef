import Testing
import WatchmanProtocol

@Test func anObjectIsLookedUpByKeyAndComparedInOrder() {
    let reply = WatchmanValue.object([("version", .string("2026.11")), ("clock", .string("c:1:2:3:4"))])
    #expect(reply["clock"] == .string("c:1:2:3:4"))
    #expect(reply["missing"] == nil)
    #expect(reply != .object([("clock", .string("c:1:2:3:4")), ("version", .string("2026.11"))]))
}

@Test func aPathArgumentIsBytesOfEitherStringKind() {
    #expect(WatchmanValue.bytes([0x61, 0xff]).stringBytes == [0x61, 0xff])
    #expect(WatchmanValue.string("a/b").stringBytes == Array("a/b".utf8))
    #expect(WatchmanValue.int(3).stringBytes == nil)
}
