import Testing
import WatchmanProtocol
@testable import Service

/// `debug-root-status`: the `root_status` object Sapling polls.
@Suite struct RootStatusTests {
    static func status(_ crawl: RootStatus.Crawl, recrawls: Int = 0) -> RootStatus {
        RootStatus(path: Array("/r".utf8), fileSystemType: "ext4", uptimeSeconds: 3, cookieDirectory: Array("/r/.git".utf8),
                   cookies: [], recrawls: recrawls, recrawlReason: nil, warning: nil, crawl: crawl, cancelled: false,
                   parallelCrawl: true)
    }

    /// A crawl under way is not done, and says how long it has run; once
    /// ended, it says when and for how long, and the times are relative.
    @Test func theCrawlIsReportedAsRunningThenFinished() {
        let first = Self.status(.running(milliseconds: 40, again: false))
        #expect(!first.doneInitial)
        #expect(first.crawlText == "crawling for 40 ms")
        #expect(first.value["recrawl_info"]?["started"] == .int(-40))
        #expect(Self.status(.running(milliseconds: 5, again: true), recrawls: 1).crawlText == "re-crawling for 5 ms")
        let done = Self.status(.finished(millisecondsAgo: 100, took: 20))
        #expect(done.doneInitial)
        #expect(done.crawlText == "crawl completed 100ms ago, and took 20ms")
        #expect(done.value["recrawl_info"]?["started"] == .int(-120))
        #expect(done.value["recrawl_info"]?["completed"] == .int(-100))
    }

    @Test func aWatchedRootReportsItsStatusWithWatchmansMembers() throws {
        let service = try ServiceRoot()
        service.watch()
        _ = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])
        let reply = service.call(["debug-root-status", .string(service.root)])
        let status = try #require(reply["root_status"], "\(reply)")
        #expect(status["path"]?.stringBytes == Array(service.root.utf8))
        #expect(status["watcher"] == "inotify")
        #expect(status["done_initial"] == true)
        #expect(status["cancelled"] == false)
        #expect(status["case_sensitive"] == true)
        #expect(status["crawl-status"]?.text?.hasPrefix("crawl completed") == true)
        #expect(status["recrawl_info"]?["count"] == .int(0))
        #expect(status["cookie_dir"] == [.string(service.root)])
        #expect(status["queries"] == [])
        for member in ["fstype", "uptime", "cookie_prefix", "cookie_list", "enable_parallel_crawl"] {
            #expect(status[member] != nil, "\(member)")
        }
    }

    @Test func aRecrawlIsCountedWithItsReason() throws {
        let service = try ServiceRoot()
        service.watch()
        _ = service.call(["debug-recrawl", .string(service.root)])
        let status = service.call(["debug-root-status", .string(service.root)])["root_status"]
        #expect(status?["recrawl_info"]?["count"] == .int(1))
        #expect(status?["recrawl_info"]?["reason"] == "debug-recrawl")
        #expect(status?["done_initial"] == true)
    }

    @Test func anUnwatchedRootOrAMissingArgumentIsAnError() throws {
        let service = try ServiceRoot()
        #expect(service.call(["debug-root-status", .string(service.root)])["error"] != nil)
        #expect(service.call(["debug-root-status"])["error"]?.text == "wrong number of arguments for 'debug-root-status'")
    }
}
