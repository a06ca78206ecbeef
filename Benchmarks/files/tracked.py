#!/usr/bin/env python3
"""What counting tracked files costs (issue 26): arming time and peak RSS of
rwatch's inotify path on a git repository of 100,000 files in 10,100
directories, with git on PATH (the filter asks `git ls-files -z --cached
--ignored --exclude-standard` which tracked files its rules ignore) and
with git hidden (the same binary as before the change would arm: rules
only), beside inotifywait, starts alternating, five each (ROUNDS=N for
more); then what one refresh costs, off the reader thread, when git's
index or a rule file changes: the same git command, timed alone.

    swift build -c release --package-path Benchmarks/files
    python3 Benchmarks/files/tracked.py

The repository is made once under /tmp (the polling benchmark's tree shape,
committed; `*.log` and `generated/` ignored, with 100 `.log` files and 10
files of `generated/` tracked all the same) and reused.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

from armed import PROBE, ROUNDS, arm
from footprint import make_tree

REPO = "/tmp/rwatch-bench-repo"
GIT = ["git", "-C", REPO, "-c", "user.name=bench", "-c", "user.email=bench@example.com"]


def make_repository():
    """The tree, committed, with tracked files that the rules ignore."""
    if os.path.isdir(os.path.join(REPO, ".git")):
        return
    os.makedirs(REPO)
    make_tree(REPO, 100)
    os.makedirs(os.path.join(REPO, "generated"))
    for index in range(1000):
        open(os.path.join(REPO, "generated", f"g{index}.c"), "w").close()
    for index in range(100):
        open(os.path.join(REPO, "t0", f"s{index}", "run.log"), "w").close()
    with open(os.path.join(REPO, ".gitignore"), "w") as handle:
        handle.write("*.log\ngenerated/\n")
    subprocess.run(GIT + ["init", "-q"], check=True)
    subprocess.run(GIT + ["add", "-A"], check=True)
    forced = [f"t0/s{index}/run.log" for index in range(100)] + [f"generated/g{index}.c" for index in range(10)]
    subprocess.run(GIT + ["add", "-f", "--"] + forced, check=True)
    subprocess.run(GIT + ["commit", "-qm", "tree"], check=True)


def main():
    make_repository()
    no_git = tempfile.mkdtemp(prefix="rwatch-no-git-")
    hidden = dict(os.environ, PATH=no_git)
    peers = {
        "rwatch, git on PATH": ([PROBE, REPO], b"ARMED", None),
        "rwatch, no git": ([PROBE, REPO], b"ARMED", hidden),
        "inotifywait": (["inotifywait", "-m", "-r", REPO], b"Watches established", None),
    }
    results = {name: [] for name in peers}
    for _ in range(ROUNDS):
        for name, (command, marker, env) in peers.items():
            results[name].append(arm(command, marker, env))
    base = statistics.median(t for t, _, _ in results["inotifywait"])
    print("| watcher | armed | CPU until armed | peak RSS |")
    print("|---|---|---|---|")
    for name, samples in results.items():
        armed = statistics.median(t for t, _, _ in samples)
        cpu = statistics.median(c for _, c, _ in samples)
        rss = statistics.median(r for _, _, r in samples)
        print(f"| {name} | {armed:.2f} s ({armed / base:.2f}x) | {cpu:.2f} s | {rss:.1f} MB |")
    listing = GIT + ["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"]
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        output = subprocess.run(listing, capture_output=True, check=True).stdout
        times.append(time.perf_counter() - start)
    count = output.count(b"\0")
    print(f"one refresh (git ls-files, {count} tracked files ignored by the rules): {statistics.median(times) * 1000:.0f} ms")
    os.rmdir(no_git)
    print("load", os.getloadavg())


main()
