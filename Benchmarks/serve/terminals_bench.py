#!/usr/bin/env python3
"""Three rwatch terminals on one tree, with and without rwatch serve (issue 25).

On a tree of 100,000 files in 10,100 directories, three `rwatch -d 0 -w
TREE -- true` processes, as three terminals (tests, server, linter) on one
monorepo would run:

  alone    each watches by itself (--no-service)
  served   beside one `rwatch serve` (WATCHMAN_SOCK), which watches for all

For each: the inotify watches held in total (every process's
/proc/PID/fdinfo), their resident memory in total (VmRSS, the service's
included; and PSS, which counts the pages the processes share, rwatch's
own code among them, once), and the time from starting each terminal to its watch being in
place (its `-v` line: "watching … with inotify" or "… through the service").

    swift build -c release --product rwatch --scratch-path .build-release
    python3 Benchmarks/serve/terminals_bench.py --rwatch .build-release/release/rwatch

SHOW_EACH=1 prints each process's (watches, RSS MB, PSS MB) to stderr.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import make_tree  # noqa: E402


def watches(pid):
    total = 0
    try:
        for fd in os.listdir(f"/proc/{pid}/fdinfo"):
            try:
                with open(f"/proc/{pid}/fdinfo/{fd}") as info:
                    total += sum(1 for line in info if line.startswith("inotify wd:"))
            except OSError:
                pass
    except OSError:
        pass
    return total


def pss_mb(pid):
    """Proportional set size: pages shared by several processes (the same
    binary's code) counted once in total, shared out among them."""
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def terminal(binary, tree, work, index, env, extra):
    log = open(os.path.join(work, f"terminal-{index}.log"), "w+")
    started = time.perf_counter()
    process = subprocess.Popen([binary, "-v", "-d", "0"] + extra + ["-w", tree, "--", "true"], env=env,
                               stdout=subprocess.DEVNULL, stderr=log, cwd=work)
    return process, log, started


def wait_armed(process, log, started, marker):
    while True:
        log.seek(0)
        if marker in log.read():
            return time.perf_counter() - started
        if process.poll() is not None:
            raise SystemExit(f"a terminal exited: {process.returncode}")
        time.sleep(0.005)


def scenario(binary, tree, work, served):
    env = dict(os.environ)
    service = None
    if served:
        sock = os.path.join(work, "sock")
        service = subprocess.Popen([binary, "serve", "--sockname", sock], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not os.path.exists(sock):
            time.sleep(0.01)
        env["WATCHMAN_SOCK"] = sock
        marker, extra = "through the service", []
    else:
        env["WATCHMAN_SOCK"] = os.path.join(work, "no-service")
        marker, extra = "with inotify", ["--no-service"]
    terminals, armed = [], []
    try:
        for index in range(3):
            process, log, started = terminal(binary, tree, work, index, env, extra)
            terminals.append((process, log))
            armed.append(wait_armed(process, log, started, marker))
        time.sleep(0.5)
        pids = [p.pid for p, _ in terminals] + ([service.pid] if service else [])
        if os.environ.get("SHOW_EACH"):
            print([(watches(pid), round(rss_mb(pid), 1), round(pss_mb(pid), 1)) for pid in pids], file=sys.stderr)
        return (sum(watches(pid) for pid in pids), sum(rss_mb(pid) for pid in pids), sum(pss_mb(pid) for pid in pids), armed)
    finally:
        for process, log in terminals:
            process.terminate()
            process.wait()
            log.close()
        if service:
            service.terminate()
            service.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rwatch", required=True)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    binary = os.path.abspath(args.rwatch)
    work = tempfile.mkdtemp(prefix="rwatch-terminals-")
    try:
        tree = os.path.join(work, "tree")
        make_tree(tree)
        print("| three terminals | inotify watches | RSS in total, MB | PSS in total, MB | armed: 1st / 2nd / 3rd terminal, s |")
        print("|---|---:|---:|---:|---:|")
        for _ in range(args.runs):
            for served in (False, True):
                count, rss, pss, armed = scenario(binary, tree, work, served)
                name = "beside one rwatch serve" if served else "each alone (--no-service)"
                print(f"| {name} | {count:,} | {rss:.1f} | {pss:.1f} | {' / '.join(f'{a:.2f}' for a in armed)} |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
