import Glibc
import Testing
import TestSupport

/// Triggers of `rwatch serve` driven by pywatchman as watchman's own
/// trigger tests drive them: the positional form with a Python script that
/// records what it was given, `trigger-list`, dispositions, and the
/// `posix_spawnp: NAME` line those tests look for in the log.
@Suite struct ServeTriggerClientTests {
    static let required = ServeClientTests.required
    static let python = ServeClientTests.python
    static let hasPywatchman = ServeClientTests.hasPywatchman

    /// Registers a trigger whose command appends its stdin (JSON) and its
    /// arguments to files, waits for the runs, and prints `ok`.
    private static let script = #"""
    import json, os, sys, time, pywatchman
    enc, root, recorder = sys.argv[1], sys.argv[2], sys.argv[3]
    c = pywatchman.client(sendEncoding=enc, recvEncoding=enc, timeout=30)
    c.query("watch", root)
    log = os.path.join(root, "trigger.json")
    res = c.query("trigger", root, "rec", "*.c", "--", sys.executable, recorder, log)
    assert res["disposition"] == "created" and res["triggerid"] == "rec", res
    listed = c.query("trigger-list", root)["triggers"]
    assert listed == [{"name": "rec", "expression": ["anyof", ["match", "*.c", "wholename"]], "append_files": True,
                       "command": [sys.executable, recorder, log],
                       "stdin": ["name", "exists", "new", "size", "mode"]}], listed
    def runs():
        try:
            with open(log) as f:
                return [json.loads(line) for line in f]
        except FileNotFoundError:
            return []
    def wait(condition):
        deadline = time.time() + 30
        while not condition():
            if time.time() > deadline:
                raise SystemExit("timed out; runs: %r" % runs())
            time.sleep(0.05)
    wait(lambda: len(runs()) == 1)
    first = runs()[0]
    assert sorted(f["name"] for f in first["stdin"]) == ["b ar.c", "foo.c"], first
    assert sorted(first["args"]) == ["b ar.c", "foo.c"], first
    assert first["env"]["WATCHMAN_TRIGGER"] == "rec" and first["env"]["WATCHMAN_ROOT"] == root, first
    os.unlink(os.path.join(root, "foo.c"))
    wait(lambda: len(runs()) >= 2)
    deleted = [f for run in runs()[1:] for f in run["stdin"]]
    assert {"name": "foo.c", "exists": False} in [{"name": f["name"], "exists": f["exists"]} for f in deleted], deleted
    assert c.query("trigger", root, "rec", "*.c", "--", sys.executable, recorder, log)["disposition"] == "already_defined"
    res = c.query("trigger-del", root, "rec")
    assert res["deleted"] and res["trigger"] == "rec", res
    print("ok")
    """#

    /// What the trigger runs: one JSON line per run with its stdin, its
    /// file arguments and its WATCHMAN_* variables.
    private static let recorder = #"""
    import json, os, sys
    entry = {"stdin": json.load(sys.stdin), "args": sys.argv[2:],
             "env": {k: v for k, v in os.environ.items() if k.startswith("WATCHMAN_")}}
    with open(sys.argv[1], "a") as f:
        f.write(json.dumps(entry) + "\n")
    """#

    @Test(.enabled(if: required || hasPywatchman)) func pywatchmanRegistersALegacyTriggerThatRuns() {
        for encoding in ["bser", "json"] {
            let served = ServedRoot(["--logfile", "log", "--log-level=2"], files: ["foo.c", "b ar.c", "bar.txt"])
            let recorder = served.scratch.file("recorder.py")
            TemporaryDirectory.write(bytes: Array(recorder.utf8), Self.recorder)
            let run = served.python(Self.script, [encoding, served.root, recorder])
            #expect(run.output == "ok\n", "\(encoding): \(run.errors)")
            #expect(served.scratch.read("log").contains("\(served.root): posix_spawnp: rec"))
            #expect(served.stop() == 0)
        }
    }
}
