#!/bin/sh
# `make fuzz`: builds the libFuzzer harnesses of Fuzz/Harnesses/ in release with the
# fuzzer and address sanitizers (scratch path .build-fuzz), runs each for
# FUZZ_TIME seconds (default 600), FUZZ_JOBS (default 1) at a time, prints
# the executions and whether it crashed, and exits 1 on any crash.
#   FUZZ_TIME=60 FUZZ_JOBS=2 make fuzz
#   FUZZ_HARNESSES="FuzzGlob FuzzDotEnv" make fuzz
# Seeds: Fuzz/Corpus/<harness>/ (read only). What the fuzzer learns goes to
# .build-fuzz/corpus/<harness>/; crashing inputs to Fuzz/Crashes/<harness>/
# (git-ignored). Replay one: .build-fuzz/release/<harness> <crash file>
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FUZZ_TIME=${FUZZ_TIME:-600}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_HARNESSES=${FUZZ_HARNESSES:-"FuzzGlob FuzzGitignore FuzzDuration FuzzSignal FuzzLinePattern FuzzDotEnv FuzzBSER FuzzJSONLines FuzzQuery"}
scratch=$PWD/.build-fuzz
export FUZZ_TIME scratch

if [ "${1:-}" = "--one" ]; then
    name=$2
    mkdir -p "$scratch/corpus/$name" "$scratch/logs" "Fuzz/Crashes/$name"
    # libFuzzer reports a trap itself and saves the input: no Swift backtracer.
    status=0
    SWIFT_BACKTRACE=enable=no "$scratch/release/$name" -max_total_time="$FUZZ_TIME" -timeout=30 \
        -print_final_stats=1 -artifact_prefix="Fuzz/Crashes/$name/" \
        "$scratch/corpus/$name" "Fuzz/Corpus/$name" >"$scratch/logs/$name.log" 2>&1 || status=$?
    echo "$status" >"$scratch/logs/$name.status"
    exit 0
fi

$SWIFT build -c release --package-path Fuzz/Harnesses --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld
rm -f "$scratch"/logs/*.status
echo "fuzzing $FUZZ_HARNESSES for ${FUZZ_TIME}s each, $FUZZ_JOBS at a time"
printf '%s\n' $FUZZ_HARNESSES | xargs -P "$FUZZ_JOBS" -I{} sh Fuzz/run.sh --one {}

failed=0
for name in $FUZZ_HARNESSES; do
    log=$scratch/logs/$name.log
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    status=$(cat "$scratch/logs/$name.status" 2>/dev/null || echo "?")
    if [ "$status" = 0 ]; then
        echo "$name: ${runs:-?} executions, no crash"
    else
        failed=1
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        echo "$name: ${runs:-?} executions, CRASHED (exit $status) ${artifact:+input $artifact }log $log"
        grep -m 3 -E 'Fatal error|ERROR:' "$log" | sed 's/^/    /' || true
    fi
done
exit $failed
