#!/usr/bin/env python3
"""File-events benchmark (issue 4): rwatch's FileWatcher (release probe) side by
side with `inotifywait -m -r` and watchfiles, one peer after the other, in one run.

    swift build -c release --package-path Benchmarks/files
    python3 Benchmarks/files/bench.py [--quick]

Scenarios: write latency (p50/p99 over 1,000 writes), a burst of 100,000 files
in 1,000 new directories (created from Python, as fast as it goes), the same
burst with the kernel queue cut to 64 events (root only: a real IN_Q_OVERFLOW), 1,000
`sh -c 'mkdir -p d/x && echo > d/x/f'` (one shell each), and set-up of a
tree of 100,000 files in 10,000 directories (time to armed, peak RSS).
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
PROBE = os.path.join(HERE, ".build", "release", "files-probe")
QUICK = "--quick" in sys.argv
SCALE = 10 if QUICK else 1

PEERS = {
    "rwatch": (lambda d: [PROBE, d], "ARMED"),
    "inotifywait": (lambda d: ["inotifywait", "-m", "-r", "--format", "%e %w%f", d], "Watches established."),
    "watchfiles": (lambda d: [sys.executable, os.path.join(HERE, "watchfiles_peer.py"), d], "ARMED"),
}
# A probe built from an earlier commit, measured beside the current one:
#   RWATCH_BASELINE_PROBE=/path/to/old/files-probe python3 bench.py rwatch-baseline rwatch inotifywait --latency-only
if os.environ.get("RWATCH_BASELINE_PROBE"):
    PEERS["rwatch-baseline"] = (lambda d: [os.environ["RWATCH_BASELINE_PROBE"], d], "ARMED")


def now():
    return time.perf_counter()


class Peer:
    """A running watcher whose stdout lines are collected with arrival times."""

    def __init__(self, name, directory):
        command, self.marker = PEERS[name]
        self.name = name
        self.lock = threading.Condition()
        self.paths = {}          # path -> first arrival time
        self.last_new = None     # arrival time of the newest first-seen path
        self.lines = 0
        self.overflows = 0
        self.armed_at = None
        self.started_at = now()
        self.process = subprocess.Popen(command(directory), stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        for raw in self.process.stdout:
            stamp = now()
            line = raw.decode(errors="replace").rstrip("\n")
            _, _, path = line.partition(" ")
            with self.lock:
                self.lines += 1
                if "overflow" in line.lower():
                    self.overflows += 1
                if path not in self.paths:
                    self.paths[path] = stamp
                    self.last_new = stamp
                self.lock.notify_all()

    def _read_stderr(self):
        for raw in self.process.stderr:
            if self.marker in raw.decode(errors="replace") and self.armed_at is None:
                with self.lock:
                    self.armed_at = now()
                    self.lock.notify_all()

    def wait_armed(self, timeout=300):
        with self.lock:
            self.lock.wait_for(lambda: self.armed_at is not None, timeout)
        if self.armed_at is None:
            raise RuntimeError(f"{self.name} never armed")
        if self.name == "watchfiles":
            time.sleep(0.2)  # its first timeout tick comes after the watch is set; let it settle

    def wait_path(self, path, timeout=10):
        with self.lock:
            self.lock.wait_for(lambda: path in self.paths, timeout)
            return self.paths.get(path)

    def wait_quiet(self, expected, predicate, quiet=5.0, cap=180):
        """Waits until `expected` matching paths arrived, or nothing new for `quiet` s."""
        deadline = now() + cap
        while now() < deadline:
            with self.lock:
                count = sum(1 for p in self.paths if predicate(p))
                last = self.last_new
            if count >= expected:
                break
            if last is not None and now() - last > quiet:
                break
            time.sleep(0.05)
        with self.lock:
            return sum(1 for p in self.paths if predicate(p)), self.last_new

    def peak_rss_kb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def scratch():
    return tempfile.mkdtemp(prefix="rwatch-bench-", dir="/tmp")


def latency(names, writes=1000 // SCALE):
    """Write-to-event latency. All peers run at once, each on its own tree,
    and take turns: write k goes to every peer in sequence, so background
    load on this shared machine hits them alike."""
    roots, peers, files = {}, {}, {}
    for name in names:
        roots[name] = scratch()
        files[name] = [os.path.join(roots[name], f"lat-{i}.txt") for i in range(writes)]
        for path in files[name]:
            open(path, "w").close()
        peers[name] = Peer(name, roots[name])
    for name in names:
        peers[name].wait_armed()
    samples = {name: [] for name in names}
    missed = {name: 0 for name in names}
    for i in range(writes):
        for name in names:
            path = files[name][i]
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            start = now()
            os.write(fd, b"x\n")
            seen = peers[name].wait_path(path)
            os.close(fd)
            if seen is None:
                missed[name] += 1
            else:
                samples[name].append((seen - start) * 1e6)
    results = {}
    for name in names:
        peers[name].stop()
        shutil.rmtree(roots[name])
        ordered = sorted(samples[name])
        results[name] = {
            "p50_us": statistics.median(ordered),
            "p99_us": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
            "missed": missed[name],
        }
    return results


QUEUE_LIMIT = "/proc/sys/fs/inotify/max_queued_events"


def start_with_queue(name, root, queue):
    """Starts a peer whose inotify instance gets a `queue`-event kernel queue
    (root only: the limit is read when an instance is created, and restored
    as soon as the peer is armed)."""
    if queue is None:
        peer = Peer(name, root)
        peer.wait_armed()
        return peer
    with open(QUEUE_LIMIT) as handle:
        previous = handle.read().strip()
    with open(QUEUE_LIMIT, "w") as handle:
        handle.write(str(queue))
    try:
        peer = Peer(name, root)
        peer.wait_armed()
    finally:
        with open(QUEUE_LIMIT, "w") as handle:
            handle.write(previous)
    return peer


def burst(name, dirs=1000 // SCALE, per_dir=100, queue=None):
    root = scratch()
    peer = start_with_queue(name, root, queue)
    for d in range(dirs):
        directory = os.path.join(root, f"d{d}")
        os.mkdir(directory)
        for f in range(per_dir):
            os.close(os.open(os.path.join(directory, f"f{f}"), os.O_CREAT | os.O_WRONLY, 0o644))
    done = now()
    total = dirs * per_dir
    count, last = peer.wait_quiet(total, lambda p: os.path.basename(p).startswith("f") and "/d" in p)
    with peer.lock:
        overflows = peer.overflows
    peer.stop()
    shutil.rmtree(root)
    drain = max(0.0, (last or done) - done)
    return {"reported": count, "of": total, "drain_s": drain, "overflow_events": overflows}


def mkdir_then_file(name, count=1000 // SCALE):
    root = scratch()
    peer = Peer(name, root)
    peer.wait_armed()
    # The literal shell step of the issue, one shell per directory; the path
    # goes in as an argument, never pasted into the script.
    step = 'mkdir -p "$1/x" && echo > "$1/x/f"'
    for i in range(count):
        subprocess.run(["sh", "-c", step, "sh", os.path.join(root, f"d{i}")], check=True)
    reported, _ = peer.wait_quiet(count, lambda p: p.endswith("/x/f"))
    peer.stop()
    shutil.rmtree(root)
    return {"reported": reported, "of": count}


def make_tree(top=100 // SCALE, sub=100, per_dir=10):
    root = scratch()
    for a in range(top):
        for b in range(sub):
            directory = os.path.join(root, f"t{a}", f"s{b}")
            os.makedirs(directory)
            for f in range(per_dir):
                open(os.path.join(directory, f"f{f}"), "w").close()
    return root


def setup(name, root, runs=3):
    times, rss = [], []
    for _ in range(runs):
        peer = Peer(name, root)
        peer.wait_armed()
        times.append(peer.armed_at - peer.started_at)
        rss.append(peer.peak_rss_kb())
        peer.stop()
    return {"armed_s": statistics.median(times), "rss_mb": statistics.median(rss) / 1024}


def main():
    if not os.path.exists(PROBE):
        sys.exit("build the probe first: swift build -c release --package-path Benchmarks/files")
    names = [n for n in PEERS if n in sys.argv[1:]] or list(PEERS)
    results = {n: {} for n in names}
    for name, measured in latency(names).items():
        results[name]["latency"] = measured
        print(name, "latency", measured, flush=True)
    if "--latency-only" in sys.argv:
        return
    for name in names:
        results[name]["burst"] = burst(name)
        print(name, "burst", results[name]["burst"], flush=True)
    small_queue = os.geteuid() == 0 and "--no-overflow" not in sys.argv
    for name in names:
        if small_queue:
            results[name]["overflow"] = burst(name, queue=64)
            print(name, "burst with a 64-event queue", results[name]["overflow"], flush=True)
    for name in names:
        results[name]["mkdir"] = mkdir_then_file(name)
        print(name, "mkdir", results[name]["mkdir"], flush=True)
    tree = make_tree()
    for name in names:
        results[name]["setup"] = setup(name, tree)
        print(name, "setup", results[name]["setup"], flush=True)
    shutil.rmtree(tree)

    base = results.get("inotifywait")
    print("\n| peer | latency p50 | p99 | burst reported | drain | burst, 64-event queue | drain "
          "| mkdir -p files | armed | peak RSS |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        r = results[name]
        def ratio(metric, key):
            if not base or name == "inotifywait" or base[metric][key] == 0:
                return ""
            return f" ({r[metric][key] / base[metric][key]:.2f}x)"
        print(f"| {name} | {r['latency']['p50_us']:.0f} µs{ratio('latency', 'p50_us')} "
              f"| {r['latency']['p99_us']:.0f} µs{ratio('latency', 'p99_us')} "
              f"| {r['burst']['reported']:,} / {r['burst']['of']:,} | {r['burst']['drain_s']:.2f} s "
              + (f"| {r['overflow']['reported']:,} / {r['overflow']['of']:,} | {r['overflow']['drain_s']:.2f} s "
                 if 'overflow' in r else "| – | – ")
              + f"| {r['mkdir']['reported']:,} / {r['mkdir']['of']:,} "
              f"| {r['setup']['armed_s']:.2f} s{ratio('setup', 'armed_s')} "
              f"| {r['setup']['rss_mb']:.1f} MB{ratio('setup', 'rss_mb')} |")


if __name__ == "__main__":
    main()
