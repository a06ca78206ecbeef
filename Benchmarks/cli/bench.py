#!/usr/bin/env python3
"""Save-to-command latency and burst runs: rwatch vs entr, an inotifywait
loop and watchfiles, side by side in one run.

Usage: python3 Benchmarks/cli/bench.py [--saves 200] [--burst 10000] [--rwatch PATH] [--dir /dev/shm]
                                      [--shell] [--only NAME,NAME]

--shell runs the command through `sh -c` in every tool (what a user's
command line usually costs); --only measures the named tools only
("rwatch -d 0,inotifywait loop"); --burst 0 skips the burst.

Latency: the driver records the wall clock, then saves (open, write, close)
a watched file; the command is `stamp OUT`, whose first instruction appends
the wall clock. Latency = stamp - save. p50 and p99 over N saves, one save
at a time (the next save only after the previous run's stamp arrived, plus
a short settle so that every tool is idle again).

Burst: N writes to one watched file as fast as Python can, then wait until
no run has started for 3 s; report how many runs each tool started.
"""
import argparse, os, shutil, signal, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def build_stamp(work):
    stamp = os.path.join(work, "stamp")
    subprocess.check_call(["cc", "-O2", "-o", stamp, os.path.join(HERE, "stamp.c")])
    return stamp


SHELL = False
ONLY = set()


def tools(rwatch, stamp, watched, target, out):
    words = ["sh", "-c", f"'{stamp}' '{out}'"] if SHELL else [stamp, out]
    line = f"sh -c \"'{stamp}' '{out}'\"" if SHELL else f"'{stamp}' '{out}'"
    entries = [
        ("rwatch -d 0", [rwatch, "-p", "-d", "0", "-w", watched, "--"] + words, None),
        ("rwatch (default 50ms)", [rwatch, "-p", "-w", watched, "--"] + words, None),
        ("entr", ["entr", "-n", "-p"] + words, target + "\n"),
        ("inotifywait loop", ["sh", "-c",
            f"inotifywait -m -q -e close_write --format x '{watched}' | while read x; do {line}; done"], None),
    ]
    if shutil.which("watchfiles"):
        entries.append(("watchfiles", ["watchfiles", "--filter", "all", f"{stamp} {out}", watched], None))
    return [entry for entry in entries if not ONLY or entry[0] in ONLY]


def lines(path):
    try:
        with open(path) as f:
            return [int(x) for x in f.read().split()]
    except FileNotFoundError:
        return []


def wait_for(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.0002)
    return predicate()


def start(argv, stdin_text):
    process = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                               env=dict(os.environ, NO_COLOR="1"))
    if stdin_text is not None:
        process.stdin.write(stdin_text.encode())
        process.stdin.close()
    return process


def stop(process):
    try:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=5)
    except Exception:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def save(path, text):
    with open(path, "w") as f:
        f.write(text)


def warm_up(target, out, count=0):
    """Saves until the tool reacts: its watch is in place."""
    for attempt in range(200):
        save(target, f"warm {attempt}\n")
        if wait_for(lambda: len(lines(out)) > count, 0.25):
            wait_for(lambda: False, 1.2)  # let a debounce window close
            return True
    return False


def latency(argv, stdin_text, target, out, saves, settle):
    process = start(argv, stdin_text)
    try:
        if not warm_up(target, out):
            return None
        samples = []
        for i in range(saves):
            before = len(lines(out))
            t0 = time.time_ns()
            save(target, f"save {i}\n")
            if not wait_for(lambda: len(lines(out)) > before, 10):
                continue
            samples.append((lines(out)[before] - t0) / 1e6)
            time.sleep(settle)
            # a tool may run twice for one save (modify + close): absorb it
        return samples
    finally:
        stop(process)


def burst(argv, stdin_text, target, out, writes):
    process = start(argv, stdin_text)
    try:
        if not warm_up(target, out):
            return None
        before = len(lines(out))
        for i in range(writes):
            with open(target, "w") as f:
                f.write(f"burst {i}\n")
        last = len(lines(out))
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < 3:
            time.sleep(0.05)
            now = len(lines(out))
            if now != last:
                last, quiet_since = now, time.monotonic()
        return last - before
    finally:
        stop(process)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--burst", type=int, default=10000)
    parser.add_argument("--settle", type=float, default=0.15)
    parser.add_argument("--rwatch", default=None)
    parser.add_argument("--shell", action="store_true")
    parser.add_argument("--only", default="")
    # tmpfs: on ext4 a truncating save may flush (auto_da_alloc) and take
    # milliseconds itself, which would swamp what is measured here.
    parser.add_argument("--dir", default="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
    args = parser.parse_args()
    global SHELL, ONLY
    SHELL = args.shell
    ONLY = set(args.only.split(",")) - {""}
    rwatch = args.rwatch or os.path.join(
        subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, text=True).strip(), "rwatch")
    work = tempfile.mkdtemp(prefix="rwatch-bench-", dir=args.dir)
    try:
        stamp = build_stamp(work)
        print(f"{'tool':24} {'p50 ms':>8} {'p99 ms':>8} {'n':>5} {'burst runs':>11}")
        for name, _, _ in tools(rwatch, stamp, "-", "-", "-"):
            results = []
            for phase in ("latency", "burst") if args.burst else ("latency",):
                watched = tempfile.mkdtemp(dir=work)
                target = os.path.join(watched, "file.txt")
                out = os.path.join(work, f"out-{phase}-{len(os.listdir(work))}")
                save(target, "start\n")
                entry = [t for t in tools(rwatch, stamp, watched, target, out) if t[0] == name][0]
                if phase == "latency":
                    results.append(latency(entry[1], entry[2], target, out, args.saves, args.settle))
                else:
                    results.append(burst(entry[1], entry[2], target, out, args.burst))
            samples, runs = results if args.burst else (results[0], "-")
            if not samples:
                print(f"{name:24} {'-':>8} {'-':>8} {0:>5} {str(runs):>11}")
                continue
            print(f"{name:24} {percentile(samples, 50):8.2f} {percentile(samples, 99):8.2f} {len(samples):5} {str(runs):>11}",
                  flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
