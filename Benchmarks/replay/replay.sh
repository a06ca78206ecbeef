#!/bin/sh
# Recipes on virtual time (BENCHMARKS.md, "Recipes on virtual time"):
#   - rwatch replay of a 10,000-event session (saves 250 ms apart across 50
#     files, 2,500 s of recorded time) through a recipe that batches and
#     runs make on every change: the wall time of three replays;
#   - rwatch test of one test that saves every 10 s for an hour of
#     virtual time (360 runs): the wall time of three runs of the binary.
# Each binary is compiled once first, outside the timings.
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
cat > "$work/build.tests.swift" <<'TESTS'
import RecipeTesting
import Testing
@Test func anHourOfSaves() {
    let run = RecipeTest(recipe, files: ["src/a.c": ""], commands: [.command(["make"], takes: .seconds(2))])
    for second in stride(from: 10, through: 3_600, by: 10) { run.save("src/a.c", "\(second)", at: .seconds(second)) }
    run.advance(to: .seconds(3_700))
    #expect(run.runs.count == 360)
}
TESTS
"$rwatch" test ./build.swift > /dev/null 2>&1
for run in 1 2 3; do
    start=$(date +%s.%N)
    "$rwatch" test ./build.swift > /dev/null 2>&1
    end=$(date +%s.%N)
    echo "an hour of saves under rwatch test $run: $(echo "$end - $start" | bc) s"
done
