#!/usr/bin/env bash
# ProcessSource and Tail against their command-line peers (issue 5).
#
#   Benchmarks/procs/run.sh                   # 5,000,000 seq lines, 500 MB log, 7 runs a side
#   LOG_MB=50 RUNS=3 Benchmarks/procs/run.sh  # quicker
#
# Builds ProcsProbe (release) and runs bench.py, which prints markdown tables:
# median wall time, lines/s, CPU (user+sys) and peak RSS of each side, then
# the ratios against the issue's targets. The generated log is deleted at the end.
set -euo pipefail
cd "$(dirname "$0")"
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
swift build -c release --product ProcsProbe ${SWIFT_FLAGS:-} >&2
PROBE=$(swift build -c release --show-bin-path ${SWIFT_FLAGS:-})/ProcsProbe
exec python3 bench.py "$PROBE"
