#!/usr/bin/env python3
"""Where a save -> `sh -c` command's time goes, stage by stage: rwatch -d 0
beside an `inotifywait -m | while read` loop, from the kernel's own
timestamps (perf tracepoints: system calls, wake-ups, context switches,
exec), on an otherwise idle machine.

Usage (root, perf): python3 Benchmarks/cli/timeline.py RWATCH [SAVES]

For each tool it saves one watched file SAVES times (default 40), 100 ms
apart, with `perf record -a --exclude-perf` running, and for each save
finds, after the watcher's last inotify read:

  handoff    the watcher wakes the next thread (rwatch: its reader wakes a
             recipe-queue worker; the loop: inotifywait's write wakes sh)
  running    that thread's first system call
  spawn      the spawning system call (clone3 / vfork / clone) is entered
  execve     the child enters execve
  exec done  the kernel has loaded the new program (sched_process_exec)

and prints the median of each, in µs after the read. Tracing adds one to
two µs to every system call, so the columns are a map of where the time
goes, not the latency itself (Benchmarks/cli/bench.py measures that).
"""
import os, re, statistics, subprocess, sys, tempfile, time

EVENTS = "raw_syscalls:sys_enter,raw_syscalls:sys_exit,sched:sched_wakeup,sched:sched_process_exec"
LINE = re.compile(r"^\s*(.+?)\s+(\d+)/(\d+)\s+\[\d+\]\s+([\d.]+):\s+(\S+):\s*(.*)$")
SPAWNS = {"435", "58", "56"}  # clone3, vfork, clone


def record(argv, watched, saves, out):
    """Runs `argv`, saves `watched` `saves` times under perf; returns the tool's pid."""
    target = os.path.join(watched, "saved")
    with open(target, "w") as f:
        f.write("x")
    tool = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(1.5)
    perf = subprocess.Popen(["perf", "record", "-q", "-e", EVENTS, "--exclude-perf", "-a", "-o", out],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    for i in range(saves):
        with open(target, "w") as f:
            f.write(str(i))
        time.sleep(0.1)
    time.sleep(0.3)
    perf.send_signal(2)
    perf.wait()
    os.killpg(tool.pid, 2)
    tool.wait()
    return tool.pid


def events(data):
    text = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,cpu,time,event,trace"],
                          capture_output=True, text=True).stdout
    for line in text.splitlines():
        match = LINE.match(line)
        if match:
            comm, pid, tid, stamp, event, rest = match.groups()
            yield comm.strip(), pid, tid, float(stamp) * 1e6, event, rest


def stages(data, watcher, target):
    """Per save: the stages' times after the watcher thread's last read
    (`target`: the names of the threads the watcher may hand over to)."""
    rows, save, woken, process = [], None, None, None
    for comm, pid, tid, t, event, rest in events(data):
        if comm == watcher and event == "raw_syscalls:sys_exit" and re.match(r"NR 0 = [1-9]", rest):
            if save is None or "handoff" not in save:
                save, woken, process = {"read": t}, None, None
            continue
        if save is None:
            continue
        if comm == watcher and event == "sched:sched_wakeup" and "handoff" not in save \
                and re.match(f"comm=({target}) ", rest):
            save["handoff"] = t
            woken = re.search(r"pid=(\d+)", rest).group(1)
        elif tid == woken and "running" not in save:
            save["running"] = t
            process = pid
        elif pid == process and event == "raw_syscalls:sys_enter" and rest.split(" ")[1] in SPAWNS and "spawn" not in save:
            save["spawn"] = t
        elif "spawn" in save and event == "raw_syscalls:sys_enter" and rest.startswith("NR 59 ") and "execve" not in save:
            save["execve"] = t
        elif "execve" in save and event == "sched:sched_process_exec":
            save["exec done"] = t
            rows.append({k: v - save["read"] for k, v in save.items()})
            save = None
    return rows


def main():
    rwatch = os.path.abspath(sys.argv[1])
    saves = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    work = tempfile.mkdtemp(prefix="rwatch-timeline-")
    out = os.path.join(work, "out")
    tools = [
        # rwatch's reader hands over to a Dispatch worker of the recipe queue.
        ("rwatch -d 0", "rwatch-inotify", "-qos.overcommit", lambda w: [rwatch, "-p", "-d", "0", "-w", w, "--", "sh", "-c", f"echo >> '{out}'"]),
        ("inotifywait loop", "inotifywait", "sh", lambda w: ["sh", "-c",
            f"inotifywait -m -q -e close_write --format x '{w}' | while read x; do sh -c \"echo >> '{out}'\"; done"]),
    ]
    names = ["handoff", "running", "spawn", "execve", "exec done"]
    print(f"{'tool':18}" + "".join(f"{n:>11}" for n in names) + "   saves   (µs after the read, medians)")
    for name, watcher, target, argv in tools:
        watched = os.path.join(work, name.split()[0])
        os.mkdir(watched)
        data = os.path.join(work, name.split()[0] + ".data")
        record(argv(watched), watched, saves, data)
        rows = stages(data, watcher, re.escape(target))
        medians = [statistics.median(r[n] for r in rows) if rows else float("nan") for n in names]
        print(f"{name:18}" + "".join(f"{m:11.0f}" for m in medians) + f"   {len(rows):5}")


if __name__ == "__main__":
    main()
