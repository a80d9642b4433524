#!/bin/sh
# Installs what is missing, builds, and runs one job.
#
#   tools/setup.sh report   build, then write the report (the main job)
#   tools/setup.sh test     build, then run the whole test suite
#   tools/setup.sh build    build only
#
# Debian packages are installed only when missing (silently when all are
# present). CUDA is used when nvcc is found (on PATH or in /usr/local/cuda);
# without it the CUDA backend is left out and its tests skip.
set -eu

job=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SCANLAB_BUILD:-$root/build}

packages="gcc g++ libc6-dev meson ninja-build pkg-config python3 libcmocka-dev libmpfr-dev libgmp-dev gcovr gnuplot-nox"

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then
        sudo="sudo"
    fi
    echo "setup: installing$missing" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    PATH=/usr/local/cuda/bin:$PATH
    export PATH
fi

if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$root" >/dev/null
fi
meson compile -C "$build" >/dev/null || meson compile -C "$build"

case "$job" in
build) ;;
test)
    meson test -C "$build" --print-errorlogs --num-processes "$(nproc)"
    ;;
report)
    shift
    "$build/scanlab" report -o report "$@"
    ;;
*)
    echo "usage: tools/setup.sh report|test|build" >&2
    exit 2
    ;;
esac
