#!/usr/bin/env python3
"""Arming time and peak RSS of `rwatch events` builds beside `inotifywait -m -r`
on the 100,000-file tree (100 x 100 directories of 10 files), taking turns
in alternating order (issue 29's rows against main's release build).

    python3 Benchmarks/files/armed_side_by_side.py [--runs 7] LABEL=RWATCH [LABEL=RWATCH ...]

A watcher counts as armed once it reports a write to a file that exists
in the tree's last directory (appended to every 10 ms from its start);
its peak RSS is its `VmHWM` then. Medians of `--runs`.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def main():
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
    commands = {label: [path, "events"] for label, path in (a.split("=", 1) for a in sys.argv[1:] if "=" in a)}
    commands["inotifywait"] = ["inotifywait", "-m", "-r", "-q", "--format", "%e %w%f"]
    root = tempfile.mkdtemp(prefix="rwatch-armed-", dir="/tmp")
    for a in range(100):
        for b in range(100):
            directory = os.path.join(root, f"t{a}", f"s{b}")
            os.makedirs(directory)
            for f in range(10):
                open(os.path.join(directory, f"f{f}"), "w").close()
    probe = os.path.join(root, "t99", "s99", "probe")
    open(probe, "w").close()
    took, peak = {name: [] for name in commands}, {name: [] for name in commands}
    for run in range(runs):
        order = list(commands) if run % 2 == 0 else list(reversed(list(commands)))
        for name in order:
            seen = threading.Event()
            started = time.perf_counter()
            process = subprocess.Popen(commands[name] + [root], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)

            def read():
                for line in process.stdout:
                    if b"probe" in line:
                        seen.set()

            threading.Thread(target=read, daemon=True).start()
            while not seen.is_set() and time.perf_counter() - started < 60:
                with open(probe, "a") as handle:
                    handle.write("x")
                seen.wait(0.01)
            took[name].append(time.perf_counter() - started if seen.is_set() else float("inf"))
            with open(f"/proc/{process.pid}/status") as status:
                peak[name].append(int(next(line for line in status if line.startswith("VmHWM")).split()[1]))
            process.terminate()
            process.wait()
    shutil.rmtree(root)
    print("| watcher | armed (median) | peak RSS (median) |")
    print("|---|---:|---:|")
    for name in commands:
        print(f"| {name} | {statistics.median(took[name]):.3f} s | {statistics.median(peak[name]) / 1024:.1f} MB |")


if __name__ == "__main__":
    main()
