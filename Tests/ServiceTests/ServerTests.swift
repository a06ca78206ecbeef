import Dispatch
import Glibc
import Synchronization
import Testing
import TestSupport
import WatchmanProtocol
@testable import Service

@Suite struct ServerTests {
    @Test func eachReplyUsesItsRequestsEncoding() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let socket = running.connect()
        for encoding in [WireEncoding.json, .bserV1, .bserV2(capabilities: []), .bserV2(capabilities: .disableUnicode), .json] {
            socket.send(["get-pid"], encoding)
            let reply = socket.receive()
            #expect(reply?.encoding == encoding)
            #expect(reply?.value["pid"] == .int(Int64(getpid())))
            #expect(reply?.value["version"]?.text == running.server.configuration.version)
        }
    }

    @Test func versionChecksCapabilitiesAsWatchmanDoes() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let socket = running.connect()
        let fine = socket.request(["version", ["optional": ["bser-v2", "will-never-exist"], "required": ["cmd-version"]]])
        #expect(fine?["capabilities"] == ["bser-v2": true, "will-never-exist": false, "cmd-version": true])
        #expect(fine?["error"] == nil)
        let missing = socket.request(["version", ["required": ["cmd-version", "will-never-exist"]]], .bserV1)
        #expect(missing?["error"] == .bytes(Array("client required capabilities [will-never-exist] not supported by this server".utf8)))
        #expect(missing?["capabilities"]?["will-never-exist"] == false)
    }

    @Test func theServerNamesItsSocketAndCapabilities() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let socket = running.connect()
        let names = socket.request(["get-sockname"])
        #expect(names?["sockname"]?.stringBytes == Array(running.sockname.utf8))
        #expect(names?["unix_domain"]?.stringBytes == Array(running.sockname.utf8))
        let capabilities = socket.request(["list-capabilities"])?["capabilities"]?.elements?.compactMap(\.text) ?? []
        #expect(Set(["bser-v2", "cmd-version", "cmd-get-pid", "cmd-log-level", "cmd-shutdown-server"]).isSubset(of: Set(capabilities)))
    }

    @Test func unknownCommandsAndBadArgumentsGetWatchmansTexts() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let socket = running.connect()
        #expect(socket.request(["no-such-command"])?["error"]?.text == "watchman::CommandValidationError: failed to validate command: unknown command no-such-command")
        #expect(socket.request(["log-level"])?["error"]?.text == "wrong number of arguments to 'log-level'")
        #expect(socket.request(["log-level", "loud"])?["error"]?.text == "invalid log level for 'log-level'")
        #expect(socket.request(["log", "debug"])?["error"]?.text == "wrong number of arguments to 'log'")
        #expect(socket.request(["log", "loud", "x"])?["error"]?.text == "invalid log level for 'log'")
        #expect(socket.request(["version"])?["error"] == nil)
    }

    @Test func aClientListeningAtALevelGetsLogLinesAsUnilateralPDUs() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let listener = running.connect()
        #expect(listener.request(["log-level", "debug"], .bserV2(capabilities: []))?["log_level"] == "debug")
        let other = running.connect()
        #expect(other.request(["log", "debug", "hello from a test"])?["logged"] == true)
        let pushed = listener.receive()
        #expect(pushed?.encoding == .bserV2(capabilities: []))
        #expect(pushed?.value["unilateral"] == true)
        #expect(pushed?.value["log"]?.text?.hasSuffix("hello from a test\n") == true)
        #expect(listener.request(["log-level", "off"])?["log_level"] == "off")
        #expect(other.request(["log", "error", "unheard"])?["logged"] == true)
        #expect(listener.request(["get-pid"])?["log"] == nil)
    }

    @Test func aBlockedHandlerHoldsUpOnlyItsOwnClient() throws {
        let commands = TestCommands()
        let running = try RunningServer([commands])
        defer { running.stop() }
        let waiting = running.connect()
        waiting.send(["test-wait"])
        let other = running.connect()
        for _ in 0..<20 { #expect(other.request(["get-pid"])?["pid"] == .int(Int64(getpid()))) }
        commands.gate.signal()
        #expect(waiting.receive()?.value["waited"] == true)
    }

    @Test func aClientGoneWhileItsHandlerRunsDoesNotSpinTheLoop() throws {
        let commands = TestCommands()
        let running = try RunningServer([commands])
        defer { running.stop() }
        do {
            let gone = running.connect()
            gone.send(["test-wait"])
            commands.waiting.wait()
        }  // closed here, its handler still waiting
        let other = running.connect()
        #expect(other.request(["get-pid"]) != nil)  // by now its hang-up was read
        let before = running.server.loopRounds
        let trips = 20
        for _ in 0..<trips { #expect(other.request(["get-pid"]) != nil) }
        // A few rounds per request; a loop woken by the hung-up socket
        // without end makes hundreds meanwhile.
        #expect(running.server.loopRounds - before < trips * 6, "\(running.server.loopRounds - before) rounds")
        commands.gate.signal()
    }

    /// Out of descriptors, `accept` fails while the listening socket stays
    /// readable: polled, it would wake the loop without end. The loop
    /// leaves it out until its next wake-up (at most 100 ms), and the
    /// connection waits in the backlog until a descriptor is free.
    @Test func outOfDescriptorsTheLoopWaitsInsteadOfSpinning() throws {
        let short = Atomic<Bool>(false)
        let running = try RunningServer(accept: { short.load(ordering: .relaxed) ? .outOfDescriptors(EMFILE) : AcceptOutcome.accepting($0) })
        defer { running.stop() }
        let other = running.connect()
        #expect(other.request(["get-pid"]) != nil)
        short.store(true, ordering: .relaxed)
        let waiting = running.connect()
        waiting.send(["get-pid"])
        let before = running.server.loopRounds
        let trips = 20
        for _ in 0..<trips { #expect(other.request(["get-pid"]) != nil) }
        #expect(running.server.loopRounds - before < trips * 6, "\(running.server.loopRounds - before) rounds")
        short.store(false, ordering: .relaxed)
        #expect(waiting.receive()?.0["pid"] != nil, "served once a descriptor is free")
    }

    @Test func aClientThatReadsNothingIsRefusedPushesPastTheBoundAndOthersGoOn() throws {
        let commands = TestCommands()
        let running = try RunningServer([commands], queueLimit: 4 << 20)
        defer { running.stop() }
        let sleeper = running.connect()
        sleeper.send(["test-flood", .int(1 << 20)])
        let other = running.connect()
        for _ in 0..<10 { #expect(other.request(["get-pid"])?["pid"] != nil) }
        commands.flooded.wait()
        #expect(other.request(["get-pid"])?["pid"] != nil)
        // Now read it all: the pushes that were queued, the cut, the reply.
        var pushes = 0
        var reply: WatchmanValue?
        while reply == nil, let (value, _) = sleeper.receive() {
            if value["unilateral"] == true { pushes += 1 } else { reply = value }
        }
        let queued = Int(reply?["queued"]?.integer ?? -1)
        #expect(queued >= 1 && queued <= 8)
        #expect(reply?["last"] == true)
        #expect(pushes == queued + 1)
    }

    @Test func aPushAfterTheReplyFollowsIt() throws {
        let running = try RunningServer([TestCommands()])
        defer { running.stop() }
        let socket = running.connect()
        socket.send(["test-after"])
        let order = (0..<3).compactMap { _ in socket.receive()?.value }
        #expect(order.map { $0["before"] != nil ? "before" : $0["reply"] != nil ? "reply" : "after" } == ["before", "reply", "after"])
    }

    @Test func malformedInputIsAnsweredAndHurtsNoOtherClient() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let bystander = running.connect()
        // Malformed JSON: an error, and the connection goes on.
        let json = running.connect()
        json.send(Array("[\"version\", {\n".utf8))
        #expect(json.receive()?.value["error"]?.text?.hasPrefix("invalid json at position") == true)
        #expect(json.request(["get-pid"])?["pid"] != nil)
        // Deep nesting, BSER: an error, and the connection goes on.
        let deep = running.connect()
        var body: [UInt8] = []
        for _ in 0..<600 { body += [0x00, 0x03, 0x01] }
        body.append(0x0a)
        deep.send([0x00, 0x01, 0x05] + withUnsafeBytes(of: Int32(body.count)) { Array($0) } + body)
        #expect(deep.receive()?.value["error"]?.stringBytes.map { String(decoding: $0, as: UTF8.self) }?.contains("recursion limit") == true)
        #expect(deep.request(["get-pid"], .bserV1)?["pid"] != nil)
        // An absurd length: an error, then end of file.
        let absurd = running.connect()
        absurd.send([0x00, 0x01, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])
        #expect(absurd.receive()?.value["error"] != nil)
        #expect(absurd.waitForEndOfFile())
        // Gone mid-PDU.
        let gone = running.connect()
        gone.send(Array(BSER.encode(["version"], version: 2, capabilities: []).prefix(9)))
        _ = consume gone
        #expect(bystander.request(["get-pid"])?["pid"] == .int(Int64(getpid())))
    }

    @Test func shutdownAnswersTheAskerThenEveryClientReadsEndOfFile() throws {
        let running = try RunningServer()
        let idle = running.connect()
        let asker = running.connect()
        #expect(asker.request(["shutdown-server"])?["shutdown-server"] == true)
        #expect(idle.waitForEndOfFile())
        #expect(asker.waitForEndOfFile())
        running.stop()
        #expect(access(running.sockname, F_OK) != 0)
    }
}
