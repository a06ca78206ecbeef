#!/usr/bin/env python3
"""How long a project recipe reload takes: save rwatch.swift, then time until
the new recipe's command runs.

    python3 Benchmarks/reload/reload.py [ROUNDS] [RWATCH]

RWATCH defaults to the build `make run` makes ($(swift build --show-bin-path)/rwatch).
Each round writes a new rwatch.swift (new text, so it compiles for real) whose
one command writes its round number to a file; "save → new command" is timed
from the write to that file's change, and rwatch's own line
`reloaded … in T (compile C, swap S)` gives the split. The last rounds go back
to texts already compiled (the cache is keyed by text): swap only.
Then the peer in the same run: SwiftPM compiling a changed Package.swift
(`swift package dump-package` after each edit), and with the text unchanged.
Prints medians, min and max, and the load average around the run.
"""
import os, re, statistics, subprocess, sys, tempfile, time

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
rwatch = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    subprocess.check_output(["swift", "build", "--show-bin-path"], text=True).strip(), "rwatch")

RECIPE = """import RecipeKit

// round {n}
let recipe = Recipe("reload-bench", "writes its round, then waits") {{
    Signal.just(ChangeBatch([])).run(["sh", "-c", "echo {n} > round.txt; exec sleep 300"])
}}
"""

def parse_seconds(text):
    value, unit = text.split()
    return float(value) / (1000 if unit == "ms" else 1)

def wait_for_round(directory, n, timeout=300):
    path = os.path.join(directory, "round.txt")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if open(path).read().strip() == str(n):
                return time.monotonic()
        except FileNotFoundError:
            pass
        time.sleep(0.002)
    raise SystemExit(f"round {n} never ran")

def main():
    project = tempfile.mkdtemp(prefix="rwatch-reload-")
    cache = tempfile.mkdtemp(prefix="rwatch-reload-cache-")
    recipe = os.path.join(project, "rwatch.swift")
    stamp = os.urandom(4).hex()   # new texts every run: no warm cache from an earlier one
    text = lambda n: RECIPE.format(n=f"{n} {stamp}").replace(f"echo {n} {stamp}", f"echo {n}")
    open(recipe, "w").write(text(0))
    log = open(os.path.join(project, "rwatch.log"), "w+")
    env = dict(os.environ, XDG_CACHE_HOME=cache, NO_COLOR="1")
    load_before = os.getloadavg()
    process = subprocess.Popen([rwatch], cwd=project, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
    try:
        wait_for_round(project, 0)
        time.sleep(0.5)
        fresh, cached = [], []
        plan = [(n, fresh) for n in range(1, rounds + 1)] + [(n, cached) for n in range(1, min(rounds, 5) + 1)]
        for n, bucket in plan:
            # Same length, new text: one write as an editor's save would be.
            started = time.monotonic()
            with open(recipe, "w") as f:
                f.write(text(n))
            bucket.append(wait_for_round(project, n) - started)
            time.sleep(0.3)
    finally:
        process.send_signal(2)
        process.wait(timeout=30)
    load_after = os.getloadavg()
    log.seek(0)
    lines = [l for l in log.read().splitlines() if "reloaded" in l]
    split = [tuple(parse_seconds(x) for x in re.search(r"in (.+?) \(compile (.+?), swap (.+?)\)", l).groups()) for l in lines]
    def show(name, values):
        print(f"{name:38} median {statistics.median(values):.3f} s  min {min(values):.3f}  max {max(values):.3f}  (n={len(values)})")
    print(f"rwatch {rwatch}")
    show("save -> new command (compiled)", fresh)
    show("save -> new command (cached)", cached)
    show("rwatch: reload total (compiled)", [s[0] for s in split[:len(fresh)]])
    show("rwatch: compile", [s[1] for s in split[:len(fresh)]])
    show("rwatch: swap", [s[2] for s in split])
    # The peer, in the same run: SwiftPM compiling a changed Package.swift
    # (the manifest rwatch.swift is found like), as `swift package
    # dump-package` does after every edit of it; then with the text unchanged.
    package = tempfile.mkdtemp(prefix="rwatch-reload-peer-")
    manifest = os.path.join(package, "Package.swift")
    def swiftpm(n):
        open(manifest, "w").write(f"// swift-tools-version:5.9\n// round {n} {stamp}\nimport PackageDescription\n"
                                  f"let package = Package(name: \"Peer\")\n")
        started = time.monotonic()
        subprocess.run(["swift", "package", "--package-path", package, "dump-package"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.monotonic() - started
    peer_fresh = [swiftpm(n) for n in range(1, rounds + 1)]
    peer_cached = []
    for _ in range(min(rounds, 5)):
        started = time.monotonic()
        subprocess.run(["swift", "package", "--package-path", package, "dump-package"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peer_cached.append(time.monotonic() - started)
    show("swift package dump-package (changed)", peer_fresh)
    show("swift package dump-package (same)", peer_cached)
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f} (2 cores)")

main()
