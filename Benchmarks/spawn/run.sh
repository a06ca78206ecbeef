#!/usr/bin/env bash
# One spawn of /bin/true, six ways interleaved (clone3.c says which):
# rwatch's clone3 spawn against the simpler one without CLONE_VM, one into a
# cgroup made for it, into its own cgroup, and posix_spawn.
#
#   Benchmarks/spawn/run.sh                  # 2,000 rounds, parent heap 2 MB
#   ROUNDS=500 HEAP_MB=32 Benchmarks/spawn/run.sh
#   ROUNDS=100 GAP_MS=150 Benchmarks/spawn/run.sh   # idle between spawns, as a watch's runs
#
# Needs clang (the shim's header has clang's nullability marks; Swift's
# toolchain has one) and a cgroup v2 directory below this shell's own that
# it may make (root, or a delegated one: what rwatch itself needs for a
# cgroup per run).
set -euo pipefail
cd "$(dirname "$0")"
mount=$(awk '$3 == "cgroup2" { print $2 }' /proc/self/mounts | tail -n 1)
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
[ -n "$mount" ] && [ -n "$own" ] || { echo "no cgroup v2 here" >&2; exit 1; }
directory="${mount}${own%/}/spawn-bench-$$"
mkdir "$directory"
binary=$(mktemp /tmp/spawn-bench.XXXXXX)
trap 'rmdir "$directory"/* "$directory" 2>/dev/null; rm -f "$binary"; true' EXIT
"${CC:-clang}" -O2 -Wall -I ../../Sources/CGlibcShims/include -o "$binary" clone3.c
"$binary" "$directory" "${ROUNDS:-2000}" "${HEAP_MB:-2}" "${GAP_MS:-0}"
