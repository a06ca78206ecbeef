import Glibc
import Testing
import TestSupport
import WatchmanProtocol
@testable import Service

/// Triggers with real commands on real files: what they are given (stdin
/// forms, appended names, `WATCHMAN_*`), where their output goes, one run
/// at a time, and the definitions `trigger-list` shows.
@Suite struct ServiceTriggerTests {
    /// The JSON lines of the file `name` in the tree, decoded.
    private func lines(_ service: ServiceRoot, _ name: String) -> [WatchmanValue] {
        service.tree.read(name).split(separator: "\n").compactMap { try? JSONLines.decode(Array($0.utf8)) }
    }

    private func names(_ line: WatchmanValue) -> Set<String> {
        Set((line.elements ?? []).compactMap { ($0["name"] ?? $0).text })
    }

    @Test func stdinGetsTheMatchesAsJSONAndOutputAppendsToAFileBelowTheRoot() throws {
        let service = try ServiceRoot()
        service.write("old.c")
        service.write("notes.txt")
        service.watch()
        let reply = service.call(["trigger", .string(service.root), [
            "name": "json", "expression": ["suffix", "c"], "command": ["cat"],
            "stdin": ["name", "exists"], "stdout": ">>trigger.json",
        ]])
        #expect(reply["disposition"] == "created")
        #expect(reply["triggerid"] == "json")
        #expect(eventually { lines(service, "trigger.json").first == [["name": "old.c", "exists": true]] })
        service.write("new.c")
        service.remove("old.c")
        #expect(eventually {
            lines(service, "trigger.json").dropFirst().reduce(into: Set<String>()) { $0.formUnion(names($1)) } == ["new.c", "old.c"]
        })
        #expect(!lines(service, "trigger.json").contains { names($0).contains("notes.txt") })
    }

    @Test func theCommandGetsWatchmansEnvironmentAndRunsInTheRoot() throws {
        let service = try ServiceRoot()
        service.write("a.c")
        service.watch()
        let script = #"env | grep '^WATCHMAN_' | sort > "$0.tmp"; pwd >> "$0.tmp"; mv "$0.tmp" "$0""#
        _ = service.call(["trigger", .string(service.root), [
            "name": "env", "expression": ["suffix", "c"], "command": ["/bin/sh", "-c", .string(script), "env.out"],
        ]])
        #expect(eventually { service.tree.read("env.out").contains("WATCHMAN_TRIGGER=env") })
        let first = service.tree.read("env.out")
        #expect(first.contains("WATCHMAN_ROOT=\(service.root)\n"))
        #expect(first.contains("WATCHMAN_SOCK=\(service.running.sockname)\n"))
        #expect(first.contains("WATCHMAN_CLOCK=c:"))
        #expect(!first.contains("WATCHMAN_SINCE="))
        #expect(first.hasSuffix("\(service.root)\n"))
        service.write("b.c")
        #expect(eventually { service.tree.read("env.out").contains("WATCHMAN_SINCE=c:") })
    }

    @Test func aRelativeRootIsWhereTheCommandRunsAndWhatItIsTold() throws {
        let service = try ServiceRoot()
        mkdir(service.root + "/sub", 0o755)
        service.write("sub/a.c")
        service.watch()
        let script = #"env | grep '^WATCHMAN_RELATIVE_ROOT=' > "$0.tmp"; pwd >> "$0.tmp"; mv "$0.tmp" "$0""#
        _ = service.call(["trigger", .string(service.root), [
            "name": "env", "expression": ["suffix", "c"], "relative_root": "sub",
            "command": ["/bin/sh", "-c", .string(script), "env.out"],
        ]])
        #expect(eventually { !service.tree.read("sub/env.out").isEmpty })
        #expect(service.tree.read("sub/env.out") == "WATCHMAN_RELATIVE_ROOT=\(service.root)/sub\n\(service.root)/sub\n")
    }

    /// Paths are bytes: a relative root whose name is not UTF-8 is where
    /// the command runs (it was decoded to text, and the `chdir` failed).
    @Test func aRelativeRootThatIsNotUTF8IsWhereTheCommandRuns() throws {
        let service = try ServiceRoot(encoding: .bserV2(capabilities: []))
        let sub: [UInt8] = Array("sub".utf8) + [0xFF]
        // The service names the root by its real path (`/tmp` may be a link).
        let directory = Array(service.root.utf8) + [UInt8(ascii: "/")] + sub
        TemporaryDirectory.makeDirectory(bytes: directory)
        TemporaryDirectory.write(bytes: directory + Array("/a.c".utf8), "")
        service.watch()
        let script = #"pwd > "$0.tmp"; mv "$0.tmp" "$0""#
        let reply = service.call(["trigger", .string(service.root), [
            "name": "pwd", "expression": ["suffix", "c"], "relative_root": .bytes(sub),
            "command": ["/bin/sh", "-c", .string(script), .string(service.root + "/pwd.out")],
        ]])
        #expect(reply["error"] == nil, "\(reply)")
        #expect(eventually { !service.tree.read("pwd.out").isEmpty })
        #expect(TemporaryDirectory.readBytes(service.root + "/pwd.out") == directory + [UInt8(ascii: "\n")])
    }

    @Test func namesAreAppendedAndNamePerLineIsCutAtMaxFilesStdin() throws {
        let service = try ServiceRoot()
        for name in ["a.c", "b c.c", "d.c"] { service.write(name) }
        service.watch()
        let script = #"{ echo "$WATCHMAN_FILES_OVERFLOW"; cat; echo "--"; for arg; do echo "$arg"; done; } > out.tmp; mv out.tmp out.txt"#
        _ = service.call(["trigger", .string(service.root), [
            "name": "lines", "expression": ["suffix", "c"], "command": ["/bin/sh", "-c", .string(script), "sh"],
            "stdin": "NAME_PER_LINE", "max_files_stdin": 2, "append_files": true,
        ]])
        #expect(eventually { service.tree.read("out.txt").contains("--") })
        let parts = service.tree.read("out.txt").split(separator: "--\n", omittingEmptySubsequences: false)
        let input = parts.first?.split(separator: "\n").map(String.init) ?? []
        #expect(input.first == "true")
        #expect(input.count == 3)
        #expect(Set(input.dropFirst()).isSubset(of: ["a.c", "b c.c", "d.c"]))
        #expect(parts.last.map { Set($0.split(separator: "\n").map(String.init)) } == ["a.c", "b c.c", "d.c"])
    }

    @Test func oneRunAtATimeAndWhatChangedMeanwhileRunsNext() throws {
        let service = try ServiceRoot()
        service.write("hold")
        service.watch()
        let script = #"echo start >> runs.log; while [ -e hold ]; do sleep 0.05; done; echo end >> runs.log"#
        _ = service.call(["trigger", .string(service.root), [
            "name": "slow", "expression": ["suffix", "c"], "command": ["/bin/sh", "-c", .string(script)],
        ]])
        service.write("first.c")
        #expect(eventually { service.tree.read("runs.log") == "start\n" })
        service.write("second.c")
        service.write("third.c")
        #expect(service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] != nil)
        service.remove("hold")
        #expect(eventually { service.tree.read("runs.log") == "start\nend\nstart\nend\n" })
    }

    @Test func aRunningCommandIsStoppedWithTheService() throws {
        let service = try ServiceRoot()
        service.write("a.c")
        service.watch()
        _ = service.call(["trigger", .string(service.root), [
            "name": "long", "expression": ["suffix", "c"], "command": ["/bin/sh", "-c", "echo $$ > pid.tmp; mv pid.tmp pid; exec sleep 1000"],
        ]])
        #expect(eventually { !service.tree.read("pid").isEmpty })
        let pid = pid_t(service.tree.read("pid").split(separator: "\n").first ?? "") ?? 0
        #expect(pid > 0 && kill(pid, 0) == 0)
        service.running.stop()
        #expect(kill(pid, 0) != 0, "the trigger's command was waited for before the service stopped")
    }

    @Test func thePositionalFormIsListedAsItsObjectAndRedefiningIsReported() throws {
        let service = try ServiceRoot()
        service.watch()
        let created = service.call(["trigger", .string(service.root), "t", "*.c", "--", "true", "x"])
        #expect(created["disposition"] == "created")
        let listed = service.call(["trigger-list", .string(service.root)])["triggers"]
        #expect(listed == [[
            "name": "t", "expression": ["anyof", ["match", "*.c", "wholename"]], "append_files": true,
            "command": ["true", "x"], "stdin": ["name", "exists", "new", "size", "mode"],
        ]])
        #expect(service.call(["trigger", .string(service.root), "t", "*.c", "--", "true", "x"])["disposition"] == "already_defined")
        #expect(service.call(["trigger", .string(service.root), "t", "*.c", "--", "true"])["disposition"] == "replaced")
        let deleted = service.call(["trigger-del", .string(service.root), "t"])
        #expect(deleted["deleted"] == .bool(true))
        #expect(deleted["trigger"] == "t")
        #expect(service.call(["trigger-del", .string(service.root), "t"])["deleted"] == .bool(false))
        #expect(service.call(["trigger-list", .string(service.root)])["triggers"] == [])
    }

    @Test func badDefinitionsAreRefused() throws {
        let service = try ServiceRoot()
        service.watch()
        let root = WatchmanValue.string(service.root)
        #expect(service.call(["trigger", root, ["command": ["true"]]])["error"] == "invalid or missing name")
        #expect(service.call(["trigger", root, ["name": "t"]])["error"] == "invalid command array")
        #expect(service.call(["trigger", root, ["name": "t", "command": ["true"], "stdout": "out"]])["error"]?.text?.contains("> or >>") == true)
        #expect(service.call(["trigger", root, ["name": "t", "command": ["true"], "stdin": "nope"]])["error"] == "invalid stdin value nope")
        #expect(service.call(["trigger", root, "t", "*.c"])["error"] == "no command was specified")
        // watchman's test_trigger_error: a word that is not a string is named by its position.
        #expect(service.call(["trigger", root, "oink", "--", .int(123)])["error"]
            == "failed to parse query: rule @ position 4 is not a string value")
        #expect(service.call(["trigger", root, .int(123)])["error"] == "invalid or missing name")
        #expect(service.call(["trigger", root, .array([])])["error"] == "invalid or missing name")
    }
}
