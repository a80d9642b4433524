#!/bin/sh
# Packs the binaries of a CUDA build that the GPU stages run
# (tools/gpu-check.sh prebuilt ...) into .carry/bin.tar.xz (git-ignored), so
# that a GPU host runs them without building: the scanlab command, the test
# executables that exercise the GPU, and the fidelity tools. Stripped and
# compressed: a few MB.
#
#   tools/gpu-carry.sh [BUILD]     (default: build, configured with CUDA)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
grep -q 'define SCANLAB_HAVE_CUDA 1' "$build/config.h" || { echo "gpu-carry: $build is not a CUDA build" >&2; exit 2; }
# (the build recompiles a CUDA object whose headers changed: meson.build)
ninja -C "$build" >/dev/null
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for f in scanlab tests/cross/test_sim_cuda tests/cross/test_adversary tests/cross/test_bench_cuda \
    tools/fidelity_run tools/fidelity_ubench; do
    mkdir -p "$stage/$(dirname "$f")"
    cp "$build/$f" "$stage/$f"
    strip "$stage/$f"
done
mkdir -p "$root/.carry"
tar -C "$stage" -cJf "$root/.carry/bin.tar.xz" .
ls -l "$root/.carry/bin.tar.xz"
