#!/usr/bin/env python3
"""ProcessSource and Tail against their command-line peers (issue 5), in one run.

    Benchmarks/procs/run.sh                 # builds ProcsProbe (release), then this
    LOG_MB=50 RUNS=3 Benchmarks/procs/run.sh

Pairs, each side run RUNS times (default 7), alternating, median reported:
  - `ProcsProbe count-seq N`: `ProcessSource.run(["seq", N])`, counting stdout
    events, vs `seq N | wc -l`;
  - `ProcsProbe tail-count`: `Tail.follow(log, from: .start)` counting lines, vs
    `wc -l` (no target: for scale);
  - `ProcsProbe tail-grep`: `Tail.follow(log, from: .start, matching: REGEX)`
    counting matches, vs `grep -c -E REGEX log`; `tail-grep-i` the same
    ignoring case (`rwatch tail --grep`'s default), vs `grep -c -i -E`;
  - the same while `cat log >> growing.log` runs, vs `tail -F | grep
    --line-buffered` (follow-peer.sh); the time is until the end marker line
    has arrived.
Wall time from time.perf_counter, CPU (user+sys, the process and the children
it waited for) from wait4's rusage, peak RSS from /usr/bin/time (a child
forked by Python would count Python's pages as its own).
"""
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = sys.argv[1]
SEQ_LINES = int(os.environ.get("SEQ_LINES", "5000000"))
LOG_MB = int(os.environ.get("LOG_MB", "500"))
RUNS = int(os.environ.get("RUNS", "7"))
WORK = os.environ.get("WORK", "/tmp/rwatch-procs-bench")
REGEX = "status=5[0-9]{2} took=[0-9]{3,}ms"
END = "END-OF-BENCHMARK-LOG"
LOG = os.path.join(WORK, "big.log")
GROWING = os.path.join(WORK, "growing.log")


def generate_log():
    """An access-style log, ~107 bytes a line, 2.8 % of lines matching REGEX."""
    awk = r'''BEGIN {
        srand(42); total = 0; i = 0
        while (total < bytes) {
            s = (rand() < 0.97) ? 200 : 500 + int(rand() * 4)
            line = sprintf("2026-11-22T01:%02d:%02d.%03dZ INFO [worker-%d] request id=%d path=/api/v1/items/%d status=%d took=%dms",
                           (i / 60000) % 60, (i / 1000) % 60, i % 1000, i % 16, i, int(rand() * 100000), s, int(rand() * 2000))
            print line; total += length(line) + 1; i++
        }
        print end
    }'''
    with open(LOG, "w") as out:
        subprocess.run(["awk", "-v", f"bytes={LOG_MB * 1000000}", "-v", f"end={END}", awk], stdout=out, check=True)
    with open(LOG, "rb") as log:  # into the page cache, for both sides
        while log.read(1 << 20):
            pass
    return sum(1 for _ in open(LOG, "rb"))


def run_once(command, grow):
    """(wall s, cpu s, peak RSS KiB, stdout) of one run."""
    writer = None
    if grow:
        open(GROWING, "w").close()
        writer = subprocess.Popen(["sh", "-c", 'cat "$0" >> "$1"', LOG, GROWING])
    rss_file = os.path.join(WORK, "rss.txt")
    start = time.perf_counter()
    child = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss_file] + command, stdout=subprocess.PIPE)
    output = child.stdout.read().decode().strip()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = status
    if writer:
        writer.wait()
    if status != 0:
        sys.exit(f"failed ({status}): {' '.join(command)}")
    with open(rss_file) as rss:
        peak = int(rss.read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, peak, output


def measure_pair(ours, peer, grow=False):
    runs = {"ours": [], "peer": []}
    for _ in range(RUNS):
        runs["ours"].append(run_once(ours, grow))
        runs["peer"].append(run_once(peer, grow))
    summary = {}
    for side, results in runs.items():
        summary[side] = (
            statistics.median(r[0] for r in results),
            statistics.median(r[1] for r in results),
            max(r[2] for r in results) / 1024,
            results[0][3],
        )
    return summary["ours"], summary["peer"]


def main():
    os.makedirs(WORK, exist_ok=True)
    try:
        print(f"generating a {LOG_MB} MB log...", file=sys.stderr)
        log_lines = generate_log()
        pairs = [
            (f"ProcessSource: seq {SEQ_LINES}, count lines", f"peer: seq {SEQ_LINES} \\| wc -l", SEQ_LINES,
             [PROBE, "count-seq", str(SEQ_LINES)], ["sh", "-c", f"seq {SEQ_LINES} | wc -l"], False, "≥ 0.5"),
            (f"Tail from start, {LOG_MB} MB, count lines", "peer: wc -l, same file", log_lines,
             [PROBE, "tail-count", LOG, END], ["sh", "-c", f"wc -l < {LOG}"], False, "(none)"),
            (f"Tail from start, {LOG_MB} MB, regex count", "peer: grep -c -E, same file", log_lines,
             [PROBE, "tail-grep", LOG, REGEX, END], ["grep", "-c", "-E", REGEX, LOG], False, "≥ 0.5"),
            (f"Tail from start, {LOG_MB} MB, regex count ignoring case", "peer: grep -c -i -E, same file", log_lines,
             [PROBE, "tail-grep-i", LOG, REGEX, END], ["grep", "-c", "-i", "-E", REGEX, LOG], False, "(none)"),
            ("Tail while the file grows, regex count", "peer: tail -F \\| grep --line-buffered", log_lines,
             [PROBE, "tail-grep", GROWING, REGEX, END], [os.path.join(HERE, "follow-peer.sh"), GROWING, REGEX, END], True, "> 1"),
        ]
        rows, ratios = [], []
        for label, peer_label, lines, ours, peer, grow, target in pairs:
            mine, theirs = measure_pair(ours, peer, grow)
            for name, (wall, cpu, rss, output) in ((label, mine), (peer_label, theirs)):
                rows.append(f"| {name} | {output} | {wall:.3f} | {lines / wall:,.0f} | {cpu:.3f} | {rss:.1f} |")
            ratios.append(f"| {label.replace(f', {LOG_MB} MB', '')} vs {peer_label.removeprefix('peer: ')} | {target} | "
                          f"{theirs[0] / mine[0]:.2f} | {theirs[1] / mine[1]:.2f} |")
        print(f"Median of {RUNS} runs per side, alternating; log: {log_lines:,} lines; "
              f"machine: {os.cpu_count()} cores, {os.uname().release}, load {os.getloadavg()[0]:.2f}\n")
        print("| run | result | wall s | lines/s | CPU s (user+sys) | peak RSS MB |")
        print("|---|---|---|---|---|---|")
        print("\n".join(rows))
        print("\n| comparison | target | line-rate ratio (wall) | CPU ratio |")
        print("|---|---|---|---|")
        print("\n".join(ratios))
    finally:
        for path in (LOG, GROWING):
            if os.path.exists(path):
                os.remove(path)


if __name__ == "__main__":
    main()
