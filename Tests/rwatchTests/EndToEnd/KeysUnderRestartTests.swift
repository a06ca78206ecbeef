import Glibc
import Testing
import TestSupport

/// Keys while the command holds the terminal are the command's: what it
/// leaves unread when it ends is discarded, never read by rwatch as a key
/// nor by the next run as input.
@Suite struct KeysUnderRestartTests {
    @Test func aKeyTypedToARestartedServerSurfacesNowhereLater() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o700)
        scratch.write("src/srv.py", "v0")
        let session = try #require(TerminalSession())
        // The first server reads nothing; the second reads one line.
        let script = #"echo up >> starts; if [ "$(wc -l < starts)" -gt 1 ]; then head -n 1 >> got; fi; exec sleep 60"#
        let rwatch = RWatch(["-r", "-w", "src", "-d", "0", "--", "sh", "-c", script], in: scratch.path, session: session, scratch: scratch)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        let starts = { scratch.read("starts").split(separator: "\n").count }
        #expect(eventually { starts() == 1 && holdsTerminal(childOf: rwatch.pid) }, "\(session.output)")
        // Typed to the server, which leaves it unread; echoed once the terminal has it.
        session.type("q\n")
        #expect(eventually { session.output.contains("q\r\n") }, "\(session.output.debugDescription)")
        scratch.write("src/srv.py", "v1")
        #expect(eventually { starts() == 2 && holdsTerminal(childOf: rwatch.pid) }, "\(session.output)")
        session.type("second\n")
        #expect(eventually { !scratch.read("got").isEmpty }, "\(session.output)")
        #expect(scratch.read("got") == "second\n", "the key reached the next run")
        #expect(rwatch.exitStatus() == nil, "the key reached rwatch: \(session.output)")
    }

    /// Whether a child of `rwatch` leads the terminal's foreground group.
    private func holdsTerminal(childOf rwatch: pid_t) -> Bool {
        ProcessStat.children(of: rwatch).contains { child in
            guard let stat = ProcessStat(child) else { return false }
            return stat.group == child && stat.foregroundGroup == child
        }
    }
}
