#!/usr/bin/env python3
"""User-space instructions a file-events probe spends per event, counted by
callgrind (repeatable whatever else the machine is doing): CHUNKS x PER
empty files created (open + close: `created` and `closedWrite`) in the
watched directory, a pause after each chunk so the probe keeps up, minus
the same run with no files (start-up). One line per probe given.

    swift build -c release --package-path Benchmarks/files
    python3 Benchmarks/files/callgrind_events.py 20 200 Benchmarks/files/.build/release/files-probe [OTHER-PROBE…]
"""
import os, sys, time, tempfile, shutil, subprocess, re
def run(probe, chunks, per):
    root = tempfile.mkdtemp(prefix="cg-flat-")
    out = tempfile.mkdtemp(prefix="cg-out-")
    err = tempfile.TemporaryFile()
    p = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.%p", probe, root],
                         stdout=subprocess.DEVNULL, stderr=err)
    while True:
        err.seek(0)
        if b"ARMED" in err.read(): break
        time.sleep(0.05)
    time.sleep(0.5)
    for c in range(chunks):
        for f in range(per):
            open(os.path.join(root, f"file-{c}-{f}.txt"), "w").close()
        time.sleep(0.3)
    time.sleep(2)
    p.terminate(); p.wait()
    err.seek(0); text = err.read().decode(errors="replace")
    shutil.rmtree(root); shutil.rmtree(out)
    return int(re.findall(r"Collected : (\d+)", text)[-1])
probes = sys.argv[3:]
chunks, per = int(sys.argv[1]), int(sys.argv[2])
for p in probes:
    base = run(p, 0, 0)
    total = run(p, chunks, per)
    print(p, "per event:", round((total - base) / (2 * chunks * per)), "total", total, "base", base, flush=True)
