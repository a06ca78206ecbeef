import Glibc
import Testing
import TestSupport
import WatchmanProtocol
@testable import Service

/// Triggers kept in the state file across a restart, and a damaged state
/// file set aside rather than fatal.
@Suite struct TriggerStateFileTests {
    let tree = TemporaryDirectory(prefix: "rwatch-root")
    let state = TemporaryDirectory(prefix: "rwatch-state")

    private var statefile: String { state.file("state") }

    private var root: String {
        guard let resolved = realpath(tree.path, nil) else { return tree.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func server() throws -> RunningServer {
        let roots = RootCommands(environment: [:])
        let subscriptions = SubscriptionCommands(roots)
        return try RunningServer([TriggerCommands(subscriptions), subscriptions, roots], statefile: statefile)
    }

    private var definition: WatchmanValue {
        ["name": "t", "expression": ["suffix", "c"], "command": ["/bin/sh", "-c", "echo ran >> ran.log"]]
    }

    @Test func triggersComeBackAfterARestart() throws {
        defer { tree.remove(); state.remove() }
        tree.write("a.c", "")
        do {
            let first = try server()
            defer { first.stop() }
            let socket = first.connect()
            _ = socket.request(["watch", .string(root)])
            #expect(socket.request(["trigger", .string(root), definition])?["disposition"] == "created")
            #expect(eventually { tree.read("ran.log") == "ran\n" })
        }
        let saved = try JSONLines.decode(Array(TemporaryDirectory.read(statefile).utf8).dropLast())
        #expect(saved["watched"]?.elements?.first?["path"]?.text == root)
        #expect(saved["watched"]?.elements?.first?["triggers"] == [definition])
        let second = try server()
        defer { second.stop() }
        let socket = second.connect()
        #expect(eventually { socket.request(["trigger-list", .string(root)])?["triggers"] == [definition] })
        #expect(eventually { tree.read("ran.log") == "ran\nran\n" }, "the restored trigger runs on every file, as a new one does")
        #expect(socket.request(["trigger-del", .string(root), "t"])?["deleted"] == .bool(true))
        let emptied = try JSONLines.decode(Array(TemporaryDirectory.read(statefile).utf8).dropLast())
        #expect(emptied["watched"] == [])
    }

    @Test func aDamagedStateFileIsSetAsideAndTheServiceStarts() throws {
        defer { tree.remove(); state.remove() }
        tree.write("a.c", "")
        TemporaryDirectory.write(bytes: Array(statefile.utf8), #"{"watched": [{"path": "#)
        let running = try server()
        defer { running.stop() }
        let socket = running.connect()
        #expect(TemporaryDirectory.read(statefile + ".damaged") == #"{"watched": [{"path": "#)
        #expect(access(statefile, F_OK) != 0)
        _ = socket.request(["watch", .string(root)])
        #expect(socket.request(["trigger", .string(root), definition])?["disposition"] == "created")
        #expect(TemporaryDirectory.read(statefile).contains(#""name":"t""#))
    }
}
