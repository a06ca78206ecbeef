import Dispatch
import Glibc
import Service
import SystemPackage
import TestSupport
import WatchmanProtocol

/// A `WatchmanServer` serving on a socket in a temporary directory, on a
/// thread of its own, for one test.
final class RunningServer: @unchecked Sendable {
    // Safety: every property is set in init and never changed.
    let directory = TemporaryDirectory(prefix: "rwatch-serve")
    let server: WatchmanServer
    let sockname: String
    private let done = DispatchSemaphore(value: 0)

    init(_ extra: [any ServiceComponent] = [], queueLimit: Int? = nil, statefile: String? = nil,
         accept: @escaping @Sendable (Int32) -> AcceptOutcome = AcceptOutcome.accepting) throws {
        sockname = directory.file("sock")
        var configuration = ServiceConfiguration(sockname: FilePath(sockname), statefile: statefile.map { FilePath($0) })
        if let queueLimit { configuration.clientQueueLimit = queueLimit }
        server = try WatchmanServer(configuration: configuration, components: [ServerCommands()] + extra, accept: accept)
        let ready = DispatchSemaphore(value: 0)
        let server = server
        let done = done
        // Its own thread, as `rwatch serve` has: from the shared pool, a
        // busy suite could hold the server back for minutes.
        DispatchQueue(label: "rwatch-test-server").async {
            _ = try? server.serve(ready: { ready.signal() })
            done.signal()
        }
        ready.wait()
    }

    func connect() -> WatchmanSocket {
        guard let socket = WatchmanSocket(sockname) else { fatalError("cannot connect to \(sockname)") }
        return socket
    }

    /// Asks the server to stop and waits until `serve` has returned.
    func stop() {
        server.requestShutdown()
        done.wait()
        done.signal()  // a later stop returns at once
    }

    deinit { directory.remove() }
}

/// Commands that exist only for these tests.
struct TestCommands: ServiceComponent {
    /// Released by the test to let `test-wait` answer.
    let gate = DispatchSemaphore(value: 0)
    /// Signalled when `test-wait` has begun to wait.
    let waiting = DispatchSemaphore(value: 0)
    /// Signalled when `test-flood` has pushed all it could.
    let flooded = DispatchSemaphore(value: 0)

    func register(in table: inout CommandTable) {
        let gate = gate
        let waiting = waiting
        let flooded = flooded
        table.register("test-wait") { _, _ in
            waiting.signal()
            gate.wait()
            return ["waited": true]
        }
        // Pushes PDUs of ARG bytes until the client's queue refuses one.
        table.register("test-flood") { request, context in
            let size = Int(request.arguments.first?.integer ?? 1 << 20)
            let payload = WatchmanValue.bytes([UInt8](repeating: 0x61, count: size))
            var queued = 0
            while case .queued = context.client.push(["subscription": "flood", "data": payload]) { queued += 1 }
            let last = context.client.push(["subscription": "flood", "cut": true], evenPastLimit: true)
            flooded.signal()
            return ["queued": .int(Int64(queued)), "last": .bool(last == .queued)]
        }
        table.register("test-after") { _, context in
            let client = context.client
            context.afterReply { client.push(["after": true]) }
            client.push(["before": true])
            return ["reply": true]
        }
    }
}
