import SystemPackage
import WatchSources
import WatchmanProtocol

/// What `debug-root-status` says of one root: the `root_status` object
/// watchman answers with, which Sapling polls to tell a root still
/// crawling from one that is ready.
///
/// Taken from the root at one moment (`Root.status`), rendered with
/// watchman's member names (`crawl-status`, `recrawl_info.should-recrawl`).
/// Times are in milliseconds relative to the moment taken: negative for
/// the past, as watchman gives them. `queries` is always empty: queries in
/// progress are not tracked here.
struct RootStatus: Equatable {
    /// The first crawl, or a recrawl, as far as it has gone.
    enum Crawl: Equatable {
        /// Running for this long; `again` after the first has ended.
        case running(milliseconds: Int64, again: Bool)
        /// Ended this long ago, after running for `took`.
        case finished(millisecondsAgo: Int64, took: Int64)
    }

    var path: [UInt8]
    var fileSystemType: String
    var uptimeSeconds: Int64
    var cookieDirectory: [UInt8]
    /// Names of the cookies a sync still waits for (absolute).
    var cookies: [[UInt8]]
    var recrawls: Int
    var recrawlReason: String?
    var warning: String?
    var crawl: Crawl
    var cancelled: Bool
    var parallelCrawl: Bool

    /// Whether the first crawl (or the recrawl under way) is done.
    var doneInitial: Bool {
        if case .finished = crawl { true } else { false }
    }

    /// The line watchman's `debug-status` prints for the crawl.
    var crawlText: String {
        switch crawl {
        case .running(let milliseconds, let again): "\(again ? "re-" : "")crawling for \(milliseconds) ms"
        case .finished(let ago, let took): "crawl completed \(ago)ms ago, and took \(took)ms"
        }
    }

    /// The `root_status` object.
    var value: WatchmanValue {
        var recrawl: [(key: String, value: WatchmanValue)] = [
            ("count", .int(Int64(recrawls))), ("should-recrawl", false), ("reason", .string(recrawlReason ?? "")),
        ]
        if let warning { recrawl.append(("warning", .string(warning))) }
        switch crawl {
        case .running(let milliseconds, _):
            recrawl.append(("started", .int(-milliseconds)))
        case .finished(let ago, let took):
            recrawl.append(("started", .int(-(ago + took))))
            recrawl.append(("completed", .int(-ago)))
        }
        return .object([
            ("path", .bytes(path)), ("fstype", .string(fileSystemType)), ("watcher", "inotify"),
            ("uptime", .int(uptimeSeconds)), ("case_sensitive", true),
            ("cookie_prefix", [.bytes(cookieDirectory + [UInt8(ascii: "/")] + Cookies.prefix)]),
            ("cookie_dir", [.bytes(cookieDirectory)]), ("cookie_list", .array(cookies.map { .bytes($0) })),
            ("recrawl_info", .object(recrawl)), ("queries", []),
            ("done_initial", .bool(doneInitial)), ("cancelled", .bool(cancelled)),
            ("crawl-status", .string(crawlText)), ("enable_parallel_crawl", .bool(parallelCrawl)),
        ])
    }
}

extension Root {
    /// The root's status now (`debug-root-status`). Reads the mount table
    /// for the file-system type: run it on a worker, not the socket loop.
    var status: RootStatus {
        let now = ContinuousClock.now
        let fileSystemType = MountTable.fileSystemType(of: filePath) ?? "unknown"
        let warning = recrawlWarning
        let machine = self.machine.withLock { $0 }
        return state.withLock { state in
            let directory = Self.cookieDirectory(of: state)
            let cookieDirectory = directory.isEmpty ? path : path + [UInt8(ascii: "/")] + directory
            let crawl: RootStatus.Crawl = if let finished = machine.crawlFinished {
                .finished(millisecondsAgo: Self.milliseconds(now - finished), took: Self.milliseconds(finished - machine.crawlStarted))
            } else {
                .running(milliseconds: Self.milliseconds(now - machine.crawlStarted), again: machine.recrawls > 0)
            }
            return RootStatus(
                path: path, fileSystemType: fileSystemType, uptimeSeconds: (now - started).components.seconds,
                cookieDirectory: cookieDirectory,
                cookies: machine.awaitedCookies.sorted().map { cookieDirectory + [UInt8(ascii: "/")] + Cookies.prefix + Array(String($0).utf8) },
                recrawls: machine.recrawls, recrawlReason: machine.recrawlReason, warning: warning, crawl: crawl,
                cancelled: !machine.isLive, parallelCrawl: Root.crawlThreads > 1)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
