#!/bin/sh
# Builds with coverage (CUDA off: nvcc cannot link gcov-instrumented objects),
# runs the test suite but its heavy suite (the same code at scale, an hour
# instrumented at -O0), and writes under build-coverage/:
#   coverage/index.html   HTML with per-file details
#   coverage.xml          Cobertura XML
#   coverage.json         JSON summary
# then prints line and branch coverage of cuda/ (the kernels, as the
# simulator build compiles them), model/, cpu/ and verify/. 'scanlab report'
# run from the repository root copies the numbers of coverage.json into its
# coverage section.
#
#   sh coverage/run.sh                 build, test, summarise (above)
#   sh coverage/run.sh --from BUILD    summarise what BUILD's suite has run
#                                      already (BUILD configured with
#                                      -Db_coverage=true: CI's sanitizer
#                                      build, so that the suite runs once for
#                                      both; optimised code counts some lines
#                                      as one, so its figures differ a little)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-coverage
out=$build
from=""
if [ "${1:-}" = "--from" ]; then
    [ -n "${2:-}" ] || { echo "coverage: --from needs a build folder" >&2; exit 2; }
    from=$(cd "$2" && pwd)
    ls "$from"/meson-info >/dev/null 2>&1 || { echo "coverage: $2 is not a meson build folder" >&2; exit 2; }
fi
cd "$root"

if [ -n "$from" ]; then
    build=$from
else
    if [ ! -f "$build/build.ninja" ]; then
        meson setup "$build" -Db_coverage=true -Dcuda=disabled -Dbuildtype=debug -Doptimization=0 >/dev/null
    fi
    # The build's output is kept quiet, but on failure its end is shown: the
    # compiler's message is the reason CI gives.
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    if ! meson compile -C "$build" >"$log" 2>&1; then
        echo "coverage: the build failed; the end of its output:" >&2
        grep -v '^\[' "$log" | tail -n 30 >&2
        exit 1
    fi
    # Test failures are the main build's business; coverage is reported either way.
    meson test -C "$build" --num-processes "$(nproc)" --no-suite heavy >/dev/null 2>&1 || true
fi

mkdir -p "$out/coverage"
gcovr --config coverage/gcovr.cfg --root "$root" --object-directory "$build" \
    --html-details "$out/coverage/index.html" \
    --xml "$out/coverage.xml" \
    --json-summary "$out/coverage.json" >/dev/null

python3 - "$out/coverage.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
for folder in ("cuda/", "model/", "cpu/", "verify/"):
    lc = lt = bc = bt = 0
    for f in data["files"]:
        if f["filename"].startswith(folder):
            lc += f["line_covered"]; lt += f["line_total"]
            bc += f["branch_covered"]; bt += f["branch_total"]
    pct = lambda a, b: 100.0 * a / b if b else 0.0
    print("coverage %-8s lines %5.1f%% (%d/%d), branches %5.1f%% (%d/%d)"
          % (folder, pct(lc, lt), lc, lt, pct(bc, bt), bc, bt))
print("coverage report: %s" % "build-coverage/coverage/index.html")
PY
