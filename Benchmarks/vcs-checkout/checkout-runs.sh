#!/bin/sh
# Does `git checkout -- file.py` (restoring a modified tracked file) always
# give a run? (issue 36, item 5). In a scratch repository, rwatch -p runs a
# command that appends a line to a file outside the watched tree; each
# round modifies file.py, waits for its run, restores it with git checkout
# and waits (up to --deadline seconds) for the run the restore must give.
#
#   Benchmarks/vcs-checkout/checkout-runs.sh [options] [-- rwatch flags]
#
#   -n N            rounds (default 200)
#   -b BINARY       rwatch to run (default .build-vcs/release/rwatch, else debug)
#   --service       run through a private `rwatch serve` (else --no-service)
#   --load K        K busy loops on the side while it runs (default 0)
#   --atomic        modify file.py as an editor's atomic save (temp + rename)
#   --vim           modify file.py as vim saves: rename it to file.py~, write
#                   a new file.py, chmod it, remove file.py~
#   --same-size     modify one character (same size) instead of appending a line
#   --status-loop   run `git status` over and over beside it (an editor's or a
#                   prompt's git integration: index.lock taken and let go all
#                   the time); a checkout that finds the lock taken is retried
#   --gap MS        wait MS ms between the modify's run and the checkout
#                   (default: a random 0-300 ms each round)
#   --run-ms MS     each run sleeps MS ms before it counts itself (a python3 start-up; default 0)
#   --linger MS     each run sleeps MS ms after it counted itself, so that the
#                   checkout comes while the modify's run is still going (default 0)
#   --deadline S    how long to wait for a run (default 5)
#   -- FLAGS        more rwatch flags: --no-vcs-settle, -d 0, ...
#
# Prints one line per miss and a summary line:
#   rounds=200 modify_miss=0 restore_miss=0 late=0 extra_after=0 restore_ms_median=... (and the variant)
set -eu

rounds=200 binary= service=0 load=0 atomic=0 vim=0 statusloop=0 samesize=0 gap=random runms=0 linger=0 deadline=5
while [ $# -gt 0 ]; do
    case $1 in
        -n) rounds=$2; shift 2 ;;
        -b) binary=$2; shift 2 ;;
        --service) service=1; shift ;;
        --load) load=$2; shift 2 ;;
        --atomic) atomic=1; shift ;;
        --vim) vim=1; shift ;;
        --status-loop) statusloop=1; shift ;;
        --same-size) samesize=1; shift ;;
        --gap) gap=$2; shift 2 ;;
        --run-ms) runms=$2; shift 2 ;;
        --linger) linger=$2; shift 2 ;;
        --deadline) deadline=$2; shift 2 ;;
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

scratch=$(mktemp -d /tmp/checkout-runs.XXXXXX)
repo=$scratch/repo runs=$scratch/runs log=$scratch/rwatch.log
pids=
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT INT TERM

mkdir "$repo"
cd "$repo"
git init -q
git config user.email t@example.com
git config user.name t
printf 'print("v0")\n' > file.py
git add file.py
git commit -qm init
: > "$runs"

# A private service socket, so nothing of another service is used or disturbed.
export WATCHMAN_SOCK="$scratch/sock"
if [ "$service" = 1 ]; then
    "$binary" serve --sockname "$WATCHMAN_SOCK" 2> "$scratch/serve.log" &
    pids="$pids $!"
    i=0
    while [ ! -S "$WATCHMAN_SOCK" ]; do
        i=$((i + 1)); [ $i -lt 1000 ] || { echo "service did not start" >&2; exit 1; }
        sleep 0.01
    done
    where=
else
    where=--no-service
fi

i=0
while [ "$i" -lt "$load" ]; do
    sh -c 'while :; do :; done' &
    pids="$pids $!"
    i=$((i + 1))
done

command="echo run >> '$runs'"
[ "$runms" -eq 0 ] || command="sleep $(awk "BEGIN { print $runms / 1000 }"); $command"
[ "$linger" -eq 0 ] || command="$command; sleep $(awk "BEGIN { print $linger / 1000 }")"
: > "$log"
"$binary" -p $where "$@" -- sh -c "$command" < /dev/null > "$log" 2>&1 &
pids="$pids $!"
rwatch=$!

count() { wc -l < "$runs" | tr -d ' '; }
now_ms() { date +%s%3N; }
# Waits until the runs file holds at least $1 lines, or $2 seconds pass.
wait_runs() {
    end=$(( $(now_ms) + $2 * 1000 ))
    while [ "$(count)" -lt "$1" ]; do
        [ "$(now_ms)" -lt "$end" ] || return 1
        sleep 0.005
    done
}

end=$(( $(now_ms) + 30000 ))
until grep -q "^.*watching" "$log"; do
    [ "$(now_ms)" -lt "$end" ] || { echo "rwatch did not arm:" >&2; cat "$log" >&2; exit 1; }
    kill -0 "$rwatch" 2>/dev/null || { echo "rwatch exited:" >&2; cat "$log" >&2; exit 1; }
    sleep 0.01
done

if [ "$statusloop" = 1 ]; then
    sh -c 'while :; do git status --porcelain > /dev/null 2>&1; sleep 0.02; done' &
    pids="$pids $!"
fi

modify() {
    if [ "$samesize" = 1 ]; then content="print(\"v$(($1 % 10))\")" ; [ $(($1 % 10)) -ne 0 ] || content='print("vx")'
    else content="print(\"v0\")
print(\"edit $1\")"
    fi
    if [ "$atomic" = 1 ]; then
        printf '%s\n' "$content" > .file.py.tmp
        mv .file.py.tmp file.py
    elif [ "$vim" = 1 ]; then
        mv file.py file.py~
        printf '%s\n' "$content" > file.py
        chmod 644 file.py
        rm file.py~
    else
        printf '%s\n' "$content" > file.py
    fi
}

modify_miss=0 restore_miss=0 late=0 extra=0 latencies=$scratch/latencies
: > "$latencies"
round=1
while [ "$round" -le "$rounds" ]; do
    before=$(count)
    modify "$round"
    if ! wait_runs $((before + 1)) "$deadline"; then
        modify_miss=$((modify_miss + 1))
        echo "round $round: no run for the modify"
    fi
    if [ "$gap" = random ]; then ms=$(awk "BEGIN { srand($round); print int(rand() * 300) }"); else ms=$gap; fi
    [ "$ms" -eq 0 ] || sleep "$(awk "BEGIN { print $ms / 1000 }")"
    before=$(count)
    started=$(now_ms)
    until git checkout -q -- file.py 2> "$scratch/checkout.err"; do
        grep -q index.lock "$scratch/checkout.err" || { cat "$scratch/checkout.err" >&2; exit 1; }
    done
    if wait_runs $((before + 1)) "$deadline"; then
        echo $(( $(now_ms) - started )) >> "$latencies"
    else
        restore_miss=$((restore_miss + 1))
        echo "round $round: no run for the checkout within ${deadline}s (gap ${ms} ms)"
        if wait_runs $((before + 1)) 5; then late=$((late + 1)); echo "round $round: ... it came late"; fi
    fi
    round=$((round + 1))
done
# Anything still coming (a run more than asked for) comes within a second.
expected=$(count)
sleep 1
extra=$(( $(count) - expected ))
median=$(sort -n "$latencies" | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "-" }')
worst=$(sort -n "$latencies" | tail -1)
served=no; grep -q "through rwatch serve" "$log" && served=yes
echo "rounds=$rounds modify_miss=$modify_miss restore_miss=$restore_miss late=$late extra_after=$extra" \
     "restore_ms_median=$median restore_ms_max=${worst:--} load=$load service=$service served=$served atomic=$atomic vim=$vim status_loop=$statusloop" \
     "same_size=$samesize gap=$gap run_ms=$runms linger=$linger flags='$*' runs=$(count)"
if [ "$restore_miss" -gt 0 ] || [ "$modify_miss" -gt 0 ]; then
    echo "--- rwatch log (last 30 lines)"; tail -30 "$log"
fi
