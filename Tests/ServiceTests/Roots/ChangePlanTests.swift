import Glibc
import SystemPackage
import Testing
import WatchSources
@testable import Service

/// What a batch of watcher events asks a root to look at again.
@Suite struct ChangePlanTests {
    static let root = Array("/r".utf8)
    static let shape = WatchShape(RootConfiguration(global: .object([("ignore_dirs", .array([.string("build")]))])))

    static func plan(_ events: [FileEvent], cookieDirectories: Set<[UInt8]> = [[]]) -> ChangePlan {
        var plan = ChangePlan()
        for event in events { plan.add(event, root: root, shape: shape, cookieDirectories: cookieDirectories) }
        return plan
    }

    static func looks(_ plan: ChangePlan) -> [String] {
        plan.looks.map { String(decoding: $0.relative, as: UTF8.self) + ($0.walk ? "/*" : "") }
    }

    @Test func aNameComingOrGoingLooksAtItsDirectoryToo() {
        let plan = Self.plan([FileEvent(path: "/r/d/new", kind: .created), FileEvent(path: "/r/d/old", kind: .deleted)])
        #expect(Self.looks(plan) == ["d/new/*", "d", "d/old"])
    }

    @Test func aModificationLooksAtThePathOnlyAndEachPathOnce() {
        let plan = Self.plan([FileEvent(path: "/r/a", kind: .modified), FileEvent(path: "/r/a", kind: .closedWrite),
                              FileEvent(path: "/r/a", kind: .attributes)])
        #expect(Self.looks(plan) == ["a"])
    }

    @Test func aNameMovedInIsWalkedEvenIfSeenBefore() {
        let plan = Self.plan([FileEvent(path: "/r/x", kind: .modified), FileEvent(path: "/r/x", kind: .movedTo, isDirectory: true, cookie: 3)])
        #expect(Self.looks(plan) == ["x/*"])
    }

    @Test func ownCookiesAreCookiesOnlyInTheCookieDirectories() {
        let cookie = String(decoding: Cookies.prefix, as: UTF8.self) + "42"
        let plan = Self.plan([FileEvent(path: FilePath("/r/.git/" + cookie), kind: .created),
                              FileEvent(path: FilePath("/r/" + cookie), kind: .created)], cookieDirectories: [Array(".git".utf8)])
        #expect(plan.cookies == [42])
        #expect(Self.looks(plan) == [cookie + "/*"])
    }

    @Test func ignoredAndDeepVersionControlNamesAreLeftOut() {
        let plan = Self.plan([FileEvent(path: "/r/build", kind: .created, isDirectory: true), FileEvent(path: "/r/.git/objects/ab", kind: .created),
                              FileEvent(path: "/r/.git/index", kind: .modified), FileEvent(path: "/elsewhere/x", kind: .modified)])
        #expect(Self.looks(plan) == [".git/index"])
    }

    @Test func overflowAndConfigurationAreNoted() {
        let plan = Self.plan([FileEvent(path: "/r", kind: .overflow), FileEvent(path: "/r/.watchmanconfig", kind: .modified)])
        #expect(plan.overflowed && plan.configurationTouched)
    }
}
