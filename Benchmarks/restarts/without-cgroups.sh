#!/bin/sh
# Runs rwatch (RWATCH, default .build/release/rwatch) with the arguments
# given, in a mount namespace of its own where no cgroup v2 hierarchy is
# mounted: rwatch can make no cgroup there and follows what its runs start
# through their process tree and as the subreaper instead. Root only
# (unshare --mount). Same pid as rwatch, so storm.py can signal it:
#   RWATCH=.build-command-release/release/rwatch \
#     Benchmarks/restarts/storm.py "no cgroup=Benchmarks/restarts/without-cgroups.sh"
rwatch=${RWATCH:-.build/release/rwatch}
case $rwatch in /*) ;; *) rwatch=$PWD/$rwatch ;; esac
exec unshare --mount --propagation private sh -c '
    for mount in $(awk '\''$3 == "cgroup2" { print $2 }'\'' /proc/mounts); do umount -l "$mount" || exit 97; done
    exec "$@"' without-cgroups "$rwatch" "$@"
