#!/bin/sh
# The peer of `ProcsProbe tail-grep` for a growing file:
#   tail -F | grep --line-buffered, counting matches until the END line.
# usage: follow-peer.sh FILE REGEX END
file=$1 regex=$2 end=$3
fifo=$(mktemp -u /tmp/rwatch-procs-fifo.XXXXXX)
mkfifo "$fifo"
tail -n +1 -F "$file" 2>/dev/null > "$fifo" &
tailpid=$!
grep --line-buffered -E -e "$regex" -e "^$end\$" < "$fifo" |
    awk -W interactive -v end="$end" -v tailpid="$tailpid" '$0 == end { print n; system("kill " tailpid); exit } { n++ }'
wait "$tailpid" 2>/dev/null || true
rm -f "$fifo"
