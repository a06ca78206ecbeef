#!/usr/bin/env python3
"""Polling benchmark (issue 11): rwatch's polling backend side by side with
watchfiles (force_polling=True) and fswatch's poll_monitor, all three
watching the same tree at once, in one run; then rwatch's inotify path on
the same tree (armed time, peak RSS), against an older probe if one is given.

    swift build -c release --package-path Benchmarks/files
    python3 Benchmarks/polling/bench.py [--quick] [--old-probe PATH] [--only rwatch] [--probe PATH]

Needs `pip install watchfiles` and `apt-get install fswatch`.

Tree: 100,000 files in 10,000 directories (100 x 100, 10 files each), made
once under /tmp and reused. Interval: 1 s for every peer.

- idle CPU: utime+stime of each peer over 30 s with nothing changing, as a
  percentage of one core;
- latency: one append to a random existing file, then the time until each
  peer reports that path; 200 writes, each after a random pause of 0-1 s so
  that writes fall anywhere in the peers' poll cycles;
- burst: one new file in each of the 10,000 directories, as fast as Python
  goes; how many of them each peer reported;
- peak RSS: VmHWM of each peer at the end;
- floor: after the peers, `floor.c` (built with cc) does nothing but the
  open and fstatat calls a pass needs, 30 times: its CPU per pass is the
  lowest idle CPU a poller that stats every file once a second can reach;
  then again with every directory held open (only the stats).
"""
import os
import random
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# --probe PATH: a probe built elsewhere (another worktree's build folder).
PROBE = (sys.argv[sys.argv.index("--probe") + 1] if "--probe" in sys.argv
         else os.path.join(HERE, "..", "files", ".build", "release", "files-probe"))
QUICK = "--quick" in sys.argv
TREE = "/tmp/rwatch-bench-tree" + ("-quick" if QUICK else "")
TOP, SUB, PER_DIR = (10, 100, 10) if QUICK else (100, 100, 10)
INTERVAL_S = 1.0
WRITES = 40 if QUICK else 200
IDLE_S = 10 if QUICK else 30
OLD_PROBE = sys.argv[sys.argv.index("--old-probe") + 1] if "--old-probe" in sys.argv else None
# --only rwatch: the same steps with only the named peers running (what one
# poller reaches without the others taking cores from it).
ONLY = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None


def now():
    return time.perf_counter()


WATCHFILES_PEER = """
import sys, watchfiles
armed = False
for changes in watchfiles.watch(sys.argv[1], force_polling=True, poll_delay_ms=int(sys.argv[2]),
                                debounce=1, step=1, rust_timeout=100, yield_on_timeout=True,
                                raise_interrupt=False):
    if not armed:
        armed = True
        sys.stderr.write("ARMED\\n")
        sys.stderr.flush()
    if changes:
        sys.stdout.write("".join(f"{change.name} {path}\\n" for change, path in changes))
        sys.stdout.flush()
"""

PEERS = {
    "rwatch": lambda tree: [PROBE, tree, "--poll", str(int(INTERVAL_S * 1000))],
    "watchfiles": lambda tree: [sys.executable, "-c", WATCHFILES_PEER, tree, str(int(INTERVAL_S * 1000))],
    "fswatch": lambda tree: ["fswatch", "-m", "poll_monitor", "-r", "-l", str(INTERVAL_S), tree],
}


class Peer:
    """A running watcher; every path it prints, with the times it arrived."""

    def __init__(self, name, command):
        self.name = name
        self.lock = threading.Condition()
        self.seen = {}  # path -> [arrival times]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            stamp = now()
            line = raw.decode(errors="replace").rstrip("\n")
            # "kind path" (rwatch, watchfiles) or "path" (fswatch).
            path = line.partition(" ")[2] if not line.startswith("/") else line
            with self.lock:
                self.seen.setdefault(path, []).append(stamp)
                self.lock.notify_all()

    def first_after(self, path, since, timeout):
        """When `path` was first reported after `since`, or None."""
        deadline = now() + timeout
        with self.lock:
            while True:
                times = [t for t in self.seen.get(path, []) if t >= since]
                if times:
                    return times[0]
                left = deadline - now()
                if left <= 0:
                    return None
                self.lock.wait(left)

    def count(self, predicate):
        with self.lock:
            return sum(1 for path in self.seen if predicate(path))

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def make_tree():
    marker = os.path.join(TREE, ".complete")
    if os.path.exists(marker):
        return
    for a in range(TOP):
        for b in range(SUB):
            directory = os.path.join(TREE, f"d{a:02}", f"s{b:02}")
            os.makedirs(directory, exist_ok=True)
            for f in range(PER_DIR):
                with open(os.path.join(directory, f"f{f}.txt"), "w") as handle:
                    handle.write("x\n")
    open(marker, "w").close()


def leaf_directories():
    return [os.path.join(TREE, f"d{a:02}", f"s{b:02}") for a in range(TOP) for b in range(SUB)]


def wait_armed(peers):
    """Touches a new file until every peer has reported one: each has its
    starting snapshot by then."""
    for round_ in range(120):
        probe = os.path.join(TREE, f"armed-{round_}.txt")
        open(probe, "w").close()
        start = now()
        if all(peer.first_after(probe, start - 60, 3 * INTERVAL_S) for peer in peers.values()):
            return
    raise RuntimeError("a peer never armed")


def idle_cpu(peers):
    before = {name: peer.cpu_seconds() for name, peer in peers.items()}
    time.sleep(IDLE_S)
    return {name: 100 * (peer.cpu_seconds() - before[name]) / IDLE_S for name, peer in peers.items()}


def latency(peers, files):
    samples = {name: [] for name in peers}
    missed = {name: 0 for name in peers}
    rng = random.Random(11)
    for _ in range(WRITES):
        time.sleep(rng.uniform(0, INTERVAL_S))
        path = rng.choice(files)
        start = now()
        with open(path, "a") as handle:
            handle.write("x\n")
        for name, peer in peers.items():
            seen = peer.first_after(path, start, 5 * INTERVAL_S)
            if seen is None:
                missed[name] += 1
            else:
                samples[name].append((seen - start) * 1000)
    results = {}
    for name in peers:
        ordered = sorted(samples[name])
        results[name] = {
            "p50_ms": statistics.median(ordered) if ordered else None,
            "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else None,
            "missed": missed[name],
        }
    return results


def burst(peers):
    paths = [os.path.join(directory, "burst.txt") for directory in leaf_directories()]
    for path in paths:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))
    wanted = set(paths)
    last, counts = now(), {}
    while now() - last < 5 * INTERVAL_S:
        time.sleep(INTERVAL_S)
        fresh = {name: peer.count(lambda p: p in wanted) for name, peer in peers.items()}
        if fresh != counts:
            counts, last = fresh, now()
        if all(count == len(paths) for count in counts.values()):
            break
    for path in paths:
        os.unlink(path)
    return {name: (count, len(paths)) for name, count in counts.items()}


def inotify_setup(probe, runs=3):
    """Time until a default (inotify) files-probe says ARMED, and its peak RSS."""
    times, rss = [], []
    for _ in range(runs):
        start = now()
        process = subprocess.Popen([probe, TREE], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for raw in process.stderr:
            if b"ARMED" in raw:
                break
        times.append(now() - start)
        with open(f"/proc/{process.pid}/status") as handle:
            rss += [int(line.split()[1]) / 1024 for line in handle if line.startswith("VmHWM:")]
        process.terminate()
        process.wait()
    return statistics.median(times), statistics.median(rss)


def syscall_floor(passes=30, held=False):
    """CPU % of one core that floor.c's pass costs at one pass per second
    (with `held`, every directory kept open: stats only)."""
    if QUICK:
        return None  # floor.c walks the full 100 x 100 tree
    binary = os.path.join("/tmp", "rwatch-poll-floor")
    try:
        subprocess.run(["cc", "-O2", "-o", binary, os.path.join(HERE, "floor.c")], check=True)
    except (OSError, subprocess.CalledProcessError):
        print("syscall floor: no C compiler (cc), skipped", flush=True)
        return None
    output = subprocess.run([binary, TREE, str(passes)] + (["held"] if held else []), check=True, capture_output=True, text=True).stdout
    return float(output) / (INTERVAL_S * 1000) * 100


def main():
    if not os.path.exists(PROBE):
        sys.exit("build the probe first: swift build -c release --package-path Benchmarks/files")
    make_tree()
    for path in os.listdir(TREE):
        if path.startswith("armed-"):
            os.unlink(os.path.join(TREE, path))
    files = [os.path.join(d, f"f{f}.txt") for d in leaf_directories() for f in range(PER_DIR)]
    print(f"tree {TREE}: {len(files)} files in {TOP * SUB + TOP + 1} directories; load {os.getloadavg()}", flush=True)
    peers = {name: Peer(name, command(TREE)) for name, command in PEERS.items() if ONLY is None or name in ONLY}
    try:
        wait_armed(peers)
        print("idle CPU %", idle_cpu(peers), flush=True)
        print("latency", latency(peers, files), flush=True)
        print("burst", burst(peers), flush=True)
        print("peak RSS MB", {name: round(peer.peak_rss_mb(), 1) for name, peer in peers.items()}, flush=True)
    finally:
        for peer in peers.values():
            peer.stop()
        for path in os.listdir(TREE):
            if path.startswith("armed-"):
                os.unlink(os.path.join(TREE, path))
    floor = syscall_floor()
    if floor is not None:
        print(f"syscall floor: {floor:.1f} % of a core at one pass per second", flush=True)
        held = syscall_floor(held=True)
        print(f"syscall floor, every directory kept open: {held:.1f} % of a core", flush=True)
    armed, rss = inotify_setup(PROBE)
    print(f"inotify path (this build): armed {armed:.2f} s, peak RSS {rss:.1f} MB", flush=True)
    if OLD_PROBE:
        armed, rss = inotify_setup(OLD_PROBE)
        print(f"inotify path (--old-probe): armed {armed:.2f} s, peak RSS {rss:.1f} MB", flush=True)
    print(f"load at the end {os.getloadavg()}", flush=True)


main()
