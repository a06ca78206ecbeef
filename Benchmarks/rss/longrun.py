#!/usr/bin/env python3
"""Memory over a long watch: RSS of rwatch and entr side by side in one run,
each running a trivial command once per save, N saves in a row.

Usage: python3 Benchmarks/rss/longrun.py [--runs 10000] [--rwatch PATH] [--baseline PATH]
                                         [--dir /dev/shm] [--tools rwatch,entr] [--debounce 0]

entr drops a save made within ~50 ms of its previous run, so the driver
waits 70 ms after each of its runs and gives it fewer (--entr-runs, 2000).

--baseline PATH adds another rwatch binary (an older build) as a third
tool, measured the same way in the same run (`--tools rwatch,baseline,entr`
is then the default).

Each tool watches a directory holding one file and runs `stamp OUT` (the
C program of Benchmarks/cli, which appends one line to OUT) on every
change. The driver saves the file (open, truncate, write, close), waits for
the run's line, and saves again: one run per save, N runs. VmRSS and
VmHWM are read from /proc/PID/status of the watching process after a warm-up
of 200 runs (the baseline: everything lazily made is made by then) and
every 1,000 runs after it; growth = last - baseline. A save that starts no
run within 0.5 s is made again and counted.
"""
import argparse, os, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WARM_UP = 200


def build_stamp(work):
    stamp = os.path.join(work, "stamp")
    subprocess.check_call(["cc", "-O2", "-o", stamp, os.path.join(ROOT, "Benchmarks", "cli", "stamp.c")])
    return stamp


def status(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "Threads"):
                values[key] = int(rest.split()[0])
    return values


def count(path):
    try:
        with open(path, "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


def wait_for(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.0002)
    return predicate()


def save(path, text):
    with open(path, "w") as f:
        f.write(text)


def measure(name, argv, stdin_text, target, out, runs, settle=0.0):
    process = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                               env=dict(os.environ, NO_COLOR="1"))
    if stdin_text is not None:
        process.stdin.write(stdin_text.encode())
        process.stdin.close()
    samples = []
    missed = 0
    try:
        # Save until the watch is in place.
        for attempt in range(200):
            save(target, f"warm {attempt}\n")
            if wait_for(lambda: count(out) > 0, 0.25):
                break
        else:
            return None
        started = time.monotonic()
        for i in range(WARM_UP + runs):
            before = count(out)
            # A save that gives no run within 0.5 s is made again (entr
            # drops a save that lands while its previous run is still
            # being waited for); each retry is counted.
            for attempt in range(20):
                save(target, f"save {i}.{attempt}\n")
                if wait_for(lambda: count(out) > before, 0.5):
                    break
                missed += 1
            if settle:
                time.sleep(settle)
            done = i + 1 - WARM_UP
            if done == 0 or (done > 0 and done % 1000 == 0):
                samples.append((done, status(process.pid)))
        elapsed = time.monotonic() - started
        return samples, missed, elapsed, count(out)
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10000)
    parser.add_argument("--rwatch", default=None)
    parser.add_argument("--debounce", default="0")
    parser.add_argument("--baseline", default=None)
    parser.add_argument("--tools", default=None)
    parser.add_argument("--entr-runs", type=int, default=2000)
    parser.add_argument("--dir", default="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
    args = parser.parse_args()
    if args.tools is None:
        args.tools = "rwatch,baseline,entr" if args.baseline else "rwatch,entr"
    rwatch = args.rwatch or os.path.join(
        subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, text=True).strip(), "rwatch")
    work = tempfile.mkdtemp(prefix="rwatch-longrun-", dir=args.dir)
    try:
        stamp = build_stamp(work)
        print(f"load average at start: {os.getloadavg()[0]:.1f}")
        for name in args.tools.split(","):
            watched = tempfile.mkdtemp(dir=work)
            target = os.path.join(watched, "file.txt")
            out = os.path.join(work, f"out-{name}")
            save(target, "start\n")
            if name in ("rwatch", "baseline"):
                binary = rwatch if name == "rwatch" else args.baseline
                argv, stdin_text = [binary, "-p", "-q", "-d", args.debounce, "-w", watched, "--", stamp, out], None
                label = f"rwatch -d {args.debounce}" + (f" (baseline {binary})" if name == "baseline" else "")
            runs, settle = args.runs, 0.0
            if name == "entr":
                argv, stdin_text = ["entr", "-n", "-p", stamp, out], target + "\n"
                label = "entr"
                # entr drops a save made within ~50 ms of its last run: wait
                # that out, which makes its runs ~10x slower; fewer of them.
                runs, settle = args.entr_runs, 0.07
            result = measure(name, argv, stdin_text, target, out, runs, settle)
            if result is None:
                print(f"{label}: never reacted")
                continue
            samples, missed, elapsed, lines = result
            base = samples[0][1]
            print(f"{label}: {runs} runs in {elapsed:.0f} s ({missed} saves repeated: no run within 0.5 s), "
                  f"{lines} lines")
            print(f"  {'runs':>6} {'VmRSS kB':>9} {'RssAnon kB':>10} {'VmHWM kB':>9} {'threads':>7}")
            for done, values in samples:
                print(f"  {done:6} {values.get('VmRSS', 0):9} {values.get('RssAnon', 0):10} "
                      f"{values.get('VmHWM', 0):9} {values.get('Threads', 0):7}")
            last = samples[-1][1]
            print(f"  growth after warm-up: VmRSS {last['VmRSS'] - base['VmRSS']:+} kB, "
                  f"RssAnon {last['RssAnon'] - base['RssAnon']:+} kB", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
