#!/bin/sh
# libgranucal.sh - libgranucal as a user gets it: `make install` into a scratch DESTDIR, then
# tests/libgranucal_example.c compiled with `pkg-config --cflags --libs granucal` against the
# installed shared library and, a second time, against the static one, and run (its checks are
# closed forms, see the file).  Also: the shared library exports only granucal_* symbols.
set -u
top=${GC_BUILDDIR:?}
src=${GC_SRCDIR:?}
CC=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gclib.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL libgranucal: $*"; exit 1; }

${MAKE:-make} -s -C "$top" install DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1 ||
  { tail -n 20 "$tmp/install.log"; fail "make install DESTDIR failed"; }
pc=$(find "$tmp/root" -name granucal.pc | head -n 1)
[ -n "$pc" ] || fail "granucal.pc not installed"
hdr=$(find "$tmp/root" -path '*/include/granucal/granucal.h' | head -n 1)
[ -n "$hdr" ] || fail "granucal/granucal.h not installed"
so=$(find "$tmp/root" -name 'libgranucal.so.*' -type f | head -n 1)
[ -n "$so" ] || fail "libgranucal.so not installed"
libdir=$(dirname "$so")
[ -f "$libdir/libgranucal.a" ] || fail "libgranucal.a not installed"

export PKG_CONFIG_SYSROOT_DIR="$tmp/root" PKG_CONFIG_PATH="$(dirname "$pc")"
pkg-config --exists granucal || fail "pkg-config does not find granucal.pc"
echo "pkg-config granucal $(pkg-config --modversion granucal): $(pkg-config --cflags --libs granucal)"

# only the API is exported (internals do not leak)
leaked=$(nm -D --defined-only "$so" | awk '$2 == "T" || $2 == "D" || $2 == "B" { print $3 }' | grep -v '^granucal_' | head -n 5)
[ -z "$leaked" ] || fail "non-API symbols exported: $leaked"

# shared
# shellcheck disable=SC2046,SC2086
$CC -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror ${SAN_CFLAGS:-} "$src/tests/libgranucal_example.c" \
  $(pkg-config --cflags --libs granucal) -lm -o "$tmp/example" || fail "cannot build against the shared library"
LD_LIBRARY_PATH="$libdir" "$tmp/example" || fail "example (shared) failed"
# static
# shellcheck disable=SC2046,SC2086
$CC -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror ${SAN_CFLAGS:-} "$src/tests/libgranucal_example.c" \
  $(pkg-config --cflags granucal) "$libdir/libgranucal.a" $(pkg-config --static --libs granucal | sed 's/-lgranucal//') \
  -lm -o "$tmp/example-static" || fail "cannot build against the static library"
"$tmp/example-static" >/dev/null || fail "example (static) failed"
echo "PASS libgranucal: installed, pkg-config, shared and static example"
