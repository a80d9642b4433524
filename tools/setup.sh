#!/bin/sh
# Installs what is missing, builds, and runs one job.
#
#   tools/setup.sh report [--cuda|--no-cuda] [--jobs J] [report options]   build, then write the report
#   tools/setup.sh test   [--cuda|--no-cuda] [--jobs J]                    build, then run the whole suite
#   tools/setup.sh build  [--cuda|--no-cuda] [--jobs J]                    build only
#
# --jobs J (or --jobs=J): at most J compilers, tests or threads at once (the
# build, the suite and the report's OpenMP scans); default: every CPU.
# Debian packages are installed only when missing. The CUDA backend is
# built when asked (--cuda), or when nvcc is found and a GPU is present;
# --no-cuda leaves it out. Without a GPU its tests skip, and building it
# takes several times longer, so it is left out unless asked. The choice
# and its reason are printed; the build prints its progress.
set -eu

job=${1:-build}
[ $# -gt 0 ] && shift
cuda=auto
jobs=""
jobs_given=false
want_jobs=false
# the options of this script; the others stay in "$@" for the report
for arg in "$@"; do
    shift
    if $want_jobs; then
        jobs=$arg
        jobs_given=true
        want_jobs=false
        continue
    fi
    case "$arg" in
    --cuda) cuda=on ;;
    --no-cuda) cuda=off ;;
    --jobs) want_jobs=true ;;
    --jobs=*)
        jobs=${arg#--jobs=}
        jobs_given=true
        ;;
    *) set -- "$@" "$arg" ;;
    esac
done
if $want_jobs; then
    echo "setup: --jobs needs a number" >&2
    exit 2
fi
if $jobs_given; then
    case "$jobs" in
    "" | *[!0-9]* | 0*)
        echo "setup: --jobs '$jobs': give a whole number from 1" >&2
        exit 2
        ;;
    esac
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SCANLAB_BUILD:-$root/build}

case "$job" in
build | test | report) ;;
*)
    echo "usage: tools/setup.sh report|test|build [--cuda|--no-cuda] [--jobs J]" >&2
    exit 2
    ;;
esac

packages="gcc g++ libc6-dev meson ninja-build pkg-config python3 libcmocka-dev libmpfr-dev libgmp-dev gcovr gnuplot-nox
libopenmpi-dev openmpi-bin"

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
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
fi

if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    PATH=/usr/local/cuda/bin:$PATH
    export PATH
fi

# The GPU, if one is present: its name from nvidia-smi.
gpu=""
if command -v nvidia-smi >/dev/null 2>&1; then
    gpu=$(nvidia-smi -L 2>/dev/null | sed -n '1s/ (UUID.*//p') || gpu=""
fi

case "$cuda" in
on)
    if ! command -v nvcc >/dev/null 2>&1; then
        echo "setup: --cuda: nvcc not found (on PATH or in /usr/local/cuda/bin)" >&2
        exit 2
    fi
    why="asked with --cuda"
    ;;
off) why="asked with --no-cuda" ;;
*)
    if ! command -v nvcc >/dev/null 2>&1; then
        cuda=off
        why="nvcc not found; its tests skip"
    elif [ -z "$gpu" ]; then
        cuda=off
        why="no GPU found by nvidia-smi: its tests would skip; --cuda builds it anyway"
    else
        cuda=on
        why="nvcc found and a GPU is present: $gpu"
    fi
    ;;
esac
if [ "$cuda" = on ]; then
    feature=enabled
else
    feature=disabled
fi
echo "setup: CUDA backend $cuda ($why)" >&2

if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$root" -Dcuda=$feature
else
    current=$(meson introspect "$build" --buildoptions | python3 -c \
        'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "cuda"))')
    if [ "$current" != "$feature" ]; then
        meson configure "$build" -Dcuda=$feature
    fi
fi
echo "setup: building in $build${jobs:+ with $jobs jobs}" >&2
meson compile -C "$build" ${jobs:+-j "$jobs"}

case "$job" in
build) ;;
test)
    meson test -C "$build" --print-errorlogs --num-processes "${jobs:-$(nproc)}"
    ;;
report)
    # Built with MPI and given more than one CPU, the report shares its
    # verification, deadlock and accuracy sections across one rank per CPU
    # (docs/scaling.md): the same report, about half the time on two
    # CPUs. A launcher that cannot start here (a container without what
    # Open MPI wants) is found by a first launch of --version, and the
    # report then runs as one process.
    ranks=${jobs:-$(nproc)}
    mpi_flags=""
    [ "$(id -u)" = 0 ] && mpi_flags="--allow-run-as-root"
    if [ "$ranks" -gt 1 ] && "$build/scanlab" --version | grep -q "mpi yes" && command -v mpirun >/dev/null 2>&1 &&
        mpirun $mpi_flags -np "$ranks" "$build/scanlab" --version >/dev/null 2>&1; then
        echo "setup: the report on $ranks MPI ranks" >&2
        mpirun $mpi_flags -np "$ranks" "$build/scanlab" report -o report --jobs 1 "$@"
    else
        "$build/scanlab" report -o report ${jobs:+--jobs "$jobs"} "$@"
    fi
    ;;
esac
