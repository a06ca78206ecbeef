#!/bin/sh
# Builds the example package the way someone else's package depends on
# rwatch: by URL and version. The repository's committed HEAD is cloned into
# .build-example/rwatch and tagged with the version Examples/Package.swift
# asks for (the clone's other tags removed, so that HEAD is what resolves),
# the example's URL is rewritten to file:// of that clone, and the example
# is built, then run once on a temporary directory.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
work="$repo/.build-example"
swift=${SWIFT:-swift}

rm -rf "$work/rwatch" "$work/example" "$work/run.log"
mkdir -p "$work"
git clone --quiet "$repo" "$work/rwatch"
git -C "$work/rwatch" checkout --quiet -B main "$(git -C "$repo" rev-parse HEAD)"
version=$(sed -n 's|.*rwatch.git", from: "\([0-9.]*\)".*|\1|p' "$repo/Examples/Package.swift")
[ -n "$version" ] || { echo "example: no version requirement in Examples/Package.swift" >&2; exit 1; }
git -C "$work/rwatch" tag -l | while read -r tag; do git -C "$work/rwatch" tag -d "$tag" > /dev/null; done
git -C "$work/rwatch" tag "$version"

mkdir -p "$work/example"
cp -R "$repo/Examples/Sources" "$work/example/"
sed "s|https://github.com/rwatch/rwatch.git|file://$work/rwatch|" "$repo/Examples/Package.swift" > "$work/example/Package.swift"
grep -q "file://$work/rwatch" "$work/example/Package.swift" || { echo "example: could not point Package.swift at the clone" >&2; exit 1; }

"$swift" build --package-path "$work/example"
bin=$("$swift" build --package-path "$work/example" --show-bin-path)/WatchDirectory

# A smoke run: one change in a fresh directory, reported.
dir=$(mktemp -d)
out="$work/run.log"
: > "$out"
"$bin" "$dir" 1 > "$out" &
pid=$!
tries=0
until grep -q '^watching' "$out"; do
    tries=$((tries + 1))
    if [ $tries -gt 600 ]; then echo "example: no 'watching' line" >&2; kill $pid; exit 1; fi
    sleep 0.05
done
: > "$dir/hello"
wait $pid
rm -rf "$dir"
grep -q "hello" "$out" || { echo "example: the change was not reported:" >&2; cat "$out" >&2; exit 1; }
cat "$out"
echo "example: built against $work/rwatch by URL and ran"
