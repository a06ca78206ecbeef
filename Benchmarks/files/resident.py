#!/usr/bin/env python3
"""Which parts of a running binary are resident (issue 17's footprint
profile): reads /proc/PID/maps and /proc/PID/pagemap (root needed) and
attributes each resident page of the executable's own mappings to the
Swift module whose symbol starts nearest below it (`nm -n`).

    make release
    .build/release/rwatch events /tmp/empty > /dev/null &
    python3 Benchmarks/files/resident.py $!
"""
import bisect, collections, os, struct, subprocess, sys
pid = int(sys.argv[1]); binary = os.readlink(f"/proc/{pid}/exe")
syms = []
out = subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True, text=True).stdout
for line in out.splitlines():
    parts = line.split()
    if len(parts) == 3:
        syms.append((int(parts[0], 16), parts[2]))
addrs = [a for a, _ in syms]
def module(name):
    if name.startswith("$s") or name.startswith("_$s"):
        n = name.lstrip("_")[2:]
        digits = ""
        for ch in n:
            if ch.isdigit(): digits += ch
            else: break
        if digits:
            return n[len(digits):len(digits) + int(digits)]
        return "Swift (stdlib)"
    if name.startswith("swift_") or name.startswith("_swift") or name.startswith("_ZN5swift"): return "Swift runtime (C++)"
    if name.startswith("_Z"): return "C++ other"
    return "C/other"
maps = open(f"/proc/{pid}/maps").read().splitlines()
base = None
pm = open(f"/proc/{pid}/pagemap", "rb")
counts = collections.Counter(); total = collections.Counter()
for m in maps:
    f = m.split()
    if len(f) < 6 or f[5] != binary: continue
    lo, hi = (int(x, 16) for x in f[0].split("-")); off = int(f[2], 16)
    if base is None: base = lo - off
    for page in range(lo, hi, 4096):
        pm.seek(page // 4096 * 8); entry = struct.unpack("Q", pm.read(8))[0]
        total[f[1]] += 1
        if entry >> 63 & 1:
            i = bisect.bisect_right(addrs, page - base) - 1
            counts[(f[1], module(syms[i][1]) if i >= 0 else "?")] += 4
for perm in sorted(total):
    rows = [(k[1], v) for k, v in counts.items() if k[0] == perm]
    print(f"{perm}: {sum(v for _, v in rows)} KB resident of {total[perm]*4} KB")
    for name, kb in sorted(rows, key=lambda r: -r[1])[:12]:
        print(f"   {kb:6d} KB  {name}")
