#!/bin/sh
# tools/setup.sh --jobs J reaches the build, the suite and the report, and a
# --jobs that is not a number is refused: setup.sh runs with stand-ins for
# dpkg-query, meson and the scanlab executable that record their command
# lines (nothing is installed or built).
#
#   setup_test.sh SOURCE_ROOT
set -eu
exec 2>&1
root=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scanlab-setup-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
mkdir "$tmp/bin" "$tmp/build"
: >"$tmp/build/build.ninja"
cat >"$tmp/bin/dpkg-query" <<'STUB'
#!/bin/sh
printf 'install ok installed'
STUB
cat >"$tmp/bin/meson" <<'STUB'
#!/bin/sh
echo "meson $*" >>"$SETUP_LOG"
[ "$1" = introspect ] && echo '[{"name": "cuda", "value": "disabled"}]'
exit 0
STUB
cat >"$tmp/build/scanlab" <<'STUB'
#!/bin/sh
echo "scanlab $*" >>"$SETUP_LOG"
STUB
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/meson" "$tmp/build/scanlab"
# python3 and the shell's tools from the system; no nvcc, no nvidia-smi
PATH=$tmp/bin:/usr/bin:/bin
SCANLAB_BUILD=$tmp/build
SETUP_LOG=$tmp/log
export PATH SCANLAB_BUILD SETUP_LOG

fail() {
    echo "FAIL: $*"
    echo "log:"
    cat "$tmp/log" 2>/dev/null || true
    exit 1
}
has() { grep -qF -- "$1" "$tmp/log" || fail "no '$1' in the log"; }

: >"$tmp/log"
sh "$root/tools/setup.sh" test --no-cuda --jobs 3 >"$tmp/out" 2>&1 || fail "test --jobs 3: $(cat "$tmp/out")"
has "meson compile -C $tmp/build -j 3"
has "meson test -C $tmp/build --print-errorlogs --num-processes 3"

: >"$tmp/log"
sh "$root/tools/setup.sh" report --jobs=2 --quick --no-cuda >"$tmp/out" 2>&1 || fail "report: $(cat "$tmp/out")"
has "meson compile -C $tmp/build -j 2"
has "scanlab report -o report --jobs 2 --quick"

: >"$tmp/log"
sh "$root/tools/setup.sh" build --no-cuda >"$tmp/out" 2>&1 || fail "build: $(cat "$tmp/out")"
grep -q -- "-j" "$tmp/log" && fail "build without --jobs passed -j"

for bad in 0 x 2x ""; do
    : >"$tmp/log"
    if sh "$root/tools/setup.sh" build --no-cuda --jobs "$bad" >"$tmp/out" 2>&1; then
        fail "--jobs '$bad' was taken"
    fi
    grep -q "setup: --jobs" "$tmp/out" || fail "--jobs '$bad': $(cat "$tmp/out")"
    [ -s "$tmp/log" ] && fail "--jobs '$bad' ran something"
done
echo "ok: --jobs reaches meson compile, meson test and scanlab report"
