#!/usr/bin/env python3
"""Arming time and peak RSS of rwatch's inotify path beside inotifywait, on
the polling benchmark's tree (100,000 files in 10,101 directories; run
Benchmarks/polling/bench.py once to make it). Starts alternate, five each.

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


def arm(command, marker):
    """Seconds until `command` prints `marker` on stderr, and its VmHWM in MB."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for line in process.stderr:
        if marker in line:
            break
    elapsed = time.perf_counter() - start
    with open(f"/proc/{process.pid}/status") as status:
        rss = next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    process.terminate()
    process.wait()
    return elapsed, rss


def main():
    if not os.path.isdir(TREE):
        sys.exit(f"no tree at {TREE}: run Benchmarks/polling/bench.py once first")
    peers = {"rwatch": ([PROBE, TREE], b"ARMED"), "inotifywait": (["inotifywait", "-m", "-r", TREE], b"Watches established")}
    results = {name: [] for name in peers}
    for _ in range(5):
        for name, (command, marker) in peers.items():
            results[name].append(arm(command, marker))
    base = statistics.median(t for t, _ in results["inotifywait"])
    for name, samples in results.items():
        armed = statistics.median(t for t, _ in samples)
        rss = statistics.median(r for _, r in samples)
        print(f"{name:12} armed {armed:.2f} s ({armed / base:.2f}x)  peak RSS {rss:.1f} MB")
    print("load", os.getloadavg())


main()
