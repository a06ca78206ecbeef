#!/bin/sh
# Packaging/dist.sh VERSION STAGE OUT: the packages of `make dist`, from
# two trees that `make install-files` filled from the release build:
#
#   STAGE/tar  installed with an empty PREFIX: the tarball's tree
#   STAGE/deb  installed with PREFIX=/usr (zsh's folder as Debian has it)
#
# (STAGE/watchman, rwatch-watchman's tree of links, is made here.)
#
# It writes into OUT:
#   rwatch_VERSION_ARCH.deb           rwatch, RecipeKit (stripped), recipes, man page, completions
#   rwatch-dbgsym_VERSION_ARCH.deb    their debug information, in /usr/lib/debug/.build-id
#   rwatch-watchman_VERSION_all.deb   /usr/bin/watchman and its man page, links to rwatch's:
#                                     rwatch answers as watchman, for what runs or depends on it
#   rwatch-VERSION-linux-MACHINE.tar.gz   the tar tree, for tar -xzf … -C ~/.local, with
#                                     libexec/rwatch/watchman-compat/watchman, a link to
#                                     bin/rwatch, for PATH only if watchman should be rwatch
#   SHA256SUMS                        of the four
#
# No debhelper: dpkg-deb builds, dpkg-shlibdeps finds the dependencies.
# DEB_MAINTAINER names the maintainer.
set -eu
version=$1
stage=$(cd "$2" && pwd)
mkdir -p "$3" && out=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tree=$stage/tar deb=$stage/deb dbgsym=$stage/dbgsym
arch=$(dpkg --print-architecture)
machine=$(uname -m)
# The Swift version recipes need, as the build recorded it.
swift_version=$(sed -n 's/^#define RWATCH_SWIFT_VERSION "\(.*\)"$/\1/p' "$here/../Sources/CBuildInfo/build-info.h")
# Every time stamp is the commit's, so the same commit gives the same bytes.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH

# Moves the debug information of the ELF file $1 to the dbgsym tree, named
# by its build id (where gdb and debuginfod clients look), then strips the
# file the way dh_strip does and links it to that file.
build_ids=""
split_debug() {
    id=$(readelf -n "$1" | sed -n 's/^ *Build ID: //p')
    [ -n "$id" ] || { echo "dist: $1 has no build id" >&2; exit 1; }
    debug=$dbgsym/usr/lib/debug/.build-id/$(printf %s "$id" | cut -c1-2)/$(printf %s "$id" | cut -c3-).debug
    mkdir -p "$(dirname "$debug")"
    objcopy --only-keep-debug --compress-debug-sections "$1" "$debug"
    chmod 644 "$debug"
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$1"
    objcopy --add-gnu-debuglink="$debug" "$1"
    build_ids="$build_ids $id"
}
rm -rf "$dbgsym"
split_debug "$tree/bin/rwatch"
split_debug "$tree/lib/rwatch/libRecipeKit.so"
cp "$tree/bin/rwatch" "$deb/usr/bin/rwatch"
cp "$tree/lib/rwatch/libRecipeKit.so" "$deb/usr/lib/rwatch/libRecipeKit.so"

# What Debian's policy asks of the tree: a compressed man page, the
# copyright and changelog, files 0644 and folders 0755 (rwatch 0755).
gzip -9nf "$deb/usr/share/man/man1/rwatch.1"
doc=$deb/usr/share/doc/rwatch
install -d "$doc"
install -m 644 "$here/copyright" "$doc/copyright"
{
    printf 'rwatch (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * rwatch %s, commit %s.\n\n' "$version" "$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    printf ' -- %s  %s\n' "$DEB_MAINTAINER" "$(date -R -u -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$doc/changelog.gz"
# The tarball's watchman, in a folder of its own: not in bin/, where it
# would take the name from a watchman the user has.
compat=$tree/libexec/rwatch/watchman-compat
mkdir -p "$compat" && ln -sf ../../../bin/rwatch "$compat/watchman"
for t in "$tree" "$deb" "$dbgsym"; do
    find "$t" -type d -exec chmod 755 {} +
    find "$t" -type f -exec chmod 644 {} +
done
chmod 755 "$tree/bin/rwatch" "$deb/usr/bin/rwatch"

# Depends: the shared libraries the binary needs (libRecipeKit.so needs
# the Swift runtime besides, which only a toolchain brings: Suggests),
# with the lowest versions this machine's symbols files allow.
# dpkg-shlibdeps expects a source tree, the package's files in debian/rwatch.
shlibs=$stage/shlibs
rm -rf "$shlibs" && mkdir -p "$shlibs/debian" "$deb/DEBIAN"
ln -s "$deb" "$shlibs/debian/rwatch"
printf 'Source: rwatch\n\nPackage: rwatch\nArchitecture: any\n' > "$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O debian/rwatch/usr/bin/rwatch | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "dist: dpkg-shlibdeps found no dependency" >&2; exit 1; }

# $1: the tree, $2: the architecture if not the build's; prints the
# control fields every package shares.
common_fields() {
    printf 'Version: %s\nArchitecture: %s\nMaintainer: %s\n' "$version" "${2:-$arch}" "$DEB_MAINTAINER"
    printf 'Installed-Size: %s\n' "$(du -sk --exclude=DEBIAN "$1" | cut -f1)"
}
# $1: the tree; writes DEBIAN/md5sums of its files, or none for a tree
# of links only, as dh_md5sums does.
md5sums() {
    (cd "$1" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 -r md5sum) > "$1/DEBIAN/md5sums"
    chmod 644 "$1/DEBIAN/md5sums"
    [ -s "$1/DEBIAN/md5sums" ] || rm "$1/DEBIAN/md5sums"
}

mkdir -p "$deb/DEBIAN"
{
    printf 'Package: rwatch\n'
    common_fields "$deb"
    printf 'Depends: %s\n' "$depends"
    printf 'Suggests: libnotify-bin, swiftlang (>= %s), swiftlang (<< %s+)\n' "$swift_version" "$swift_version"
    printf 'Section: utils\nPriority: optional\n'
    cat "$here/description"
} > "$deb/DEBIAN/control"
md5sums "$deb"

mkdir -p "$dbgsym/DEBIAN" "$dbgsym/usr/share/doc"
ln -s rwatch "$dbgsym/usr/share/doc/rwatch-dbgsym"
{
    printf 'Package: rwatch-dbgsym\nSource: rwatch\n'
    common_fields "$dbgsym"
    printf 'Depends: rwatch (= %s)\nSection: debug\nPriority: optional\n' "$version"
    printf 'Auto-Built-Package: debug-symbols\nBuild-Ids:%s\n' "$build_ids"
    printf 'Description: debug symbols for rwatch\n'
} > "$dbgsym/DEBIAN/control"
md5sums "$dbgsym"

# rwatch-watchman: links only, so Architecture: all. Run as watchman,
# rwatch is watchman's command line (WATCHMAN COMMAND in its man page);
# Provides lets python3-pywatchman and the like install on it, Conflicts
# and Replaces keep Debian's watchman from holding the same command.
# Relative links, as policy asks; the doc folder links to rwatch's, as
# the = Depends allows.
watchman=$stage/watchman
rm -rf "$watchman"
mkdir -p "$watchman/DEBIAN" "$watchman/usr/bin" "$watchman/usr/share/man/man1" "$watchman/usr/share/doc"
ln -s rwatch "$watchman/usr/bin/watchman"
ln -s rwatch.1.gz "$watchman/usr/share/man/man1/watchman.1.gz"
ln -s rwatch "$watchman/usr/share/doc/rwatch-watchman"
find "$watchman" -type d -exec chmod 755 {} +
{
    printf 'Package: rwatch-watchman\nSource: rwatch\n'
    common_fields "$watchman" all
    printf 'Depends: rwatch (= %s)\nProvides: watchman\nConflicts: watchman\nReplaces: watchman\n' "$version"
    printf 'Section: utils\nPriority: optional\n'
    cat "$here/description-watchman"
} > "$watchman/DEBIAN/control"
md5sums "$watchman"

package=rwatch_${version}_$arch.deb debug=rwatch-dbgsym_${version}_$arch.deb tarball=rwatch-$version-linux-$machine.tar.gz
watchman_deb=rwatch-watchman_${version}_all.deb
dpkg-deb --build --root-owner-group -Zxz "$deb" "$out/$package" >/dev/null
dpkg-deb --build --root-owner-group -Zxz "$dbgsym" "$out/$debug" >/dev/null
dpkg-deb --build --root-owner-group -Zxz "$watchman" "$out/$watchman_deb" >/dev/null

# Files only, no folder entries: untarring into ~/.local creates what is
# missing and leaves the modes of bin/, share/… that exist as they are.
(cd "$tree" && find . ! -type d -printf '%P\n' | LC_ALL=C sort > "$stage/tar-files")
tar --create --no-recursion --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -C "$tree" -T "$stage/tar-files" | gzip -9n > "$out/$tarball"

(cd "$out" && sha256sum "$package" "$debug" "$watchman_deb" "$tarball" > SHA256SUMS)
(cd "$out" && ls -l "$package" "$debug" "$watchman_deb" "$tarball" SHA256SUMS)
