#!/usr/bin/env python3
"""Arming time and peak RSS of rwatch's inotify path beside inotifywait, on
the polling benchmark's tree (100,000 files in 10,101 directories; run
Benchmarks/polling/bench.py once to make it). Starts alternate, five each
(ROUNDS=N for more); medians of the wall time to armed and of the CPU time
(user + system) used until then, which waiting for a core does not inflate.
RWATCH_BASELINE_PROBE=/path/to/files-probe adds a probe built from an
earlier commit to the same run.

    swift build -c release --package-path Benchmarks/files
    python3 Benchmarks/files/armed.py
"""
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = os.path.join(HERE, ".build", "release", "files-probe")
TREE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/rwatch-bench-tree"
ROUNDS = int(os.environ.get("ROUNDS", "5"))


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system CPU time of `pid` so far: on a loaded machine the wall
    time also counts waiting for a core, this does not."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def arm(command, marker, env=None):
    """Seconds until `command` prints `marker` on stderr, the CPU seconds it
    used until then, and its VmHWM in MB (`env`: its environment, when not
    this one's)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    for line in process.stderr:
        if marker in line:
            break
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds(process.pid)
    with open(f"/proc/{process.pid}/status") as status:
        rss = next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    process.terminate()
    process.wait()
    return elapsed, cpu, rss


def main():
    if not os.path.isdir(TREE):
        sys.exit(f"no tree at {TREE}: run Benchmarks/polling/bench.py once first")
    peers = {"rwatch": ([PROBE, TREE], b"ARMED"), "inotifywait": (["inotifywait", "-m", "-r", TREE], b"Watches established")}
    if os.environ.get("RWATCH_BASELINE_PROBE"):
        peers["rwatch-baseline"] = ([os.environ["RWATCH_BASELINE_PROBE"], TREE], b"ARMED")
    results = {name: [] for name in peers}
    for _ in range(ROUNDS):
        for name, (command, marker) in peers.items():
            results[name].append(arm(command, marker))
    base = statistics.median(t for t, _, _ in results["inotifywait"])
    base_cpu = statistics.median(c for _, c, _ in results["inotifywait"])
    for name, samples in results.items():
        armed = statistics.median(t for t, _, _ in samples)
        cpu = statistics.median(c for _, c, _ in samples)
        rss = statistics.median(r for _, _, r in samples)
        print(f"{name:12} armed {armed:.2f} s ({armed / base:.2f}x)  CPU {cpu:.2f} s ({cpu / max(base_cpu, 0.01):.2f}x)"
              f"  peak RSS {rss:.1f} MB")
    print("load", os.getloadavg())


if __name__ == "__main__":
    main()
