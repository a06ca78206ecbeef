import Glibc
import Testing
import TestSupport

/// rwatch on a real pseudo-terminal, as in a terminal window: the command
/// gets the terminal, keys, job control, the modes afterwards.
@Suite struct TerminalTests {
    /// The child of `rwatch` that is its terminal's foreground group leader, if any.
    private func foregroundChild(of rwatch: pid_t) -> pid_t? {
        ProcessStat.children(of: rwatch).first { child in
            guard let stat = ProcessStat(child) else { return false }
            return stat.group == child && stat.foregroundGroup == child
        }
    }

    private func start(_ arguments: [String], _ scratch: Scratch, _ session: TerminalSession, underShell: Bool = false) -> RWatch {
        RWatch(arguments, in: scratch.path, session: session, underShell: underShell, scratch: scratch)
    }

    @Test func aCommandReadingALineGetsWhatIsTypedAndQQuitsWithTheModesAsBefore() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        let before = session.modes()
        let rwatch = start(["-w", "watched", "--", "sh", "-c", "read line; echo \"got:$line\" >> out"], scratch, session)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        // The command is the terminal's foreground group: typing reaches it.
        #expect(eventually { foregroundChild(of: rwatch.pid) != nil }, "\(session.output)")
        session.type("hello\n")
        #expect(eventually { scratch.read("out") == "got:hello\n" }, "\(session.output)")
        #expect(eventually { session.output.contains("✓") })
        session.type("q")
        #expect(rwatch.waitForExit(.seconds(20)) == 0, "\(session.output)")
        #expect(session.modes() == before)
    }

    @Test func keysRerunPauseAndQuit() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        let before = session.modes()
        let rwatch = start(["-w", "watched", "-d", "0", "--", "sh", "-c", "printf '[%s]\\n' \"$RWATCH_PATHS\" >> runs"], scratch, session)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        let lines = { scratch.read("runs").split(separator: "\n").map(String.init) }
        #expect(eventually { lines().count == 1 && session.output.contains("✓") })
        session.type("r")
        // A key typed while the run still holds the terminal is the run's:
        // the next waits for its end.
        #expect(eventually { lines().count == 2 && session.output.components("✓") == 2 }, "\(session.output)")
        session.type("p")
        #expect(eventually { session.output.contains("paused") })
        scratch.write("watched/while-paused", "x")
        session.type("p")
        #expect(eventually { lines().count == 3 }, "\(session.output)")
        // Nothing ran while paused; the change ran once, on resume.
        #expect(lines().count == 3 && lines()[2].contains("while-paused"), "\(lines())")
        #expect(eventually { session.output.components("✓") == 3 })
        session.type("q")
        #expect(rwatch.waitForExit(.seconds(20)) == 0, "\(session.output)")
        #expect(session.modes() == before)
    }

    @Test func ctrlZStopsTheCommandAndRwatchTogetherAndSIGCONTContinuesBoth() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        let before = session.modes()
        // `sleep` itself, not `sh -c 'while :; do sleep 1; done'`: dash
        // starts each sleep through vfork, and a Ctrl-Z landing between that
        // vfork and the exec (right after the hand-over, under load) stopped
        // the child there and left dash waiting for it (state D), never
        // stopped, so neither was rwatch.
        let rwatch = start(["-w", "watched", "--", "sleep", "300"], scratch, session)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        var child: pid_t = 0
        #expect(eventually {
            child = foregroundChild(of: rwatch.pid) ?? 0
            return child != 0
        })
        session.type("\u{1A}")  // Ctrl-Z: SIGTSTP to the foreground group, the command's
        #expect(eventually { ProcessStat(rwatch.pid)?.state == "T" && ProcessStat(child)?.state == "T" })
        // Stopped, rwatch gave the terminal back in its first modes.
        #expect(ProcessStat(rwatch.pid)?.foregroundGroup == ProcessStat(rwatch.pid)?.group)
        #expect(session.modes() == before)
        kill(rwatch.pid, SIGCONT)  // what `fg` sends
        #expect(eventually { ProcessStat(rwatch.pid)?.state != "T" && ProcessStat(child)?.state != "T" })
        #expect(eventually { ProcessStat(rwatch.pid)?.foregroundGroup == child })
        kill(rwatch.pid, SIGTERM)
        #expect(rwatch.waitForExit(.seconds(20)) == 143)
        #expect(!isAlive(child))
        #expect(session.modes() == before)
    }

    /// Ctrl-Z, then `bg`, then `fg`, as a shell does them (bash with job
    /// control runs rwatch as a job). Continued in the background, the
    /// command reads the terminal and stops (SIGTTIN): the job stops with
    /// it, as a shell's would, so that `fg`, which continues only a stopped
    /// job, gives the command the terminal and continues it. rwatch used
    /// to forget on `bg` who held the terminal, and after `fg` the command
    /// stayed stopped for good.
    @Test func afterCtrlZAndBgTheCommandGetsTheTerminalOnFg() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        scratch.write("jobs.sh", """
            set -m
            "$@" &
            fg %1 >/dev/null
            echo stopped > stopped
            bg %1 >/dev/null
            while [ ! -e go ]; do sleep 0.02; done
            fg %1 >/dev/null
            """)
        let shell = RWatch(["-w", "watched", "--", "sh", "-c", "read line; echo \"got:$line\" > out"], in: scratch.path,
                           session: session, wrapper: ["bash", scratch.file("jobs.sh")], scratch: scratch)
        defer { if shell.exitStatus() == nil { kill(shell.pid, SIGKILL) } }
        var rwatch: pid_t = 0
        var child: pid_t = 0
        #expect(eventually {
            rwatch = ProcessStat.children(of: shell.pid).first ?? 0
            child = rwatch == 0 ? 0 : foregroundChild(of: rwatch) ?? 0
            return child != 0
        }, "\(session.output)")
        defer { if rwatch != 0 && isAlive(rwatch) { kill(rwatch, SIGKILL) } }
        session.type("\u{1A}")
        #expect(eventually { !scratch.read("stopped").isEmpty }, "\(session.output)")
        // bg continued rwatch; the command read and stopped, and the job with it.
        #expect(eventually { ProcessStat(rwatch)?.state == "T" && ProcessStat(child)?.state == "T" }, "\(session.output)")
        scratch.write("go", "")
        #expect(eventually { ProcessStat(rwatch)?.foregroundGroup == child && ProcessStat(child)?.state != "T" }, "\(session.output)")
        session.type("abc\n")
        #expect(eventually { scratch.read("out") == "got:abc\n" }, "\(session.output)")
        kill(rwatch, SIGTERM)
        #expect(eventually { !isAlive(rwatch) && !isAlive(child) })
    }

    /// Started in the background (`rwatch … &`), then `fg`: bash sends no
    /// signal to a job that is running, so rwatch must see by itself that
    /// the terminal is its now, and read keys in raw mode again.
    @Test func startedInTheBackgroundThenFgTheKeysWork() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        scratch.write("jobs.sh", """
            set -m
            "$@" &
            while [ ! -e go ]; do sleep 0.02; done
            fg %1 >/dev/null
            """)
        let shell = RWatch(["-w", "watched", "--", "sh", "-c", "echo ran >> runs"], in: scratch.path,
                           session: session, wrapper: ["bash", scratch.file("jobs.sh")], scratch: scratch)
        defer { if shell.exitStatus() == nil { kill(shell.pid, SIGKILL) } }
        var rwatch: pid_t = 0
        #expect(eventually {
            rwatch = ProcessStat.children(of: shell.pid).first ?? 0
            return rwatch != 0 && scratch.read("runs") == "ran\n"
        }, "\(session.output)")
        defer { if rwatch != 0 && isAlive(rwatch) { kill(rwatch, SIGKILL) } }
        scratch.write("go", "")
        #expect(eventually { ProcessStat(rwatch)?.foregroundGroup == ProcessStat(rwatch)?.group }, "\(session.output)")
        // Typed until it runs: the first keys may come before rwatch looks
        // (each of them is a run once it does, so more than one may come).
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { session.type("r") }
            return scratch.read("runs").hasPrefix("ran\nran\n")
        }, "\(session.output)")
        // A q typed while a run holds the terminal is the run's, so it is
        // typed until rwatch holds the terminal to read it.
        attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { session.type("q") }
            return !isAlive(rwatch)
        })
    }

    /// Keys typed ahead while the command ran are no requests once a stop
    /// signal came: rwatch took the terminal back as the command's group
    /// ended under the stop sequence, read them (`running now`), and at
    /// times exited in raw mode, leaving the shell without echo.
    @Test func keysTypedAheadAreNotReadOnceAStopSignalCame() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        let before = session.modes()
        // The command ignores SIGTERM: its group ends only at SIGKILL, after
        // the stop timeout, and rwatch gets the terminal back then.
        let rwatch = start(["--stop-timeout", "1s", "-w", "watched", "--", "sh", "-c", "trap '' TERM; echo up > up; sleep 300"], scratch, session)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        var child: pid_t = 0
        #expect(eventually {
            child = foregroundChild(of: rwatch.pid) ?? 0
            return child != 0 && !scratch.read("up").isEmpty
        })
        session.type("rrrrr\n")
        kill(rwatch.pid, SIGTERM)
        #expect(rwatch.waitForExit(.seconds(20)) == 143)
        #expect(!isAlive(child))
        #expect(!session.output.contains("running now"), "\(session.output)")
        #expect(session.modes() == before)
    }

    /// Ctrl-Z typed the instant the terminal changes hands, as the command
    /// starts (caught by a tight loop over rwatch's `/proc` row), ten times:
    /// rwatch stops with it and gets the terminal back, every time.
    @Test func ctrlZTypedAsTheCommandGetsTheTerminalStopsRwatch() throws {
        for attempt in 1...10 {
            let scratch = Scratch()
            defer { scratch.remove() }
            mkdir(scratch.file("watched"), 0o700)
            let session = try #require(TerminalSession())
            // Not a shell loop: dash runs `sleep` through vfork, and a Ctrl-Z
            // between its vfork and the exec stops the child there, leaving
            // dash waiting for that exec (state D), never stopped.
            let rwatch = start(["-w", "watched", "--", "sleep", "300"], scratch, session)
            defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
            // Busy-wait for the hand-over: a sleep between looks would miss it.
            var handedOver = false
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                guard let row = ProcessStat(rwatch.pid) else { break }
                if row.foregroundGroup > 0, row.foregroundGroup != row.group {
                    handedOver = true
                    break
                }
            }
            try #require(handedOver, "attempt \(attempt): the command never got the terminal")
            session.type("\u{1A}")
            #expect(eventually { ProcessStat(rwatch.pid)?.state == "T" },
                    "attempt \(attempt): rwatch did not stop; the terminal's group: \(String(describing: ProcessStat(ProcessStat(rwatch.pid)?.foregroundGroup ?? 0)))")
            #expect(ProcessStat(rwatch.pid)?.foregroundGroup == ProcessStat(rwatch.pid)?.group, "attempt \(attempt)")
            kill(rwatch.pid, SIGCONT)
            #expect(eventually { foregroundChild(of: rwatch.pid) != nil }, "attempt \(attempt): the command did not get the terminal back")
            let child = foregroundChild(of: rwatch.pid) ?? 0
            kill(rwatch.pid, SIGTERM)
            #expect(rwatch.waitForExit(.seconds(20)) == 143, "attempt \(attempt)")
            #expect(child == 0 || !isAlive(child))
        }
    }

    /// The stop comes at the instant the command's group is made the
    /// foreground group, before its exec: sent straight to the group (no
    /// pty latency), so it lands in that instant often. Done inside
    /// `posix_spawn`, that stopped a child the spawning thread waited on,
    /// which nothing watched: rwatch hung, never stopped.
    @Test func aStopAtTheInstantOfTheHandOverStopsRwatch() throws {
        for attempt in 1...10 {
            let scratch = Scratch()
            defer { scratch.remove() }
            mkdir(scratch.file("watched"), 0o700)
            let session = try #require(TerminalSession())
            let rwatch = start(["-w", "watched", "--", "sleep", "300"], scratch, session)
            defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
            var foreground: pid_t = 0
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                guard let row = ProcessStat(rwatch.pid) else { break }
                if row.foregroundGroup > 0, row.foregroundGroup != row.group {
                    foreground = row.foregroundGroup
                    break
                }
            }
            try #require(foreground > 0, "attempt \(attempt): the command never got the terminal; rwatch: \(String(describing: ProcessStat(rwatch.pid))), exit \(String(describing: rwatch.exitStatus())), terminal: \(session.output)")
            kill(-foreground, SIGTSTP)
            #expect(eventually { ProcessStat(rwatch.pid)?.state == "T" }, "attempt \(attempt): rwatch did not stop")
            kill(rwatch.pid, SIGCONT)
            #expect(eventually { foregroundChild(of: rwatch.pid) != nil }, "attempt \(attempt): the command did not get the terminal back")
            kill(rwatch.pid, SIGTERM)
            #expect(rwatch.waitForExit(.seconds(20)) == 143, "attempt \(attempt)")
        }
    }

    @Test func ctrlCTypedWhileTheCommandHoldsTheTerminalEndsRwatchWith130() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        let before = session.modes()
        let rwatch = start(["-w", "watched", "--", "sh", "-c", "while :; do sleep 1; done"], scratch, session)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        var child: pid_t = 0
        #expect(eventually {
            child = foregroundChild(of: rwatch.pid) ?? 0
            return child != 0
        })
        session.type("\u{3}")
        #expect(rwatch.waitForExit(.seconds(20)) == 130, "\(session.output)")
        #expect(!isAlive(child))
        #expect(session.modes() == before)
    }

    @Test func closingTheTerminalWhileTheCommandHoldsItEndsRwatchEvenWhenItLeadsNoSession() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        // A non-interactive sh leads the session: the hang-up's SIGHUP
        // reaches it and the terminal's foreground group, the command's,
        // never rwatch itself.
        let shell = start(["-w", "watched", "--", "sh", "-c", "while :; do sleep 1; done"], scratch, session, underShell: true)
        defer { if shell.exitStatus() == nil { kill(shell.pid, SIGKILL) } }
        var rwatch: pid_t = 0
        var child: pid_t = 0
        #expect(eventually {
            rwatch = ProcessStat.children(of: shell.pid).first ?? 0
            child = rwatch == 0 ? 0 : foregroundChild(of: rwatch) ?? 0
            return child != 0
        }, "\(session.output)")
        defer { if rwatch != 0 && isAlive(rwatch) { kill(rwatch, SIGKILL) } }
        session.hangUp()
        #expect(eventually { !isAlive(rwatch) && !isAlive(child) })
    }

    @Test func closingTheTerminalWhileRwatchWaitsForKeysEndsIt() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        // The command has ended: rwatch holds the terminal and waits for keys.
        let shell = start(["-w", "watched", "--", "sh", "-c", "echo ran >> runs"], scratch, session, underShell: true)
        defer { if shell.exitStatus() == nil { kill(shell.pid, SIGKILL) } }
        var rwatch: pid_t = 0
        #expect(eventually {
            rwatch = ProcessStat.children(of: shell.pid).first ?? 0
            return rwatch != 0 && scratch.read("runs") == "ran\n" && session.output.contains("✓")
        }, "\(session.output)")
        defer { if rwatch != 0 && isAlive(rwatch) { kill(rwatch, SIGKILL) } }
        session.hangUp()
        #expect(eventually { !isAlive(rwatch) })
    }

    @Test func closingTheTerminalEndsRwatchAndACommandThatIgnoresTheHangUp() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        // The command holds the terminal and ignores the hang-up; nothing
        // would ever end it but rwatch's stop sequence.
        let shell = start(["-w", "watched", "--", "sh", "-c", "trap '' HUP; while :; do sleep 0.05; done"], scratch, session, underShell: true)
        defer { if shell.exitStatus() == nil { kill(shell.pid, SIGKILL) } }
        var rwatch: pid_t = 0
        var child: pid_t = 0
        #expect(eventually {
            rwatch = ProcessStat.children(of: shell.pid).first ?? 0
            child = rwatch == 0 ? 0 : foregroundChild(of: rwatch) ?? 0
            return child != 0
        }, "\(session.output)")
        defer {
            if rwatch != 0 && isAlive(rwatch) { kill(rwatch, SIGKILL) }
            if child != 0 && isAlive(child) { kill(-child, SIGKILL) }
        }
        session.hangUp()
        #expect(eventually { !isAlive(rwatch) && !isAlive(child) })
    }

    @Test func underDashIKeysWorkWhileTheCommandRunsWithoutTheTerminal() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        let before = session.modes()
        // The command checks its stdin is not the terminal, then waits.
        let script = "[ -t 0 ] && echo tty >> runs || echo notty >> runs; while :; do sleep 1; done"
        let rwatch = start(["-I", "-r", "-w", "watched", "--", "sh", "-c", script], scratch, session)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        #expect(eventually { scratch.read("runs") == "notty\n" })
        session.type("r")  // restarts the running command
        #expect(eventually { scratch.read("runs") == "notty\nnotty\n" }, "\(session.output)")
        #expect(eventually { session.output.contains("↻ restarting") })
        #expect(!session.output.contains("✗"), "a stop rwatch asked for is no failure: \(session.output)")
        session.type("q")
        #expect(rwatch.waitForExit(.seconds(20)) == 0, "\(session.output)")
        #expect(session.modes() == before)
    }

    @Test func noKeysLeavesTheTerminalModesAlone() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        let before = session.modes()
        let rwatch = start(["-n", "-I", "-w", "watched", "--", "sh", "-c", "echo ran >> runs"], scratch, session)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        #expect(eventually { scratch.read("runs") == "ran\n" && session.output.contains("✓") })
        // No raw mode: the terminal still echoes and edits lines.
        #expect(session.modes() == before)
        session.type("q")
        kill(rwatch.pid, SIGINT)
        #expect(rwatch.waitForExit(.seconds(20)) == 130)
    }
}

/// Stopping takes as long as it must, and says so; a second Ctrl-C ends it.
@Suite struct SlowStopTests {
    @Test func aSecondSigintDuringASlowStopKillsAtOnce() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        // The command ignores the stop signal; the grace period outlasts the test.
        let script = "trap '' TERM INT; echo $$ > ../child; while :; do sleep 1; done"
        let rwatch = RWatch(["--stop-timeout", "1h", "--", "sh", "-c", script], in: scratch.file("watched"), scratch: scratch)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        #expect(eventually { !scratch.read("child").isEmpty })
        let child = pid_t(scratch.read("child").split(separator: "\n").first ?? "") ?? 0
        kill(rwatch.pid, SIGINT)
        #expect(eventually { rwatch.stderr.contains("stopping sh -c") && rwatch.stderr.contains("SIGTERM sent, SIGKILL in") }, "\(rwatch.stderr)")
        #expect(rwatch.exitStatus() == nil)
        kill(rwatch.pid, SIGINT)
        #expect(rwatch.waitForExit(.seconds(20)) == 130, "\(rwatch.stderr)")
        #expect(!isAlive(child))
    }
}

extension String {
    /// How many times `part` occurs.
    fileprivate func components(_ part: String) -> Int {
        var count = 0
        var rest = self[...]
        while let range = rest.firstRange(of: part) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}
