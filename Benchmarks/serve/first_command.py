#!/usr/bin/env python3
"""The first `watchman` command on a machine with no service running: the
time from starting `watchman --no-pretty get-sockname` to its answer, the
command starting the service on the way. rwatch run as `watchman` (a link
named so) beside Debian's watchman 4.9 starting its own daemon, in rounds
that alternate which goes first. Each round gives each a fresh state
directory, and stops the service it started afterwards.

    python3 Benchmarks/serve/first_command.py --rwatch .build/release/rwatch --rounds 30
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time


def first_answer(argv, env):
    """Seconds from starting argv to its exit, and its answer."""
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {done.stderr.decode(errors='replace')}")
    return elapsed, json.loads(done.stdout)


def stop(pidfile):
    """Stops the service whose pid the file names, and waits for it to go."""
    try:
        with open(pidfile) as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):
        return
    os.kill(pid, signal.SIGTERM)
    for _ in range(2000):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.005)
    os.kill(pid, signal.SIGKILL)


def rwatch_round(link, scratch):
    run = os.path.join(scratch, "run")
    os.mkdir(run, 0o700)
    env = {"PATH": os.path.dirname(link) + ":/usr/bin:/bin", "HOME": scratch, "XDG_RUNTIME_DIR": run, "TMPDIR": scratch}
    elapsed, answer = first_answer([link, "--no-pretty", "get-sockname"], env)
    stop(answer["sockname"] + ".pid")
    return elapsed


def watchman_round(scratch):
    # watchman 4.9 keeps its files where its flags say; the same layout.
    state = os.path.join(scratch, "state")
    os.mkdir(state, 0o700)
    sock = os.path.join(state, "sock")
    argv = ["watchman", "--sockname=" + sock, "--statefile=" + sock + ".state", "--logfile=" + sock + ".log",
            "--pidfile=" + sock + ".pid", "--no-pretty", "get-sockname"]
    env = {"PATH": "/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch}
    elapsed, _ = first_answer(argv, env)
    stop(sock + ".pid")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rwatch", default=".build/release/rwatch")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    bin_dir = tempfile.mkdtemp(prefix="first-command-bin")
    link = os.path.join(bin_dir, "watchman")
    os.symlink(os.path.abspath(args.rwatch), link)
    times = {"rwatch": [], "watchman": []}
    try:
        for round_number in range(args.rounds + 2):
            order = ["rwatch", "watchman"] if round_number % 2 == 0 else ["watchman", "rwatch"]
            for name in order:
                scratch = tempfile.mkdtemp(prefix="first-command-")
                try:
                    elapsed = rwatch_round(link, scratch) if name == "rwatch" else watchman_round(scratch)
                finally:
                    shutil.rmtree(scratch, ignore_errors=True)
                if round_number >= 2:  # two rounds to warm the page cache
                    times[name].append(elapsed)
    finally:
        shutil.rmtree(bin_dir, ignore_errors=True)
    version = subprocess.run([args.rwatch, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    print(f"{version}; watchman {subprocess.run(['watchman', '--version'], stdout=subprocess.PIPE, text=True).stdout.strip()}")
    print(f"{'':10} {'p50 ms':>8} {'p90 ms':>8} {'min ms':>8}")
    for name, values in times.items():
        values.sort()
        p90 = values[int(len(values) * 0.9) - 1]
        print(f"{name:10} {statistics.median(values) * 1000:8.1f} {p90 * 1000:8.1f} {values[0] * 1000:8.1f}")
    ratio = statistics.median(times["rwatch"]) / statistics.median(times["watchman"])
    print(f"rwatch / watchman, p50: {ratio:.2f}x")


if __name__ == "__main__":
    main()
