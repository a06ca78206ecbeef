#!/bin/sh
# Is a change made right after `rwatch -p`'s armed line ("watching ...;
# waiting for a change") always run? Inside a git repository, N times:
# start rwatch, wait for the line, write file.py at once, wait 3 s for a run.
#
#   Benchmarks/vcs-checkout/first-change.sh [-n N] [-b BINARY] [-- rwatch flags]
#
# Prints: first-change misses: M / N
set -eu
n=20 binary=
while [ $# -gt 0 ]; do
    case $1 in
        -n) n=$2; shift 2 ;;
        -b) binary=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "$binary" ]; then
    binary=$here/.build-vcs/release/rwatch
    [ -x "$binary" ] || binary=$here/.build-vcs/debug/rwatch
fi
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
export WATCHMAN_SOCK=/nonexistent/rwatch-first-change/sock
miss=0 i=0
while [ "$i" -lt "$n" ]; do
    i=$((i + 1))
    scratch=$(mktemp -d /tmp/first-change.XXXXXX)
    mkdir "$scratch/repo"
    cd "$scratch/repo"
    git init -q
    printf 'print("v0")\n' > file.py
    git add file.py
    git -c user.email=t@example.com -c user.name=t commit -qm init
    : > ../log
    : > ../runs
    "$binary" -p --no-service "$@" -- sh -c "echo run >> '$scratch/runs'" < /dev/null > ../log 2>&1 &
    rwatch=$!
    until grep -q watching ../log; do
        kill -0 "$rwatch" 2>/dev/null || { echo "rwatch exited:" >&2; cat ../log >&2; exit 1; }
        sleep 0.002
    done
    printf 'print("v1")\nx = 1\n' > file.py
    k=0
    while [ ! -s ../runs ] && [ "$k" -lt 300 ]; do sleep 0.01; k=$((k + 1)); done
    [ -s ../runs ] || miss=$((miss + 1))
    kill "$rwatch"
    wait "$rwatch" 2>/dev/null || true
    cd /
    rm -rf "$scratch"
done
echo "first-change misses: $miss / $n"
