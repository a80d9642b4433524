#!/bin/sh
# libscanlab as a program outside the project sees it: 'meson install' into
# a temporary DESTDIR, then tests/lib/outside.c compiled with nothing but
# pkg-config's flags, against the shared and against the static library,
# and run with no LD_LIBRARY_PATH, scanlab.pc found where docs/building.md
# says. Also checks that the installed headers are only the public ones.
#
#   install_test.sh BUILD_DIR OUTSIDE_C [MORE_C...]
#
# Each further C file (tests/lib/outside_ptx.c) is built and run the same
# way, against the shared library.
#
# CC names the C compiler; SCANLAB_OUTSIDE_FLAGS adds the flags the library
# was built with that its users need too (sanitizers, coverage).
set -eu
# One stream, so that a failure's message follows the step that printed it.
exec 2>&1
build=$1
src=$2
shift 2
cc=${CC:-cc}
extra=${SCANLAB_OUTSIDE_FLAGS:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scanlab-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

if ! meson install -C "$build" --no-rebuild --destdir "$tmp/root" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    exit 1
fi
# Where docs/building.md says scanlab.pc is: <prefix>/<libdir>/pkgconfig,
# with Meson's libdir of this build (lib/x86_64-linux-gnu on Debian).
option() {
    meson introspect --buildoptions "$build" | python3 -c '
import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}
prefix=$tmp/root$(option prefix)
case $(option libdir) in
/*) libdir=$tmp/root$(option libdir) ;;
*) libdir=$prefix/$(option libdir) ;;
esac
pcfile=$libdir/pkgconfig/scanlab.pc
[ -f "$pcfile" ] || { echo "no $pcfile; installed: $(cd "$tmp/root" && find . -name scanlab.pc)"; exit 1; }
PKG_CONFIG_PATH=$libdir/pkgconfig
export PKG_CONFIG_PATH
# The files lie under DESTDIR: the prefix moves there, and only it (paths
# outside the prefix, such as CUDA's library folder, stay as they are).
pc() { pkg-config --define-variable=prefix="$prefix" "$@" scanlab; }

# The public headers stand alone: nothing of the source tree is installed.
inc=$(find "$tmp/root" -type d -path '*/include/scanlab')
ls "$inc" | sort | tr '\n' ' ' >"$tmp/headers"
expected="exact.h harness.h kernels.h ptx.h scanlab.h simulator.h types.h "
if [ "$(cat "$tmp/headers")" != "$expected" ]; then
    echo "installed headers: $(cat "$tmp/headers"), expected: $expected"
    exit 1
fi
if grep -n '#include "' "$inc"/*.h; then
    echo "an installed header includes a project header"
    exit 1
fi

cflags=$(pc --cflags)
libs=$(pc --libs)
private=$(pc --static --libs | sed 's/-lscanlab//')
echo "cflags: $cflags"
echo "libs: $libs"
echo "static: $libdir/libscanlab.a $private"
step() { echo "step: $*"; }
step "compile against the shared library"
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror $extra $cflags "$src" -o "$tmp/outside-shared" $libs -lm
step "compile against the static library"
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror $extra $cflags "$src" -o "$tmp/outside-static" "$libdir/libscanlab.a" $private -lm

# As a program of the user's runs: nothing in the environment names the
# installed library's folder (scanlab.pc's rpath does).
unset LD_LIBRARY_PATH
step "run the shared build"
"$tmp/outside-shared"
if ! ldd "$tmp/outside-shared" | grep -q "$libdir/libscanlab.so"; then
    echo "the shared build does not load the installed libscanlab.so:"
    ldd "$tmp/outside-shared"
    exit 1
fi
step "run the static build"
"$tmp/outside-static"
for more in "$@"; do
    name=$(basename "$more" .c)
    step "compile and run $name against the shared library"
    # shellcheck disable=SC2086
    $cc -std=c11 -Wall -Wextra -Werror $extra $cflags "$more" -o "$tmp/$name" $libs -lm
    "$tmp/$name"
done
echo "ok: shared and static builds against the installed library"
