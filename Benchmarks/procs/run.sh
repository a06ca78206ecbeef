#!/usr/bin/env bash
# ProcessSource and Tail against their command-line peers (issue 5).
#
#   Benchmarks/procs/run.sh            # 5,000,000 seq lines, 500 MB log
#   LOG_MB=50 Benchmarks/procs/run.sh  # quicker
#
# Prints a markdown table: wall time, lines/s, CPU (user+sys) and peak RSS of
# each side, from /usr/bin/time (apt-get install time). The generated log is
# deleted at the end.
set -euo pipefail
cd "$(dirname "$0")"

SEQ_LINES=${SEQ_LINES:-5000000}
LOG_MB=${LOG_MB:-500}
WORK=${WORK:-/tmp/rwatch-procs-bench}
REGEX='status=5[0-9]{2} took=[0-9]{3,}ms'
END='END-OF-BENCHMARK-LOG'

command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
swift build -c release --product ProcsProbe ${SWIFT_FLAGS:-} >&2
PROBE=$(swift build -c release --show-bin-path ${SWIFT_FLAGS:-})/ProcsProbe

mkdir -p "$WORK"
LOG=$WORK/big.log
GROWING=$WORK/growing.log
trap 'rm -rf "$WORK"' EXIT

echo "generating a ${LOG_MB} MB log..." >&2
awk -v bytes=$((LOG_MB * 1000000)) 'BEGIN {
    srand(42); total = 0; i = 0
    while (total < bytes) {
        s = (rand() < 0.97) ? 200 : 500 + int(rand() * 4)
        line = sprintf("2026-11-22T01:%02d:%02d.%03dZ INFO [worker-%d] request id=%d path=/api/v1/items/%d status=%d took=%dms",
                       (i / 60000) % 60, (i / 1000) % 60, i % 1000, i % 16, i, int(rand() * 100000), s, int(rand() * 2000))
        print line; total += length(line) + 1; i++
    }
    print "'"$END"'"
}' > "$LOG"
LOG_LINES=$(wc -l < "$LOG")

# measure LABEL LINES COMMAND... : runs COMMAND, prints a table row.
measure() {
    local label=$1 lines=$2; shift 2
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time.txt" "$@" > "$WORK/out.txt"
    read -r wall user sys rss < "$WORK/time.txt"
    awk -v l="$label" -v n="$lines" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v out="$(tr '\n' ' ' < "$WORK/out.txt")" \
        'BEGIN { printf "| %s | %s | %.2f | %.0f | %.2f | %.1f |\n", l, out, w, n / (w > 0 ? w : 0.01), u + s, r / 1024 }'
}

# grow: appends the log to $GROWING in the background (cat, 128 KiB writes).
grow() {
    : > "$GROWING"
    ( cat "$LOG" >> "$GROWING" ) &
}

echo "| run | result | wall s | lines/s | CPU s (user+sys) | peak RSS MB |"
echo "|---|---|---|---|---|---|"
measure "ProcessSource: seq $SEQ_LINES, count lines" "$SEQ_LINES" "$PROBE" count-seq "$SEQ_LINES"
measure "peer: seq $SEQ_LINES \| wc -l" "$SEQ_LINES" sh -c "seq $SEQ_LINES | wc -l"
cat "$LOG" > /dev/null   # both sides read from the page cache
measure "Tail from start, ${LOG_MB} MB, count lines" "$LOG_LINES" "$PROBE" tail-count "$LOG" "$END"
measure "peer: wc -l, same file" "$LOG_LINES" sh -c "wc -l < $LOG"
measure "Tail from start, ${LOG_MB} MB, regex count" "$LOG_LINES" "$PROBE" tail-grep "$LOG" "$REGEX" "$END"
measure "peer: grep -c -E, same file" "$LOG_LINES" grep -c -E "$REGEX" "$LOG"
: > "$GROWING"
grow
measure "Tail while the file grows, regex count" "$LOG_LINES" "$PROBE" tail-grep "$GROWING" "$REGEX" "$END"
wait
: > "$GROWING"
grow
measure "peer: tail -F \| grep --line-buffered" "$LOG_LINES" ./follow-peer.sh "$GROWING" "$REGEX" "$END"
wait
echo >&2 "log: $LOG_LINES lines; machine: $(nproc) cores, $(uname -r)"
