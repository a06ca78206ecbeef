#!/bin/bash
# The suite, N times in a row, in a fresh clone, while two busy loops keep
# both cores busy: how a flaky test shows itself (not part of `make test`).
#   Tests/loaded-loop.sh [RUNS] [LOG]        (defaults: 20, /tmp/rwatch-loaded-loop.log)
# Clones HEAD of this repository into a temporary directory, builds the
# tests once, then runs `swift test --skip-build` RUNS times. Each run's
# line in LOG says ok or FAILED, its time and the load; a failed run's
# output is kept beside LOG (LOG.runN) and its failing tests are copied in.
set -u
runs=${1:-20}
log=${2:-/tmp/rwatch-loaded-loop.log}
repo=$(cd "$(dirname "$0")/.." && pwd)
clone=$(mktemp -d /tmp/rwatch-loaded-loop.XXXXXX)
hogs=()
finish() {
    for hog in "${hogs[@]}"; do kill "$hog" 2>/dev/null; done
    rm -rf "$clone"
}
trap finish EXIT
git clone -q "$repo" "$clone/rwatch" || exit 1
cd "$clone/rwatch" || exit 1
: > "$log"
echo "clone of $(git rev-parse --short HEAD), build $(date +%T)" >> "$log"
swift build --build-tests > "$log.build" 2>&1 || { echo "build FAILED (see $log.build)" >> "$log"; exit 1; }
for _ in 1 2; do ( while :; do :; done ) & hogs+=($!); done
passed=0
for run in $(seq 1 "$runs"); do
    start=$(date +%s)
    if swift test --skip-build > "$log.run$run" 2>&1; then
        result=ok
        passed=$((passed + 1))
        rm -f "$log.run$run"
    else
        result=FAILED
    fi
    echo "run $run $result $(( $(date +%s) - start ))s load $(cut -d' ' -f1 /proc/loadavg)" >> "$log"
    [ "$result" = FAILED ] && grep "✘" "$log.run$run" | head -20 >> "$log"
done
echo "$passed of $runs green" >> "$log"
[ "$passed" = "$runs" ]
