#!/bin/bash
# Builds, checks and times everything that needs a GPU, in one go, on a GPU
# host (Hopper by default). Results go to $OUT (default ./gpu-results):
#   summary.txt  one line per stage with its status and time
#   tests.log    the test suite with the CUDA backend live
#   verify.log   scanlab verify on seq, sim and cuda (standard sizes, 2^24,
#                2^28 and above 2^31 for the device-level scans)
#   bench.log    the OpenMP benchmark on all cores, and the GPU benchmarks
#   sass.log     dialect kernel against its hand-written twin, SASS counts
#   cub.log      cub::DeviceScan through the harness, and run-to-run
#                determinism of float scans, ours against CUB's
#   report.tar.gz  scanlab report with the GPU section live
#   fidelity-*     the simulator's counts against Nsight Compute's, and the
#                  time model's constants (tools/fidelity.sh says which files)
#
# The host needs MPFR/GMP/cmocka headers: tools/gpu-deps.sh unpacks them into
# .carry/root on a Debian machine; this script points the compiler there.
#
#   tools/gpu-check.sh [stage ...]    stages: build test verify bench sass cub report
#                                     fidelity (default all)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-results}
mkdir -p "$out"
cd "$root"

carry=$root/.carry/root
if [ -d "$carry" ]; then
    export CPATH=$carry/usr/include:$carry/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}
    export LIBRARY_PATH=$carry/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}
    export LD_LIBRARY_PATH=$carry/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export PATH=/usr/local/cuda/bin:$PATH
build=$root/build-gpu
stages=${*:-build test verify bench sass cub report fidelity}
summary=$out/summary.txt
: >"$summary"

stage() { # name, command...
    local name=$1
    shift
    local t0=$SECONDS
    "$@"
    local rc=$?
    printf '%-8s rc=%-3d %4ds\n' "$name" "$rc" $((SECONDS - t0)) | tee -a "$summary"
    return $rc
}

do_build() {
    {
        nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv
        nproc
        [ -f "$build/build.ninja" ] || meson setup "$build" -Dcuda=enabled -Dgpu_arch=90
        meson compile -C "$build" -j "$(nproc)"
    } >"$out/build.log" 2>&1
}

do_test() {
    meson test -C "$build" --num-processes 8 --print-errorlogs >"$out/tests.log" 2>&1
    local rc=$?
    cp "$build/meson-logs/testlog.txt" "$out/testlog.txt" 2>/dev/null
    return $rc
}

do_verify() {
    local s=$build/scanlab rc=0
    local device=hierarchical,reduce-then-scan,two-level,chained-static,chained-ticket,lookback
    {
        echo "== standard sizes, every algorithm, seq sim cuda, inclusive and exclusive"
        "$s" verify --algo all --backend seq,sim,cuda --both --seed 1 --jobs 8 || rc=1
        echo "== 2^24 and 2^24 - 1: every algorithm on cuda"
        "$s" verify --algo all --backend cuda --type i32,f32 --op add --sizes 2^24,16777215 --seed 2 --jobs 4 || rc=1
        "$s" verify --algo all --backend cuda --type i64 --op affine --exclusive --sizes 2^24 --seed 2 --jobs 4 || rc=1
        echo "== 2^28: device-level scans on cuda"
        "$s" verify --algo $device --backend cuda --type i32 --op add --sizes 2^28 --seed 3 || rc=1
        echo "== above 2^31 elements: device-level scans on cuda (64-bit offsets)"
        "$s" verify --algo $device --backend cuda --type i32 --op add --sizes 2147483713 --seed 4 || rc=1
        echo "== run-to-run determinism of float add on cuda (K = 5)"
        "$s" verify --algo all --backend cuda --type f32 --op add --sizes 1000000 --repeat 5 --seed 5 || rc=1
    } >"$out/verify.log" 2>&1
    return $rc
}

do_bench() {
    local s=$build/scanlab rc=0
    {
        echo "== OpenMP, n = 2^28 i64 add, all cores"
        "$s" bench --backend omp --n 268435456 --type i64 --threads "$(nproc)" || rc=1
        "$s" bench --backend omp --n 268435456 --type i64 --threads "$(nproc)" --json || rc=1
        echo "== simulator speed"
        "$s" bench --backend sim || rc=1
    } >"$out/bench.log" 2>&1
    return $rc
}

do_cub() {
    local s=$build/scanlab rc=0
    {
        echo "== cub::DeviceScan through the harness: every type, operator and kind"
        "$s" verify --algo cub --backend cuda --both --seed 6 || rc=1
        echo "== cub above 2^31 elements"
        "$s" verify --algo cub --backend cuda --type i32 --op add --sizes 2147483713 --seed 7 || rc=1
        echo "== run-to-run determinism of float add, ours against CUB (K = 10, n = 2^24)"
        "$s" verify --algo cub,lookback,chained-ticket,reduce-then-scan,hierarchical,two-level --backend cuda \
            --type f32,f64 --op add --sizes 2^24 --repeat 10 --seed 8 || rc=1
        echo "== compensated (TwoSum pairs) on the GPU: the accuracy reference point"
        "$s" verify --algo compensated --backend cuda --type f32,f64 --op add --both --seed 9 || rc=1
        "$s" accuracy --algo compensated,lookback,reduce-then-scan,sequential --backend seq,cuda \
            --type f32 --dist uniform01,lognormal --n 2^10,2^16,2^20,2^24 --seeds 2 || rc=1
    } >"$out/cub.log" 2>&1
    return $rc
}

do_report() {
    rm -rf "$root/report-gpu"
    "$build/scanlab" report -o "$root/report-gpu" >"$out/report.log" 2>&1
    local rc=$?
    tar -czf "$out/report.tar.gz" -C "$root" report-gpu 2>/dev/null
    return $rc
}

do_sass() {
    sh "$root/cuda/sass_check/compare.sh" 90 >"$out/sass.log" 2>&1
}

# The simulator against the GPU's counters (docs/model-fidelity.md): about
# three minutes on a 16-core H100 host; bounded, so that it cannot hang.
do_fidelity() {
    FIDELITY_BUDGET=${FIDELITY_BUDGET:-180} timeout -k 10 300 bash "$root/tools/fidelity.sh" "$build" "$out"
}

status=0
for st in $stages; do
    case $st in
    build) stage build do_build || { status=1; break; } ;;
    test) stage test do_test || status=1 ;;
    verify) stage verify do_verify || status=1 ;;
    bench) stage bench do_bench || status=1 ;;
    sass) stage sass do_sass || status=1 ;;
    cub) stage cub do_cub || status=1 ;;
    report) stage report do_report || status=1 ;;
    fidelity) stage fidelity do_fidelity || status=1 ;;
    *) echo "unknown stage $st" >&2; exit 2 ;;
    esac
done
exit $status
