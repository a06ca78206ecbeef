#!/bin/sh
# Packaging/build-info.sh SWIFT HEADER: records what the build knows and no
# source file can (the commit, the Swift version) in HEADER, a C header that
# git ignores (Sources/CBuildInfo reads it). The file is rewritten only when
# its text changes, so an unchanged tree rebuilds nothing; when it changes,
# the C file that includes it is touched, so that a build which first ran
# without the header notices it.
set -eu
swift=$1 header=$2
cd "$(dirname "$0")/.."

commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
if [ -n "$commit" ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit-dirty"
fi
# `swift --version` leaves a temporary directory behind: give it one of ours.
scratch=$(mktemp -d)
version=$(TMPDIR=$scratch "$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
rm -rf "$scratch"

text=$(printf '// Written by Packaging/build-info.sh; not committed.\n#define RWATCH_COMMIT "%s"\n#define RWATCH_SWIFT_VERSION "%s"' "$commit" "$version")
if [ ! -f "$header" ] || [ "$(cat "$header")" != "$text" ]; then
    printf '%s\n' "$text" > "$header"
    touch "$(dirname "$header")/BuildInfo.c"
fi
