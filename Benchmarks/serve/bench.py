#!/usr/bin/env python3
"""rwatch serve beside Debian's watchman, in one run (issue 24).

On a tree of 100,000 files in 10,100 directories, for each server (each
run a fresh process, the two taking turns):

  crawl      watch-project, then the first clock with sync_timeout
             answered (the initial crawl), seconds
  rss        the server's peak RSS (VmHWM) right after that, MB
  since/1    query with since after one file changed, p50 ms (after as
             many warm-up rounds, not counted)
  since/1 first byte
             the same on a plain socket, timed from sending the request to
             the first byte of the answer: the server's own time, without
             pywatchman's, which is the same for both and most of a small
             query's
  since/10k  query with since after 10,000 files changed, p50 ms
             (both servers running side by side on the same tree, their
             rounds alternating, so that outside load falls on both)

Then git status on a 100,000-file repository (core.untrackedCache on):
without fsmonitor, and with git's fsmonitor-watchman hook talking to
watchman and to rwatch serve (through the watchman CLI, pointed at each
socket by a wrapper on PATH), one tracked file touched before each run,
p50 ms; and git's floor: a shell hook that names the touched file at
once (what git itself costs with an instant, exact answer: reading and
writing its index). Each of the four has a copy of the repository of its
own, and they take turns, round by round.

    python3 Benchmarks/serve/bench.py --rwatch .build/release/rwatch
    python3 Benchmarks/serve/bench.py --rwatch … --runs 3 --skip-git

Needs pywatchman (make deps puts it in .build-pyclients), Debian's
watchman, git and perl.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import pywatchman

HERE = os.path.dirname(os.path.abspath(__file__))
HOOK = "/usr/share/git-core/templates/hooks/fsmonitor-watchman.sample"


def make_tree(root, top=100, sub=100, per_dir=10):
    for a in range(top):
        for b in range(sub):
            directory = os.path.join(root, f"t{a}", f"s{b}")
            os.makedirs(directory)
            for f in range(per_dir):
                with open(os.path.join(directory, f"f{f}"), "w") as out:
                    out.write("x")
    # The tree's writes reach the disk now, not in the middle of a timing.
    os.sync()


class Server:
    """One server process on a private socket."""

    def __init__(self, kind, binary, work):
        self.kind = kind
        self.work = tempfile.mkdtemp(prefix=kind + "-", dir=work)
        self.sock = os.path.join(self.work, "sock")
        log = os.path.join(self.work, "log")
        env = dict(os.environ)
        config = os.path.join(self.work, "config.json")
        with open(config, "w") as out:
            out.write("{}")
        env["WATCHMAN_CONFIG_FILE"] = config
        if kind == "rwatch":
            argv = [binary, "serve", "--sockname", self.sock, "--logfile", log]
        else:
            argv = [binary, "--foreground", "--sockname=" + self.sock, "--logfile=" + log,
                    "--statefile=" + os.path.join(self.work, "state"), "--no-save-state",
                    "--pidfile=" + os.path.join(self.work, "pid")]
        self.process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                self.client().query("get-pid")
                return
            except (pywatchman.SocketConnectError, pywatchman.SocketTimeout):
                time.sleep(0.05)
        raise SystemExit(f"{kind} did not start")

    def client(self):
        return pywatchman.client(sockpath=self.sock, timeout=600)

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.work, ignore_errors=True)


def crawl(kind, binary, tree, work):
    """One fresh server: watch-project to the first synced clock, then its peak RSS."""
    server = Server(kind, binary, work)
    try:
        client = server.client()
        start = time.perf_counter()
        root = client.query("watch-project", tree)["watch"]
        client.query("clock", root, {"sync_timeout": 600000})
        seconds = time.perf_counter() - start
        rss = server.peak_rss_mb()
        client.close()
        return {"crawl": seconds, "rss": rss}
    finally:
        server.stop()


def queries(servers, tree, changes):
    """Both servers watch the tree; rounds alternate between them (in a
    shuffled order each round), so that load from elsewhere falls on both
    alike. One round: touch files, then time the query since the server's
    last clock. p50 ms per server, for 1 and for 10,000 files changed."""
    import random
    names = [os.path.join(tree, f"t{a}", f"s{b}", "f0") for a in range(100) for b in range(100)]
    clients, roots, clocks = {}, {}, {}
    for kind, server in servers.items():
        clients[kind] = server.client()
        roots[kind] = clients[kind].query("watch-project", tree)["watch"]
        clocks[kind] = clients[kind].query("clock", roots[kind], {"sync_timeout": 600000})["clock"]
    times = {kind: {"since1": [], "since10k": []} for kind in servers}
    # Warm-up rounds, not counted: both servers have just crawled, and what
    # each still does after its crawl (freeing, trimming) would fall on the
    # first rounds of both.
    for round in range(changes):
        for kind in servers:
            os.utime(names[-1 - round % len(names)])
            clocks[kind] = clients[kind].query("query", roots[kind], {"since": clocks[kind], "fields": ["name"]})["clock"]
    for label, rounds, touched in (("since1", changes, 1), ("since10k", max(3, changes // 10), len(names))):
        for round in range(rounds):
            order = list(servers)
            random.shuffle(order)
            for kind in order:
                for name in (names[round % len(names):round % len(names) + 1] if touched == 1 else names):
                    os.utime(name)
                start = time.perf_counter()
                result = clients[kind].query("query", roots[kind], {"since": clocks[kind], "fields": ["name"]})
                times[kind][label].append(time.perf_counter() - start)
                assert len(result["files"]) >= touched, (kind, len(result["files"]))
                clocks[kind] = result["clock"]
    for client in clients.values():
        client.close()
    return {kind: {label: statistics.median(values) * 1000 for label, values in per.items()} for kind, per in times.items()}


def raw_query(sock, request):
    """Sends `request` (BSER v1) on a plain socket and returns (seconds to
    the first byte of the answer, the answer): the server's own latency,
    without pywatchman's encoding and decoding, which cost both servers
    alike and dominate a small answer."""
    import select
    from pywatchman import bser
    data = bser.dumps(request)
    start = time.perf_counter()
    sock.sendall(data)
    select.select([sock], [], [])
    first = time.perf_counter() - start
    buffer = b""
    while True:
        buffer += sock.recv(1 << 20)
        try:
            need = bser.pdu_len(buffer)
        except ValueError:
            continue
        if len(buffer) >= need:
            break
    answer = bser.loads(buffer[:need])
    if isinstance(answer, dict):
        answer = {(key.decode() if isinstance(key, bytes) else key): value for key, value in answer.items()}
    return first, answer


def first_byte_queries(servers, tree, rounds):
    """query since after one file changed, timed to the first byte of the
    answer on a plain socket; both servers in alternating rounds. p50 ms."""
    import random
    import socket
    names = [os.path.join(tree, f"t{a}", f"s{b}", "f1") for a in range(100) for b in range(100)]
    sockets, roots, clocks = {}, {}, {}
    for kind, server in servers.items():
        client = server.client()
        roots[kind] = client.query("watch-project", tree)["watch"]
        clocks[kind] = client.query("clock", roots[kind], {"sync_timeout": 600000})["clock"]
        client.close()
        sockets[kind] = socket.socket(socket.AF_UNIX)
        sockets[kind].connect(server.sock)
    times = {kind: [] for kind in servers}
    for round in range(rounds):
        order = list(servers)
        random.shuffle(order)
        for kind in order:
            os.utime(names[round % len(names)])
            first, answer = raw_query(sockets[kind], ["query", roots[kind], {"since": clocks[kind], "fields": ["name"]}])
            times[kind].append(first)
            clocks[kind] = answer["clock"]
    for sock in sockets.values():
        sock.close()
    return {kind: {"since1first": statistics.median(values) * 1000} for kind, values in times.items()}


def git(repo, *args, env=None):
    return subprocess.run(["git", "-C", repo, *args], check=True, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def make_repository(repo):
    make_tree(repo)
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")
    git(repo, "init", "-q", env=env)
    git(repo, "config", "core.untrackedCache", "true", env=env)
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "-q", "-m", "tree", env=env)
    shutil.copy(HOOK, os.path.join(repo, ".git", "hooks", "query-watchman"))


def git_setups(repo, servers, work):
    """The four ways to run git status, each on a copy of `repo` of its own
    (its index holds its own fsmonitor token, which another way's run would
    replace, making the next answer a fresh one): name -> (repo, argv, env,
    before), `before(name)` called with the touched file before each run."""
    setups = {}
    for kind in ("plain", "watchman", "rwatch", "floor"):
        copy = os.path.join(work, "repo-" + kind)
        subprocess.run(["cp", "-a", repo, copy], check=True)
        env = dict(os.environ)
        fsmonitor = "false"
        before = lambda name: None
        if kind == "floor":
            # Names the touched file at once: no server, no perl.
            touched = os.path.join(work, "touched")
            hook = os.path.join(work, "instant-hook")
            with open(hook, "w") as out:
                out.write(f'#!/bin/sh\nprintf "t%s\\0%s\\0" "$$" "$(cat {touched})"\n')
            os.chmod(hook, 0o755)
            fsmonitor = hook
            with open(touched, "w") as out:
                out.write("t0/s0/f0")

            def before(name, touched=touched):
                with open(touched, "w") as out:
                    out.write(name)
        elif kind in servers:
            wrapper = tempfile.mkdtemp(prefix="bin-", dir=work)
            with open(os.path.join(wrapper, "watchman"), "w") as out:
                out.write(f'#!/bin/sh\nexec /usr/bin/watchman --no-spawn --no-local -U "{servers[kind].sock}" "$@"\n')
            os.chmod(os.path.join(wrapper, "watchman"), 0o755)
            env["PATH"] = wrapper + ":" + env["PATH"]
            fsmonitor = ".git/hooks/query-watchman"
        argv = ["git", "-C", copy, "-c", "core.fsmonitor=" + fsmonitor, "status", "--porcelain"]
        setups[kind] = (copy, argv, env, before)
    return setups


def git_status(setups, runs):
    """p50 ms of git status for each setup, one tracked file touched before
    each run; the setups take turns in a shuffled order each round, so that
    the host's load falls on all alike."""
    import random
    for copy, argv, env, before in setups.values():
        for _ in range(3):  # the watch, the first full answer, the index written with the token
            subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    times = {kind: [] for kind in setups}
    for round in range(runs):
        order = list(setups)
        random.shuffle(order)
        for kind in order:
            copy, argv, env, before = setups[kind]
            name = f"t{round % 100}/s0/f0"
            os.utime(os.path.join(copy, name))
            before(name)
            start = time.perf_counter()
            subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
            times[kind].append(time.perf_counter() - start)
    return {kind: statistics.median(values) * 1000 for kind, values in times.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rwatch", required=True)
    parser.add_argument("--watchman", default="/usr/bin/watchman")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--skip-git", action="store_true")
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="serve-bench-")
    try:
        tree = os.path.join(work, "tree")
        make_tree(tree)
        rows = {"rwatch": [], "watchman": []}
        for _ in range(options.runs):
            for kind, binary in (("watchman", options.watchman), ("rwatch", options.rwatch)):
                rows[kind].append(crawl(kind, binary, tree, work))
        result = {kind: {key: statistics.median(run[key] for run in runs) for key in runs[0]} for kind, runs in rows.items()}
        servers = {kind: Server(kind, binary, work) for kind, binary in (("watchman", options.watchman), ("rwatch", options.rwatch))}
        try:
            for kind, measured in queries(servers, tree, options.changes).items():
                result[kind].update(measured)
            for kind, measured in first_byte_queries(servers, tree, options.changes).items():
                result[kind].update(measured)
        finally:
            for server in servers.values():
                server.stop()
        if not options.skip_git:
            repo = os.path.join(work, "repo")
            make_repository(repo)
            os.sync()
            servers = {kind: Server(kind, binary, work) for kind, binary in (("watchman", options.watchman), ("rwatch", options.rwatch))}
            try:
                setups = git_setups(repo, servers, work)
                os.sync()
                result["git"] = git_status(setups, 40)
            finally:
                for server in servers.values():
                    server.stop()
        report(result)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(result):
    rw, wm = result["rwatch"], result["watchman"]
    print("| measure | rwatch serve | watchman 4.9 | rwatch / watchman |")
    print("|---|---:|---:|---:|")
    for key, label, unit in (("crawl", "watch-project → first synced clock (crawl)", "s"), ("rss", "peak RSS after the crawl", "MB"),
                             ("since1", "query since, 1 file changed (p50)", "ms"),
                             ("since1first", "the same, to the answer's first byte on a plain socket (p50)", "ms"),
                             ("since10k", "query since, 10,000 files changed (p50)", "ms")):
        print(f"| {label} | {rw[key]:.3g} {unit} | {wm[key]:.3g} {unit} | {rw[key] / wm[key]:.2f}x |")
    if "git" in result:
        g = result["git"]
        print()
        print("| git status, 100,000-file repository (p50) | ms | vs without | vs hook → watchman |")
        print("|---|---:|---:|---:|")
        print(f"| without fsmonitor | {g['plain']:.1f} | 1.00x | |")
        print(f"| hook → watchman | {g['watchman']:.1f} | {g['watchman'] / g['plain']:.2f}x | 1.00x |")
        print(f"| hook → rwatch serve | {g['rwatch']:.1f} | {g['rwatch'] / g['plain']:.2f}x | {g['rwatch'] / g['watchman']:.2f}x |")
        print(f"| git's floor: a shell hook naming the touched file at once | {g['floor']:.1f} | {g['floor'] / g['plain']:.2f}x | |")
    print()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
