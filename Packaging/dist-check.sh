#!/bin/sh
# Packaging/dist-check.sh VERSION DIST WORK: uses what `make dist` wrote in
# DIST as a user would, in the scratch folder WORK.
#
# The .debs are installed with dpkg -i into a throwaway root (dpkg --root),
# not unpacked with dpkg-deb -x: dpkg then checks the packages' Depends
# against this machine's installed versions (the status entries of those
# packages, copied), unpacks as it does on a user's machine, and removes
# every file again with -r. The tarball is untarred into an empty prefix.
# Both run with a PATH that has no swift or swiftc and no LD_LIBRARY_PATH;
# then, with the toolchain on PATH, a bundled recipe compiles and runs from
# the installed files. git's fsmonitor hook runs rwatch-watchman's
# watchman, which starts the service it asks. Waits poll a condition up
# to a deadline; nothing asserts on time.
set -eu
version=$1
dist=$(cd "$2" && pwd)
rm -rf "$3" && mkdir -p "$3" && work=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
arch=$(dpkg --print-architecture)
deb=$dist/rwatch_${version}_$arch.deb
dbgsym=$dist/rwatch-dbgsym_${version}_$arch.deb
watchman_deb=$dist/rwatch-watchman_${version}_all.deb
tarball=$dist/rwatch-$version-linux-$(uname -m).tar.gz
swift_version=$(sed -n 's/^#define RWATCH_SWIFT_VERSION "\(.*\)"$/\1/p' "$here/../Sources/CBuildInfo/build-info.h")
swiftc=$(command -v swiftc || true)

fail() { printf 'dist-check: FAILED: %s\n' "$*" >&2; exit 1; }
step() { printf 'dist-check: %s\n' "$*"; }

# A PATH with what the checks run and no toolchain: links to these tools only.
mkdir -p "$work/bin" "$work/home"
for tool in sh true cat; do
    for dir in /usr/bin /bin; do [ -x "$dir/$tool" ] && ln -s "$dir/$tool" "$work/bin/$tool" && break; done
done
# Runs an installed rwatch ($1) as a user without the toolchain would.
user() {
    env -i HOME="$work/home" PATH="$work/bin" XDG_CACHE_HOME="$work/cache" LANG=C.UTF-8 "$@"
}
# The same in the background, output to $1: env execs rwatch, so $pid is
# rwatch's. One runs at a time; if the check fails while it runs, it is
# stopped on the way out.
pid=""
user_background() {
    out=$1 && shift
    env -i HOME="$work/home" PATH="$work/bin" XDG_CACHE_HOME="$work/cache" LANG=C.UTF-8 "$@" > "$out" 2>/dev/null &
    pid=$!
}
# Stops the background rwatch (-TERM: a background job of sh ignores
# SIGINT) and reaps it.
stop_background() {
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
}
# The service the watchman command starts lives on in a session of its
# own: its pid file (beside its socket, $service.pid) lets it be stopped
# on the way out too.
service=""
stop_service() {
    [ ! -s "$service.pid" ] || kill -TERM "$(cat "$service.pid")" 2>/dev/null || true
}
trap '[ -z "$pid" ] || stop_background; [ -z "$service" ] || stop_service' EXIT
# Waits until the shell condition $1 holds, doing $2 (a change) between
# looks: at most 120 s, then fails with $3 and the output file $4.
until_true() {
    tries=0
    until eval "$1"; do
        eval "$2"
        tries=$((tries + 1))
        [ $tries -lt 1200 ] || fail "$3: $(cat "$4" 2>&1)"
        sleep 0.1
    done
}

# Everything a user sees of one installed rwatch ($1, with its man page $2).
check_command_line() {
    rwatch=$1 man=$2
    out=$(user "$rwatch" --version)
    case $out in "rwatch $version (commit "*) ;; *) fail "rwatch --version printed '$out'" ;; esac
    user "$rwatch" -1 -- true || fail "rwatch -1 -- true failed"

    # A watch that sees a change: wait for the first one (-p), run once (-1).
    dir=$work/watched && rm -rf "$dir" && mkdir -p "$dir"
    user_background /dev/null "$rwatch" -p -1 -w "$dir" -- sh -c 'printf %s "$RWATCH_PATHS" > "$0"' "$work/seen"
    until_true '[ -s "$work/seen" ]' 'echo change >> "$dir/file"' "rwatch -p -1 saw no change" /dev/null
    status=0 && wait $pid || status=$?
    pid=""
    [ $status = 0 ] || fail "rwatch -p -1 exited $status"
    [ "$(cat "$work/seen")" = "$dir/file" ] || fail "RWATCH_PATHS was '$(cat "$work/seen")'"
    rm -f "$work/seen"

    user_background "$work/events" "$rwatch" events "$dir" --json
    until_true 'grep -qs "\"$dir/new\"" "$work/events"' 'touch "$dir/new"' "rwatch events saw nothing" "$work/events"
    stop_background

    out=$(printf 'one\nerror two\n' | user "$rwatch" tail - --grep error)
    [ "$out" = "error two" ] || fail "rwatch tail printed '$out'"

    MANPAGER=cat MANWIDTH=80 man --warnings -l "$man" > "$work/man" 2> "$work/man-warnings" || fail "man -l $man failed"
    grep -q "rwatch - watch files" "$work/man" || fail "man -l $man shows no NAME"
    [ ! -s "$work/man-warnings" ] || fail "man -l $man warns: $(cat "$work/man-warnings")"

    # Every recipe command, without a toolchain: one line saying what it needs, exit 2.
    printf 'import RecipeKit\nlet recipe = Recipe("p", "p") { Signal<Int>.empty() }\n' > "$work/home/rwatch.swift"
    for command in "check rebuild-on-save" "run tail-errors" "test rebuild-on-save" "graph chain" ""; do
        status=0
        (cd "$work/home" && user "$rwatch" $command) > /dev/null 2> "$work/error" || status=$?
        [ $status = 2 ] || fail "rwatch $command exited $status without a toolchain"
        [ "$(wc -l < "$work/error")" = 1 ] || fail "rwatch $command said: $(cat "$work/error")"
        grep -q "swiftc $swift_version not found: install Swift $swift_version to compile recipes" "$work/error" \
            || fail "rwatch $command said: $(cat "$work/error")"
    done
}

step "SHA256SUMS"
(cd "$dist" && sha256sum --check --quiet SHA256SUMS) || fail "SHA256SUMS does not match"

step "dpkg -i into a throwaway root"
root=$work/root admin=$work/root/var/lib/dpkg
mkdir -p "$admin/info" "$admin/updates"
needs=$(dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/[ (].*//; /^$/d')
for package in $needs; do
    dpkg-query --status "$package" >> "$admin/status" || fail "$package (Depends) is not installed here"
    echo >> "$admin/status"
    touch "$admin/info/$(dpkg-query --showformat='${binary:Package}' --show "$package").list"
done
dpkg --root="$root" --log=/dev/null --install "$deb" "$dbgsym" "$watchman_deb" > "$work/dpkg" || fail "dpkg -i: $(cat "$work/dpkg")"
rwatch=$root/usr/bin/rwatch

step "ldd $rwatch"
ldd "$rwatch" | tee "$work/ldd" | sed 's/^/    /'
! grep -q "not found\|libswift\|libFoundation\|libdispatch" "$work/ldd" || fail "the binary needs more than the Depends"
id=$(readelf -n "$rwatch" | sed -n 's/^ *Build ID: //p')
[ -f "$root/usr/lib/debug/.build-id/$(printf %s "$id" | cut -c1-2)/$(printf %s "$id" | cut -c3-).debug" ] \
    || fail "rwatch-dbgsym has no debug file for build id $id"

step "rwatch-watchman: watchman is rwatch"
for field in Provides Conflicts Replaces; do
    value=$(dpkg-deb --field "$watchman_deb" $field)
    [ "$value" = watchman ] || fail "rwatch-watchman's $field is '$value'"
done
[ "$(readlink "$root/usr/bin/watchman")" = rwatch ] || fail "/usr/bin/watchman links to $(readlink "$root/usr/bin/watchman")"
[ "$(readlink -f "$root/usr/bin/watchman")" = "$(readlink -f "$rwatch")" ] || fail "/usr/bin/watchman is not rwatch"
[ -f "$root/usr/share/man/man1/watchman.1.gz" ] || fail "watchman.1.gz leads to no man page"
[ -f "$root/usr/share/doc/rwatch-watchman/copyright" ] || fail "/usr/share/doc/rwatch-watchman has no copyright"

step "the command line from the .deb, without a toolchain"
check_command_line "$rwatch" "$root/usr/share/man/man1/rwatch.1.gz"
for shell in bash zsh fish; do
    file=$root/usr/share/bash-completion/completions/rwatch
    [ $shell = zsh ] && file=$root/usr/share/zsh/vendor-completions/_rwatch
    [ $shell = fish ] && file=$root/usr/share/fish/vendor_completions.d/rwatch.fish
    $shell -n "$file" || fail "$shell cannot read $file"
done

if [ -n "$swiftc" ]; then
    step "a bundled recipe from the .deb, with $swiftc on PATH"
    log=$work/app.log && : > "$log"
    env -i HOME="$work/home" PATH="$(dirname "$swiftc"):/usr/bin:/bin" XDG_CACHE_HOME="$work/cache" NOTIFY=true \
        "$rwatch" run tail-errors "$log" > "$work/recipe" 2>&1 &
    pid=$!
    until_true 'grep -qs "error: from dist-check" "$work/recipe"' 'echo "error: from dist-check" >> "$log"' \
        "the recipe printed" "$work/recipe"
    stop_background

    step "rwatch init && rwatch test in a new Swift package, and a bundled recipe's tests, from the .deb"
    project=$work/home/project && mkdir -p "$project/Sources/App"
    printf '// swift-tools-version: 6.0\n' > "$project/Package.swift"
    for command in "init" "test" "test chain"; do
        (cd "$project" && env -i HOME="$work/home" PATH="$(dirname "$swiftc"):/usr/bin:/bin" XDG_CACHE_HOME="$work/cache" \
            "$rwatch" $command) > "$work/tests" 2>&1 || fail "rwatch $command failed: $(cat "$work/tests")"
    done
    grep -q "passed" "$work/tests" || fail "rwatch test chain said: $(cat "$work/tests")"
else
    step "no swiftc on PATH: the recipe run is left out"
fi

step "git's fsmonitor hook through the .deb's watchman"
# As a user with rwatch-watchman would run git: its /usr/bin first, so
# that watchman is its link, then what git and perl need; no
# WATCHMAN_SOCK, so the watchman command finds (and starts) the service
# at its default socket in XDG_RUNTIME_DIR.
repo=$work/repo runtime=$work/runtime
mkdir -p "$repo" "$work/tmp" && mkdir -m 700 "$runtime"
repo=$(cd "$repo" && pwd -P)
as_git_user() {
    (cd "$repo" && env -i HOME="$work/home" TMPDIR="$work/tmp" XDG_RUNTIME_DIR="$runtime" \
        PATH="$root/usr/bin:/usr/bin:/bin" LANG=C.UTF-8 GIT_TRACE_FSMONITOR="$work/fsmonitor-trace" "$@")
}
[ "$(as_git_user sh -c 'command -v watchman')" = "$root/usr/bin/watchman" ] || fail "watchman is not the .deb's on PATH"
service=$runtime/rwatch/sock
as_git_user git init -q
echo one > "$repo/committed"
as_git_user git add committed
as_git_user git -c user.name=dist-check -c user.email=dist-check@localhost commit -q -m one
cp /usr/share/git-core/templates/hooks/fsmonitor-watchman.sample "$repo/.git/hooks/query-watchman"
as_git_user git config core.fsmonitor .git/hooks/query-watchman
# The first status finds no service: the hook's watchman starts it, and
# the hook adds the watch.
as_git_user git status > /dev/null 2> "$work/git" || fail "git status: $(cat "$work/git")"
[ ! -s "$work/git" ] || fail "the fsmonitor hook failed: $(cat "$work/git")"
sockname=$(as_git_user watchman get-sockname | sed -n 's/.*"sockname": *"\([^"]*\)".*/\1/p')
[ "$sockname" = "$service" ] || fail "watchman get-sockname says '$sockname', not $service"
[ -s "$service.pid" ] || fail "the service wrote no $service.pid"
as_git_user watchman watch-list > "$work/roots"
grep -q "\"$repo\"" "$work/roots" || fail "the hook added no watch: $(cat "$work/roots")"
# A change and a new file: the hook's query syncs with the file system
# (a cookie), so its answer holds them at once.
echo two >> "$repo/committed"
echo new > "$repo/untracked"
: > "$work/fsmonitor-trace"
as_git_user git status --porcelain > "$work/fsmonitor" 2> "$work/git" || fail "git status: $(cat "$work/git")"
[ ! -s "$work/git" ] || fail "the fsmonitor hook failed: $(cat "$work/git")"
grep -q "returned success" "$work/fsmonitor-trace" || fail "git used no answer of the hook: $(cat "$work/fsmonitor-trace")"
as_git_user git -c core.fsmonitor= status --porcelain > "$work/scanned"
[ -s "$work/scanned" ] && cmp -s "$work/fsmonitor" "$work/scanned" \
    || fail "with the hook, git status said '$(cat "$work/fsmonitor")'; scanning, '$(cat "$work/scanned")'"
service_pid=$(cat "$service.pid")
as_git_user watchman shutdown-server > "$work/shutdown" || fail "watchman shutdown-server: $(cat "$work/shutdown")"
# Gone, or a zombie: its parent was the watchman command, so what reaps
# it now is init, which need not.
until_true '! kill -0 "$service_pid" 2>/dev/null || grep -qs "^[0-9]* (.*) Z" "/proc/$service_pid/stat"' : \
    "the service did not stop" /dev/null
service=""

step "dpkg -r leaves nothing behind"
dpkg --root="$root" --log=/dev/null --remove rwatch-watchman rwatch-dbgsym rwatch > "$work/dpkg" || fail "dpkg -r: $(cat "$work/dpkg")"
left=$(find "$root" -path "$admin" -prune -o ! -type d -print)
[ -z "$left" ] || fail "dpkg -r left $left"

step "the tarball, untarred into an empty prefix"
prefix=$work/prefix && mkdir -p "$prefix"
tar -xzf "$tarball" -C "$prefix"
for file in bin/rwatch lib/rwatch/libRecipeKit.so lib/rwatch/Modules/RecipeKit.swiftmodule lib/rwatch/Modules/RecipeTesting.swiftmodule \
    share/rwatch/recipes/tail-errors.swift share/rwatch/recipes/tail-errors.tests.swift \
    share/man/man1/rwatch.1 share/bash-completion/completions/rwatch share/zsh/site-functions/_rwatch \
    share/fish/vendor_completions.d/rwatch.fish; do
    [ -f "$prefix/$file" ] || fail "the tarball has no $file"
done
check_command_line "$prefix/bin/rwatch" "$prefix/share/man/man1/rwatch.1"
# The folder a user puts on PATH for watchman to be rwatch.
compat=$prefix/libexec/rwatch/watchman-compat
[ -L "$compat/watchman" ] || fail "the tarball has no libexec/rwatch/watchman-compat/watchman"
[ "$(readlink -f "$compat/watchman")" = "$(readlink -f "$prefix/bin/rwatch")" ] || fail "$compat/watchman is not bin/rwatch"
out=$(env -i HOME="$work/home" PATH="$compat:$work/bin" LANG=C.UTF-8 watchman --version)
[ "$out" = "$version" ] || fail "watchman --version printed '$out'"

step "passed"
(cd "$dist" && ls -l "$(basename "$deb")" "$(basename "$dbgsym")" "$(basename "$watchman_deb")" "$(basename "$tarball")") \
    | sed 's/^/    /'
