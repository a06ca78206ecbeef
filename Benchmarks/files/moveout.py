#!/usr/bin/env python3
"""What waiting for a rename's other half costs (issue 15): the time from a
rename(2) to the report of it, for a move out of the watched tree (rwatch
waits up to 100 ms for an IN_MOVED_TO that never comes), a move within it
(the halves arrive together: no wait) and an in-place append, with
`rwatch events` and `inotifywait -m -r` watching the same directory in one
run.

    swift build -c release --product rwatch
    python3 Benchmarks/files/moveout.py .build/release/rwatch [--moves 50]

Needs inotifywait (Debian: inotify-tools).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

MOVES = int(sys.argv[sys.argv.index("--moves") + 1]) if "--moves" in sys.argv else 50


class Peer:
    """A watcher printing KIND PATH lines; when each line first came."""

    def __init__(self, command):
        self.seen = {}
        self.lock = threading.Condition()
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            with self.lock:
                self.seen.setdefault(raw.decode(errors="replace").strip(), time.perf_counter())
                self.lock.notify_all()

    def wait(self, line, timeout=5.0):
        end = time.perf_counter() + timeout
        with self.lock:
            while line not in self.seen:
                left = end - time.perf_counter()
                if left <= 0 or not self.lock.wait(left):
                    return None
            return self.seen[line]


def main():
    rwatch = sys.argv[1]
    base = tempfile.mkdtemp(prefix="rwatch-moveout-")
    watched, outside = os.path.join(base, "w"), os.path.join(base, "out")
    os.makedirs(watched)
    os.makedirs(outside)
    # What each peer prints for a move out, a move within, an append.
    kinds = {
        "rwatch": ("movedFrom {}", "movedTo {}", "modified {}"),
        "inotifywait": ("MOVED_FROM {}", "MOVED_TO {}", "MODIFY {}"),
    }
    peers = {
        "rwatch": Peer([rwatch, "events", watched]),
        "inotifywait": Peer(["inotifywait", "-q", "-m", "-r", "-e", "moved_from,moved_to,modify",
                             "--format", "%e %w%f", watched]),
    }
    try:
        for attempt in range(200):
            probe = os.path.join(watched, f"armed{attempt}")
            with open(probe, "a") as handle:
                handle.write("x")
            if all(peer.wait(kinds[name][2].format(probe), 0.2) for name, peer in peers.items()):
                break
        samples = {name: {"move out": [], "move within": [], "append": []} for name in peers}
        for index in range(MOVES):
            leaving, staying = os.path.join(watched, f"f{index}"), os.path.join(watched, f"g{index}")
            for path in (leaving, staying):
                with open(path, "w") as handle:
                    handle.write("x")
            time.sleep(0.05)
            steps = [
                ("move out", lambda: os.rename(leaving, os.path.join(outside, f"f{index}")), 0, leaving),
                ("move within", lambda: os.rename(staying, staying + ".new"), 1, staying + ".new"),
                ("append", lambda: open(staying + ".new", "a").write("y"), 2, staying + ".new"),
            ]
            for label, act, kind, path in steps:
                start = time.perf_counter()
                act()
                for name, peer in peers.items():
                    seen = peer.wait(kinds[name][kind].format(path))
                    samples[name][label].append(float("inf") if seen is None else (seen - start) * 1000)
                time.sleep(0.05)
        print(f"{MOVES} of each, load {os.getloadavg()[0]:.1f}")
        print("| peer | move out p50 / max ms | move within p50 / max ms | append p50 / max ms |")
        print("| --- | ---: | ---: | ---: |")
        for name in peers:
            cells = []
            for label in ("move out", "move within", "append"):
                ordered = sorted(samples[name][label])
                cells.append(f"{statistics.median(ordered):.2f} / {ordered[-1]:.2f}")
            print(f"| {name} | " + " | ".join(cells) + " |")
    finally:
        for peer in peers.values():
            peer.process.terminate()
            peer.process.wait()
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
