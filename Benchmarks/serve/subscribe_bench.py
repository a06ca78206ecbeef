#!/usr/bin/env python3
"""Subscriptions of rwatch serve beside Debian's watchman, in one run (issue 25).

For each server (a fresh process each, on a tree of 1,000 files), with 1
and with 100 subscribers (pywatchman clients, BSER, one connection each,
all subscribed to the root with fields ["name"]):

  p50, p99   from a file's write (its close) to each subscriber reading the
             subscription PDU that lists it, ms, over every (round,
             subscriber); a PDU counts when its first byte is readable
             (then it is read whole), so the client's decoding does not
             add to the next subscriber's time
  rss        the server's VmRSS after the rounds, MB

With --big, the tree is bench.py's 100,000 files in 10,100 directories
(subscriptions then ask for an empty first result).

With --slow, a further client subscribes and never reads: the latency of
the others with it present (rwatch cuts it off at its queue bound).

    .build-pyclients/bin/python Benchmarks/serve/subscribe_bench.py --rwatch .build/release/rwatch
"""

import argparse
import os
import selectors
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import Server, make_tree  # noqa: E402

import pywatchman  # noqa: E402


def make_small_tree(root, directories=10, per_dir=100):
    for d in range(directories):
        os.makedirs(os.path.join(root, f"d{d}"))
        for f in range(per_dir):
            with open(os.path.join(root, f"d{d}", f"f{f}"), "w") as out:
                out.write("x")


def names(pdu):
    return pdu.get("files") or []


def measure(server, tree, subscribers, rounds, slow, big=False):
    clients = [server.client() for _ in range(subscribers)]
    root = clients[0].query("watch-project", tree)["watch"]
    clients[0].query("clock", root, {"sync_timeout": 60000})
    # On the big tree the first result would list 100,000 names to each subscriber.
    spec = {"fields": ["name"], "empty_on_fresh_instance": True} if big else {"fields": ["name"]}
    for client in clients:
        client.query("subscribe", root, "s", spec)
        # An empty first result may not be sent at all (watchman 4.9): the rounds drain whatever comes.
        while not big and not client.getSubscription("s"):
            client.receive()
    lazy = None
    if slow:
        lazy = server.client()
        lazy.query("subscribe", root, "lazy", {"fields": ["name"]})
    selector = selectors.DefaultSelector()
    for index, client in enumerate(clients):
        selector.register(client.recvConn.transport.sock, selectors.EVENT_READ, index)
    samples = []
    for round in range(rounds):
        name = f"new{round}"
        with open(os.path.join(tree, name), "w") as out:
            out.write("y")
        written = time.perf_counter()
        waiting = set(range(subscribers))
        deadline = written + 30
        while waiting and time.perf_counter() < deadline:
            for key, _ in selector.select(timeout=1):
                index = key.data
                if index not in waiting:
                    client = clients[index]
                    client.receive()
                    client.getSubscription("s")
                    continue
                arrived = time.perf_counter()
                client = clients[index]
                client.receive()
                pdus = client.getSubscription("s") or []
                if any(name in names(pdu) for pdu in pdus):
                    samples.append(arrived - written)
                    waiting.discard(index)
        if waiting:
            raise SystemExit(f"{server.kind}: {len(waiting)} subscribers never got {name}")
        time.sleep(0.05)  # the next write is a change of its own, not part of this settle
    with open(f"/proc/{server.process.pid}/status") as status:
        rss = next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:"))
    for client in clients:
        client.close()
    if lazy:
        lazy.close()
    samples.sort()
    return {"p50": statistics.median(samples) * 1000, "p99": samples[int(len(samples) * 0.99) - 1] * 1000, "rss": rss}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rwatch", required=True)
    parser.add_argument("--watchman", default="/usr/bin/watchman")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--slow", action="store_true")
    parser.add_argument("--big", action="store_true", help="the 100,000-file tree of bench.py instead of 1,000 files")
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="subscribe-bench-")
    try:
        print(f"{'server':10} {'subscribers':>11} {'p50 ms':>8} {'p99 ms':>8} {'RSS MB':>8}")
        for subscribers in (1, 100):
            for kind, binary in (("watchman", options.watchman), ("rwatch", options.rwatch)):
                tree = tempfile.mkdtemp(prefix="tree-", dir=work)
                shutil.rmtree(tree)
                (make_tree if options.big else make_small_tree)(tree)
                server = Server(kind, binary, work)
                try:
                    row = measure(server, tree, subscribers, options.rounds, options.slow, options.big)
                finally:
                    server.stop()
                    shutil.rmtree(tree, ignore_errors=True)
                print(f"{kind:10} {subscribers:>11} {row['p50']:8.1f} {row['p99']:8.1f} {row['rss']:8.1f}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
