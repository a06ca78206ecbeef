#!/usr/bin/env python3
"""Restart storm: N restarts of a command that leaves a grandchild, side by side.

    Benchmarks/restarts/storm.py BINARY [BINARY...]    # 1,000 restarts each
    RESTARTS=200 Benchmarks/restarts/storm.py .build/release/rwatch
    Benchmarks/restarts/storm.py before=/tmp/rwatch-main after=.build/release/rwatch
    DAEMON=1 Benchmarks/restarts/storm.py .build/release/rwatch

Each contender watches one file and runs, under its restart policy,

    sh -c 'sleep 1000 & echo "$$ $!" >> PIDS; wait'

(a shell and a background grandchild in the shell's process group), or
with DAEMON=1

    sh -c 'setsid sleep 1000 & echo "$$ $!" >> PIDS; wait'

(the grandchild leaves the group and the session: a daemon). The
driver writes the watched file, waits until the next run has written its
line, and repeats RESTARTS times (closed loop: every change is one restart).
Contenders: each rwatch binary given (`rwatch -r -d 0 -w DIR -- sh -c …`,
LABEL=PATH to name it) and, when installed, `entr -n -r` (apt: entr) and
a shell loop around `inotifywait` (apt: inotify-tools) that kills the
command and starts it anew, as peers, in one run, one after the other.

Reported per contender:
  - restarts/s: restarts divided by the wall time of the loop;
  - missed: writes after which no new run came within 10 s (a contender
    that misses 5 in a row, or is still going after LIMIT seconds (default
    300), is given up on, and its row says after how many writes);
  - orphans: processes of earlier runs (shell or grandchild) still running
    when the loop ends, while the tool still runs (each should be gone before
    the next run starts);
  - zombies left: processes of earlier runs in state Z whose parent is the
    tool, when the loop ends (a reaping leak);
  - zombies (max): the most processes in state Z whose parent is the tool,
    sampled every 50 restarts (rwatch keeps a run's leader unreaped until its
    whole group is gone, so 1 is expected there);
  - left after exit: processes of any run still running after the tool
    exited on SIGINT.
Leftovers are killed (by pid) after counting. The load average is printed
with the table, since the machine is shared.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

RESTARTS = int(os.environ.get("RESTARTS", "1000"))
DAEMON = os.environ.get("DAEMON") == "1"
SCRIPT = ('setsid ' if DAEMON else '') + 'sleep 1000 & echo "$$ $!" >> "$0"; wait'
WAIT = 10.0
LIMIT = float(os.environ.get("LIMIT", "300"))


def stat(pid):
    """(state, ppid) of pid, or None when it does not exist."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read()
    except OSError:
        return None
    fields = text[text.rindex(b")") + 2:].split()
    return fields[0].decode(), int(fields[1])


def zombies_of(parent):
    count = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            info = stat(int(name))
            if info and info[0] == "Z" and info[1] == parent:
                count += 1
    return count


def read_runs(path):
    try:
        with open(path) as handle:
            lines = handle.read().split("\n")
    except FileNotFoundError:
        return []
    return [tuple(int(p) for p in line.split()) for line in lines[:-1] if line.strip()]


def wait_runs(path, count):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if len(read_runs(path)) >= count:
            return True
        time.sleep(0.0005)
    return False


def running(pid):
    info = stat(pid)
    return info is not None and info[0] not in ("Z", "X")


def storm(label, command_for):
    work = tempfile.mkdtemp(prefix="rwatch-storm-")
    watched = os.path.join(work, "watched")
    os.mkdir(watched)
    target = os.path.join(watched, "file")
    with open(target, "w") as handle:
        handle.write("0\n")
    pids = os.path.join(work, "pids")
    tool = subprocess.Popen(command_for(watched, target, pids), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    result = {"label": label}
    try:
        if not wait_runs(pids, 1):
            # The watch may need a moment: nudge until the first run comes.
            for attempt in range(50):
                with open(target, "w") as handle:
                    handle.write(f"nudge {attempt}\n")
                if wait_runs(pids, 1):
                    break
        base = len(read_runs(pids))
        missed = 0
        in_a_row = 0
        worst_zombies = 0
        start = time.perf_counter()
        for index in range(1, RESTARTS + 1):
            with open(target, "w") as handle:
                handle.write(f"{index}\n")
            if wait_runs(pids, base + index - missed):
                in_a_row = 0
            else:
                missed += 1
                in_a_row += 1
                if in_a_row == 5:
                    result["gave_up"] = index
                    break
            if time.perf_counter() - start > LIMIT:
                result["gave_up"] = index
                break
            if index % 50 == 0:
                worst_zombies = max(worst_zombies, zombies_of(tool.pid))
        elapsed = time.perf_counter() - start
        # Let the last restart settle: every run but the newest must be gone.
        time.sleep(0.5)
        runs = read_runs(pids)
        worst_zombies = max(worst_zombies, zombies_of(tool.pid))
        earlier = [pid for run in runs[:-1] for pid in run]
        result.update(
            runs=len(runs) - base,
            rate=(len(runs) - base) / elapsed,
            missed=missed,
            orphans=sum(1 for pid in earlier if running(pid)),
            leaked=sum(1 for pid in earlier if (stat(pid) or ("", 0)) == ("Z", tool.pid)),
            zombies=worst_zombies,
        )
    finally:
        tool.send_signal(signal.SIGINT)
        try:
            tool.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(tool.pid, signal.SIGKILL)
            tool.wait()
        time.sleep(0.2)
        every = [pid for run in read_runs(pids) for pid in run]
        left = [pid for pid in every if running(pid)]
        result["left"] = len(left)
        result["status"] = tool.returncode
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for name in os.listdir(watched):
            os.unlink(os.path.join(watched, name))
        os.rmdir(watched)
        if os.path.exists(pids):
            os.unlink(pids)
        os.rmdir(work)
    return result


def rwatch(binary):
    return lambda watched, target, pids: [binary, "-r", "-d", "0", "-w", watched, "--", "sh", "-c", SCRIPT, pids]


def entr(watched, target, pids):
    return ["sh", "-c", 'echo "$0" | exec entr -n -r sh -c "$1" "$2"', target, SCRIPT, pids]


# The loop users write: wait for a write, kill the command, start it again.
LOOP = ('run() { sh -c "$1" "$2" & command=$!; }; run "$1" "$2"; '
        'while inotifywait -qq -e close_write "$0"; do kill "$command"; wait "$command"; run "$1" "$2"; done')


def inotifywait_loop(watched, target, pids):
    return ["sh", "-c", LOOP, target, SCRIPT, pids]


def main():
    contenders = []
    for argument in sys.argv[1:]:
        label, _, path = argument.rpartition("=")
        contenders.append((label or f"rwatch ({path})", rwatch(os.path.abspath(path))))
    if not contenders:
        sys.exit(__doc__)
    if subprocess.run(["sh", "-c", "command -v entr"], stdout=subprocess.DEVNULL).returncode == 0:
        contenders.append(("entr -n -r 5.x", entr))
    if subprocess.run(["sh", "-c", "command -v inotifywait"], stdout=subprocess.DEVNULL).returncode == 0:
        contenders.append(("inotifywait loop", inotifywait_loop))
    load = os.getloadavg()[0]
    rows = [storm(label, command) for label, command in contenders]
    print(f"{RESTARTS} restarts each of {SCRIPT!r}; machine: {os.cpu_count()} cores, load {load:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after\n")
    print("| contender | runs | restarts/s | missed | orphans during | zombies left | zombies (max) | left after exit | exit status |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        label = row["label"] + (f" (given up after {row['gave_up']} writes)" if "gave_up" in row else "")
        print(f"| {label} | {row.get('runs', '-')} | {row.get('rate', 0):.1f} | {row.get('missed', '-')} | "
              f"{row.get('orphans', '-')} | {row.get('leaked', '-')} | {row.get('zombies', '-')} | {row['left']} | {row['status']} |")


if __name__ == "__main__":
    main()
