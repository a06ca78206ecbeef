#!/bin/sh
# rwatch replay of a 10,000-event session (BENCHMARKS.md, "Replaying a
# session"): a session of saves 250 ms apart across 50 files, played through
# a recipe that batches and runs make on every change. Prints the wall time
# of three replays (the replay binary compiled before, once).
#   Benchmarks/replay/replay.sh [RWATCH]   (default: .build/release/rwatch)
set -eu
rwatch=$(realpath "${1:-.build/release/rwatch}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat > "$work/build.swift" <<'RECIPE'
import RecipeKit
let recipe = Recipe("build", "make on a change") {
    FileWatcher.watch(["src"]).batched(.milliseconds(100)).run(["make"], onBusy: .restart)
}
RECIPE
awk -v dir="$work/src" 'BEGIN {
    for (i = 0; i < 10000; i++)
        printf "{\"path\":\"%s/f%d.c\",\"kind\":\"modified\",\"isDirectory\":false,\"time\":%.6f}\n", dir, i % 50, i * 0.25
}' > "$work/session.jsonl"
cd "$work"
"$rwatch" replay session.jsonl ./build.swift > /dev/null
for run in 1 2 3; do
    start=$(date +%s.%N)
    "$rwatch" replay session.jsonl ./build.swift > timeline.txt
    end=$(date +%s.%N)
    echo "replay $run: $(echo "$end - $start" | bc) s, $(grep -c ' start ' timeline.txt) runs"
done
