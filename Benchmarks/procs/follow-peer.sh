#!/bin/sh
# The peer of `ProcsProbe tail-grep` for a growing file:
#   tail -F | grep --line-buffered, counting matches until the END line.
# usage: follow-peer.sh FILE REGEX END
# (awk -W interactive: mawk, Debian's awk, otherwise reads its input in blocks
# and would sit on the END line.)
file=$1 regex=$2 end=$3
fifo=$(mktemp -u /tmp/rwatch-procs-fifo.XXXXXX)
mkfifo "$fifo"
trap 'rm -f "$fifo"' EXIT
tail -n +1 -F "$file" 2>/dev/null > "$fifo" &
tailpid=$!
grep --line-buffered -E -e "$regex" -e "^$end\$" < "$fifo" |
    awk -W interactive -v end="$end" -v tailpid="$tailpid" '$0 == end { print n; system("kill " tailpid); exit } { n++ }'
wait "$tailpid" 2>/dev/null || true
