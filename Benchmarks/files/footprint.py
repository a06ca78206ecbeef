#!/usr/bin/env python3
"""Footprint benchmark (issue 17): peak RSS of `rwatch --help` and of
`rwatch events` watching an empty directory and a tree of 100,000 files in
10,100 directories, side by side with inotifywait, entr and watchfiles in one
run; the difference between the two trees per directory.

    make release      # .build/release/rwatch with the Swift runtime linked in
    python3 Benchmarks/files/footprint.py [--runs 3] [--quick] [--shape A,B,F] [--skip PEER] [LABEL=RWATCH ...]

The tree has A top directories of B subdirectories of F files each
(default 100,100,10: 100,000 files in 10,101 directories; `--quick` is
10,100,10; `--shape 100,1000,10` is the 1,000,000-file tree).

Each LABEL=RWATCH is a release `rwatch` binary measured as its own row (for
a before/after table); default: rwatch=.build/release/rwatch.

A watcher counts as armed once it reports a file created in the last
directory of the tree (created again every 20 ms until it does); its peak
RSS is its `VmHWM` at that moment (for entr and watchfiles the process
itself, not the commands it runs). Median of `--runs` runs.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
QUICK = "--quick" in sys.argv


def argument(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


RUNS = int(argument("--runs", "3"))
# entr takes one inotify watch per file: 100,000 on the full tree, a large
# share of the per-user limit that other programs of the same user need.
SKIP = set(argument("--skip", "").split(",")) - {""}


def make_tree(root, top, sub=100, per_dir=10):
    for a in range(top):
        for b in range(sub):
            directory = os.path.join(root, f"t{a}", f"s{b}")
            os.makedirs(directory)
            for f in range(per_dir):
                open(os.path.join(directory, f"f{f}"), "w").close()


def deepest(root):
    """The directory a recursive watcher arms last (or the root itself)."""
    tops = sorted((d for d in os.listdir(root) if d.startswith("t")), key=lambda d: int(d[1:]))
    if not tops:
        return root
    top = os.path.join(root, tops[-1])
    subs = sorted(os.listdir(top), key=lambda d: int(d[1:]))
    return os.path.join(top, subs[-1])


def all_files(root):
    for directory, _, files in os.walk(root):
        for name in files:
            yield os.path.join(directory, name)


def peers(rwatches):
    rows = {}
    for label, binary in rwatches:
        rows[label] = lambda root, b=binary: ([b, "events", root], None)
    rows["inotifywait"] = lambda root: (["inotifywait", "-m", "-r", "-q", "--format", "%e %w%f", root], None)
    # entr watches the files it is given: the tree's files plus the probe.
    rows["entr"] = lambda root: (["entr", "-n", "-p", "sh", "-c", "echo probe"], "files")
    rows["watchfiles"] = lambda root: ([sys.executable, os.path.join(HERE, "watchfiles_peer.py"), root], None)
    return {name: make for name, make in rows.items() if name not in SKIP}


def peak_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def armed_rss(command, stdin_kind, root):
    """Starts one watcher, waits until it reports the probe, returns (seconds, VmHWM kB)."""
    probe = os.path.join(deepest(root), "probe")
    stdin = subprocess.DEVNULL
    if stdin_kind == "files":
        open(probe, "w").close()
        listing = "".join(path + "\n" for path in all_files(root)).encode()
        stdin = subprocess.PIPE
    seen = threading.Event()
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)

    def read():
        for line in process.stdout:
            if b"probe" in line:
                seen.set()

    threading.Thread(target=read, daemon=True).start()
    if stdin_kind == "files":
        process.stdin.write(listing)
        process.stdin.close()
    deadline = started + 300
    while not seen.is_set() and time.perf_counter() < deadline:
        with open(probe, "a") as handle:
            handle.write("x")
        seen.wait(0.02)
    took = time.perf_counter() - started
    rss = peak_kb(process.pid)
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if os.path.exists(probe):
        os.unlink(probe)
    if not seen.is_set():
        raise RuntimeError(f"{command[0]} never reported the probe")
    return took, rss


def help_rss(command):
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return int(result.stderr.decode().strip().splitlines()[-1])


def main():
    rwatches = [a.split("=", 1) for a in sys.argv[1:] if "=" in a and not a.startswith("-")]
    if not rwatches:
        rwatches = [("rwatch", os.path.join(ROOT, ".build", "release", "rwatch"))]
    rows = peers(rwatches)
    base = tempfile.mkdtemp(prefix="rwatch-footprint-", dir="/tmp")
    empty = os.path.join(base, "empty")
    tree = os.path.join(base, "tree")
    os.makedirs(empty)
    os.makedirs(tree)
    top, sub, per_dir = (int(n) for n in argument("--shape", "10,100,10" if QUICK else "100,100,10").split(","))
    make_tree(tree, top, sub, per_dir)
    directories = 1 + top + top * sub
    print(f"load average at start: {os.getloadavg()[0]:.2f}; tree: {top * sub * per_dir:,} files in {directories:,} directories", file=sys.stderr)
    results = {}
    for run in range(RUNS):
        for name, make in rows.items():
            for label, root in (("empty", empty), ("tree", tree)):
                command, stdin_kind = make(root)
                took, rss = armed_rss(command, stdin_kind, root)
                results.setdefault((name, label), []).append((took, rss))
    helps = {label: statistics.median(help_rss([binary, "--help"]) for _ in range(RUNS)) for label, binary in rwatches}
    helps["inotifywait"] = statistics.median(help_rss(["inotifywait", "--help"]) for _ in range(RUNS))
    print(f"load average at end: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    shutil.rmtree(base)

    def median_rss(name, label):
        return statistics.median(r for _, r in results[(name, label)])

    peer_tree = median_rss("inotifywait", "tree")
    peer_empty = median_rss("inotifywait", "empty")
    peer_per_dir = (peer_tree - peer_empty) * 1024 / directories
    print(f"| watcher | `--help` | empty dir | {directories:,}-dir tree | tree vs inotifywait | per directory | armed (tree) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in rows:
        e, t = median_rss(name, "empty"), median_rss(name, "tree")
        per_dir = (t - e) * 1024 / directories
        armed = statistics.median(s for s, _ in results[(name, "tree")])
        help_cell = f"{helps[name] / 1024:.1f} MB" if name in helps else "–"
        print(f"| {name} | {help_cell} | {e / 1024:.1f} MB | {t / 1024:.1f} MB | {t / peer_tree:.2f}x "
              f"| {per_dir:.0f} B ({per_dir / peer_per_dir:.2f}x) | {armed:.2f} s |")


if __name__ == "__main__":
    main()
