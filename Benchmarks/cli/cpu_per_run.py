#!/usr/bin/env python3
"""CPU time rwatch itself spends per run of a `-d 0` command (its own
threads, user + system, from /proc/PID/stat; not the command's).

Usage: python3 Benchmarks/cli/cpu_per_run.py RWATCH [RUNS]

Saves one watched file RUNS times (default 300), each after the last
run's output arrived and a 20 ms pause, and divides the CPU time rwatch
used meanwhile by RUNS.
"""
import os
import subprocess
import sys
import tempfile
import time


def main():
    rwatch, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 300
    work = tempfile.mkdtemp(prefix="rwatch-cpu-")
    watched, out = os.path.join(work, "w"), os.path.join(work, "out")
    os.mkdir(watched)
    target = os.path.join(watched, "saved")
    with open(target, "w") as f:
        f.write("x")
    child = subprocess.Popen([rwatch, "-p", "-d", "0", "-w", watched, "--", "sh", "-c", f"echo >> '{out}'"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)

    def cpu():
        fields = open(f"/proc/{child.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def count():
        try:
            with open(out) as f:
                return len(f.read().splitlines())
        except FileNotFoundError:
            return 0

    start = cpu()
    for i in range(runs):
        before = count()
        with open(target, "w") as f:
            f.write(str(i))
        while count() == before:
            time.sleep(0.0005)
        time.sleep(0.02)
    used = cpu() - start
    child.send_signal(2)
    child.wait()
    print(f"{rwatch}: {used / runs * 1e6:.0f} µs of CPU per run (rwatch's own threads), {runs} runs")


if __name__ == "__main__":
    main()
