#!/usr/bin/env python3
"""Socket hand-over: connections refused while a server restarts, side by side.

    Benchmarks/sockets/bench.py BINARY [BINARY...]      # 100 restarts each
    RESTARTS=300 Benchmarks/sockets/bench.py after=.build/release/rwatch

A small HTTP-less server answers each connection with its pid. The driver
writes a watched file, waits until the next server has started (it records
its pid), and repeats RESTARTS times, while a client thread connects in a
closed loop the whole time. Contenders, one after the other in one run:

  - rwatch --socket: `rwatch -r -d 0 --socket 127.0.0.1:PORT -- server fd`,
    the server takes fd 3 (checking LISTEN_PID and LISTEN_FDS);
  - rwatch: `rwatch -r -d 0 -- server bind PORT`, the server binds the port
    itself (SO_REUSEADDR), as every watcher's restarted server does;
  - entr -r (apt: entr), the server binding itself, when installed.

Reported per contender: connections tried, answered, refused (ECONNREFUSED:
nobody listened), cut (accepted by a server that was stopped before it
answered), and restarts per second. The load average is printed with the
table, since the machine is shared.
"""
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

RESTARTS = int(os.environ.get("RESTARTS", "100"))
WAIT = 10.0

SERVER = r'''
import os, socket, sys
mode = sys.argv[2]
if mode == "fd":
    assert os.environ["LISTEN_PID"] == str(os.getpid()) and os.environ["LISTEN_FDS"] == "1"
    listener = socket.socket(fileno=3)
else:
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(sys.argv[3])))
    listener.listen(128)
with open(sys.argv[1], "a") as pids:
    pids.write("%d\n" % os.getpid())
while True:
    connection, _ = listener.accept()
    connection.sendall(b"%d\n" % os.getpid())
    connection.close()
'''


def free_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def count_lines(path):
    try:
        with open(path) as handle:
            return handle.read().count("\n")
    except FileNotFoundError:
        return 0


def wait_for(path, count):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if count_lines(path) >= count:
            return True
        time.sleep(0.0005)
    return False


class Client(threading.Thread):
    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.stop = False
        self.tried = self.answered = self.refused = self.cut = 0

    def run(self):
        while not self.stop:
            self.tried += 1
            connection = socket.socket()
            connection.settimeout(WAIT)
            try:
                connection.connect(("127.0.0.1", self.port))
                if connection.recv(32):
                    self.answered += 1
                else:
                    self.cut += 1
            except ConnectionRefusedError:
                self.refused += 1
            except OSError:
                self.cut += 1
            finally:
                connection.close()


def trial(label, command_for):
    work = tempfile.mkdtemp(prefix="rwatch-sockets-")
    watched = os.path.join(work, "watched")
    os.mkdir(watched)
    target = os.path.join(watched, "file")
    with open(target, "w") as handle:
        handle.write("0\n")
    server = os.path.join(work, "server.py")
    with open(server, "w") as handle:
        handle.write(SERVER)
    pids = os.path.join(work, "pids")
    port = free_port()
    tool = subprocess.Popen(command_for(watched, target, server, pids, port), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    row = {"label": label}
    try:
        if not wait_for(pids, 1):
            row["error"] = "no server started"
            return row
        client = Client(port)
        client.start()
        start = time.perf_counter()
        done = 0
        for index in range(1, RESTARTS + 1):
            with open(target, "w") as handle:
                handle.write(f"{index}\n")
            if not wait_for(pids, index + 1):
                break
            done = index
        elapsed = time.perf_counter() - start
        client.stop = True
        client.join()
        row.update(restarts=done, rate=done / elapsed, tried=client.tried, answered=client.answered,
                   refused=client.refused, cut=client.cut)
    finally:
        tool.send_signal(2)
        try:
            tool.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(tool.pid, 9)
            tool.wait()
        subprocess.run(["rm", "-rf", work])
    return row


def rwatch_socket(binary):
    return lambda watched, target, server, pids, port: [
        binary, "-r", "-d", "0", "-w", watched, "--socket", f"127.0.0.1:{port}", "--", sys.executable, server, pids, "fd"]


def rwatch_bind(binary):
    return lambda watched, target, server, pids, port: [
        binary, "-r", "-d", "0", "-w", watched, "--", sys.executable, server, pids, "bind", str(port)]


def entr(watched, target, server, pids, port):
    return ["sh", "-c", 'echo "$0" | exec entr -n -r "$@"', target, sys.executable, server, pids, "bind", str(port)]


def main():
    contenders = []
    for argument in sys.argv[1:]:
        label, _, path = argument.rpartition("=")
        path = os.path.abspath(path)
        name = label or "rwatch"
        contenders.append((f"{name} --socket", rwatch_socket(path)))
        contenders.append((f"{name} (server binds)", rwatch_bind(path)))
    if not contenders:
        sys.exit(__doc__)
    if subprocess.run(["sh", "-c", "command -v entr"], stdout=subprocess.DEVNULL).returncode == 0:
        contenders.append(("entr -n -r (server binds)", entr))
    load = os.getloadavg()[0]
    rows = [trial(label, command) for label, command in contenders]
    print(f"{RESTARTS} restarts each; machine: {os.cpu_count()} cores, load {load:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after\n")
    print("| contender | restarts | restarts/s | connections | answered | refused | cut |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        if "error" in row:
            print(f"| {row['label']} | {row['error']} | | | | | |")
            continue
        print(f"| {row['label']} | {row['restarts']} | {row['rate']:.1f} | {row['tried']} | {row['answered']} | "
              f"{row['refused']} | {row['cut']} |")


if __name__ == "__main__":
    main()
