#!/usr/bin/env python3
"""Save-to-command latency and burst runs: rwatch vs entr, an inotifywait
loop and watchfiles, side by side in one run.

Usage: python3 Benchmarks/cli/bench.py [--saves 200] [--burst 10000] [--rwatch PATH] [--dir /dev/shm]
                                      [--shell] [--only NAME,NAME] [--baseline PATH]
                                      [--variant 'NAME=COMMAND ...'] [--interleave]

--shell runs the command through `sh -c` in every tool (what a user's
command line usually costs); --only measures the named tools only
("rwatch -d 0,inotifywait loop"); --burst 0 skips the burst; --baseline
adds another rwatch binary (an older build) as "rwatch -d 0 (baseline)";
--variant (repeatable) adds "NAME" run as COMMAND's words followed by
rwatch's arguments, for a build under other conditions ("env TMPDIR=/dev/shm
PATH", "Benchmarks/restarts/without-cgroups.sh" with RWATCH=PATH).

--interleave measures the latency of every tool in one pass: all are
started (each on its own directory), then each save goes to the next tool
in turn, the order rotating every round, so that a busy moment of a
shared machine falls on all alike (no burst then).

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
BASELINE = None
VARIANTS = []


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
    if BASELINE:
        entries.insert(1, ("rwatch -d 0 (baseline)", [BASELINE, "-p", "-d", "0", "-w", watched, "--"] + words, None))
    for index, (name, prefix) in enumerate(VARIANTS):
        entries.insert(1 + index, (name, prefix + ["-p", "-d", "0", "-w", watched, "--"] + words, None))
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


def latency_interleaved(entries, work, saves, settle):
    """Every tool's latency, a save to each in turn (see --interleave)."""
    running = []
    try:
        for name, argv_for in entries:
            watched = tempfile.mkdtemp(dir=work)
            target = os.path.join(watched, "file.txt")
            out = os.path.join(work, f"out-{name.replace(' ', '_').replace('/', '_')}")
            save(target, "start\n")
            argv, stdin_text = argv_for(watched, target, out)
            running.append((name, start(argv, stdin_text), target, out, []))
        for name, _, target, out, _ in running:
            if not warm_up(target, out):
                print(f"{name}: never reacted", file=sys.stderr)
        for i in range(saves):
            for turn in range(len(running)):
                name, _, target, out, samples = running[(turn + i) % len(running)]
                before = len(lines(out))
                t0 = time.time_ns()
                save(target, f"save {i}\n")
                if wait_for(lambda: len(lines(out)) > before, 10):
                    samples.append((lines(out)[before] - t0) / 1e6)
                time.sleep(settle)
        return [(name, samples) for name, _, _, _, samples in running]
    finally:
        for _, process, _, _, _ in running:
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
    parser.add_argument("--baseline", default=None)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--interleave", action="store_true")
    # tmpfs: on ext4 a truncating save may flush (auto_da_alloc) and take
    # milliseconds itself, which would swamp what is measured here.
    parser.add_argument("--dir", default="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
    args = parser.parse_args()
    global SHELL, ONLY, BASELINE
    SHELL = args.shell
    ONLY = set(args.only.split(",")) - {""}
    BASELINE = args.baseline
    for variant in args.variant:
        name, _, command = variant.partition("=")
        VARIANTS.append((name, command.split()))
    rwatch = args.rwatch or os.path.join(
        subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, text=True).strip(), "rwatch")
    work = tempfile.mkdtemp(prefix="rwatch-bench-", dir=args.dir)
    try:
        stamp = build_stamp(work)
        if args.interleave:
            names = [name for name, _, _ in tools(rwatch, stamp, "-", "-", "-")]
            def argv_for(name):
                return lambda watched, target, out: next(
                    (t[1], t[2]) for t in tools(rwatch, stamp, watched, target, out) if t[0] == name)
            results = latency_interleaved([(name, argv_for(name)) for name in names], work, args.saves, args.settle)
            print(f"{'tool':34} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'n':>5}")
            for name, samples in results:
                if samples:
                    print(f"{name:34} {percentile(samples, 50):8.2f} {percentile(samples, 90):8.2f} "
                          f"{percentile(samples, 99):8.2f} {len(samples):5}")
            return
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
