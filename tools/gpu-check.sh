#!/bin/bash
# Builds, checks and times everything that needs a GPU, in one go, on a GPU
# host (Hopper by default). Results go to $OUT (default ./gpu-results):
#   summary.txt  one line per stage with its status and time
#   tests.log    the test suite with the CUDA backend live
#   verify.log   scanlab verify on seq, sim and cuda (standard sizes, 2^24,
#                2^28 for the device-level scans)
#   verify-huge.log  the device-level scans above 2^31 elements (stage huge)
#   bench.log    the OpenMP benchmark on all cores, and the simulator's speed
#   gpubench.log scanlab bench --backend cuda: the GPU scans against a device
#                copy and CUB (tables), gpubench/*.json the same as JSON
#   experiments.log  the Sengupta-Lefohn-Owens pass sweep and Merry's block
#                count sweep on the GPU, with the simulator's work and steps
#                (experiments/*.json)
#   bench-h100.json  everything of gpubench and experiments in one document
#                (bench-gpu.json on another GPU): docs/data/bench-h100.json,
#                from which tools/perf_doc.py makes docs/performance.md's
#                GPU tables and plot
#   sass.log     dialect kernel against its hand-written twin, SASS counts
#   cub.log      cub::DeviceScan through the harness, and run-to-run
#                determinism of float scans, ours against CUB's
#   report.tar.gz  scanlab report with the GPU section live
#   fidelity-*     the simulator's counts against Nsight Compute's, and the
#                  time model's constants (tools/fidelity.sh says which files)
#   issue-profile.json  where the scans' time goes at 2^24: instructions
#                  issued, issue rate and stall reasons (tools/issue-profile.sh)
#   app-profile.json  the same for the applications' kernels beside CUB's
#                  (tools/app-profile.sh, stage appprofile, not run by default)
#   fidelity-cub-*  CUB's DeviceScan launches under Nsight Compute, for
#                  tools/fidelity-cub.sh --compare (stage cubfid, not run by
#                  default; needs no build of scanlab: nvcc and ncu)
#   gputests.log the test executables that exercise the GPU (sim against cuda
#                bit for bit, bench --backend cuda, adversarial dispatch)
#   simspeed.log the simulator's speed on this host's CPU, dialect and PTX
#                paths (stage simspeed, not run by default)
#   multigpu.log the multi-gpu scan checked on 2 or 4 GPUs and its benchmark
#                across GPUs (stage multigpu, not run by default);
#                bench-multi-gpu.json the benchmark, docs/data/bench-multi-gpu.json
#   ptxisa.log   the PTX instruction test set run on this GPU
#                (ptx-isa-h100.txt) against tests/ptx/isa/h100.txt, the
#                results the simulator is checked against
#   scaling.log, scaling.json  the exhaustive schedule search on 1 to 16
#                MPI ranks of this host's CPU (stage scaling, not run by
#                default: needs .carry/mpi from tools/gpu-mpi.sh)
#   litmus.log   the PTX litmus tests (tests/litmus/tests) run on this GPU by
#                tools/litmus_gpu, at least 10^6 times each under stress,
#                against the model: scanlab litmus --observed (a finding is
#                an outcome the model forbids); litmus-h100.json the outcomes
#                with their counts (docs/data/litmus-h100.json; litmus-gpu.json
#                on another GPU), litmus-run.log the runner's own output,
#                litmus-observed.json the comparison as JSON,
#                litmus-weak-{fence,scope}.log the same against the
#                deliberately weakened models (recorded, not judged);
#                litmus-progress.log the progress tests (tests/litmus/progress)
#                on the GPU with bounded spins against scanlab's progress
#                models (tools/progress_observed.py), litmus-progress-x{1,4}.json
#                the runs (docs/data/litmus-progress-h100.json)
#   sanitize-*.log compute-sanitizer's memcheck, racecheck and synccheck over
#                every kernel of the catalogue (scanlab verify on cuda)
#
# A CUDA build made elsewhere can travel instead of building here:
# tools/gpu-carry.sh packs the binaries these stages run into
# .carry/bin.tar.xz, and the stage `prebuilt` unpacks them into build-gpu.
#
# The host needs MPFR/GMP/cmocka headers: tools/gpu-deps.sh unpacks them into
# .carry/root on a Debian machine; this script points the compiler there.
#
#   tools/gpu-check.sh [stage ...]    stages: build prebuilt test gputests ptxisa verify huge
#                                     bench gpubench experiments sass cub report fidelity
#                                     sanitize litmus progress tune issue appprofile simspeed
#                                     scaling cubfid (default: build and all but prebuilt,
#                                     litmus, progress, tune,
#                                     issue, appprofile, simspeed, scaling and cubfid)
#
# Every command of the GPU stages runs under a time limit (`limit`), so no
# stage can hang; a kernel's own waits give up with SL_ERR_TIMEOUT first.
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
stages=${*:-build test gputests ptxisa verify huge bench gpubench experiments sass cub report fidelity sanitize}
summary=$out/summary.txt
: >"$summary"

# limit SECONDS command...: the command, killed when it runs longer
limit() {
    local secs=$1
    shift
    timeout --kill-after=10 "$secs" "$@"
    local rc=$?
    [ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "!! killed after ${secs}s: $*" >&2
    return $rc
}

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

do_prebuilt() {
    {
        nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv
        mkdir -p "$build" && tar -C "$build" -xJf "$root/.carry/bin.tar.xz" && find "$build" -type f | sort
    } >"$out/build.log" 2>&1
}

# The test executables that need a GPU, run directly (a build made
# elsewhere has no meson set-up here).
do_gputests() {
    local rc=0 t
    {
        for t in tests/cross/test_sim_cuda tests/cross/test_adversary; do
            echo "== $t"
            [ -x "$build/$t" ] || { echo "missing"; rc=1; continue; }
            limit 240 "$build/$t" || rc=1
        done
        echo "== tests/cross/test_bench_cuda"
        limit 240 "$build/tests/cross/test_bench_cuda" "$build/scanlab" || rc=1
    } >"$out/gputests.log" 2>&1
    return $rc
}

# The PTX instruction test set (tests/ptx/isa) on this GPU, against the
# results recorded there (h100.txt): the simulator is checked against those,
# so a difference means they no longer hold for this GPU and driver. Needs
# nvcc alone, not the build.
do_ptxisa() {
    local bin=$build/ptx_isa_gpu res=$out/ptx-isa-h100.txt
    mkdir -p "$build"
    {
        nvcc -O2 -o "$bin" "$root/tools/ptx_isa_gpu.cu" -lcuda && limit 300 "$bin" "$root/tests/ptx/isa" "$res" ||
            return 1
        # the first forms whose results differ, each line cut short
        diff <(grep -v '^#' "$root/tests/ptx/isa/h100.txt") <(grep -v '^#' "$res") | cut -c1-240 | head -40
        [ "${PIPESTATUS[0]}" -eq 0 ]
    } >"$out/ptxisa.log" 2>&1
}

# The simulator's speed on this host's CPU, a quiet one: the block-level
# Brent-Kung scan from its dialect build and from nvcc's PTX, one core.
do_simspeed() {
    {
        # the catalogue's PTX is made for the tests that read it, not by default
        ninja -C "$build" $(ninja -C "$build" -t targets all | grep -o '^tests/ptx/[a-z_0-9]*\.ptx') >/dev/null ||
            return 1
        echo "== SCANLAB_PTX_DIR=\$build/tests/ptx scanlab bench --backend sim --n 2^22 --repeat 3"
        SCANLAB_PTX_DIR=$build/tests/ptx limit 400 "$build/scanlab" bench --backend sim --n 4194304 --repeat 3
    } >"$out/simspeed.log" 2>&1
}

# The exhaustive schedule search split across MPI ranks on this host's
# cores: lookback at G blocks under fair, on 1, 2, 4, ... ranks (one run
# each, bounded), the wall time, states and verdict of each in
# scaling.json. The host has no MPI: tools/gpu-mpi.sh carries Debian's Open
# MPI and an MPI build of scanlab (no GPU needed) in .carry/mpi, found
# through OPAL_PREFIX and PMIx's plugin path. SCALING_RANKS, SCALING_BLOCKS
# and SCALING_SECONDS (each run's limit) change what is measured.
do_scaling() {
    local m=$root/.carry/mpi np rc=0
    local lib=$m/root/usr/lib/x86_64-linux-gnu
    [ -x "$m/scanlab" ] || { echo "no .carry/mpi/scanlab: run tools/gpu-mpi.sh and carry .carry" >"$out/scaling.log"; return 1; }
    local runs
    runs=$(mktemp -d)
    (
        export OPAL_PREFIX=$m/root/usr PATH=$m/root/usr/bin:$PATH
        export LD_LIBRARY_PATH=$lib:$lib/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
        export PMIX_MCA_mca_base_component_path=$lib/pmix2/lib/pmix
        export OMPI_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
        nproc
        for np in ${SCALING_RANKS:-1 2 4 8 16}; do
            echo "== mpirun -np $np scanlab deadlock --exhaustive --algo lookback --blocks ${SCALING_BLOCKS:-10} --model fair --json"
            local t0=$EPOCHREALTIME
            limit "${SCALING_SECONDS:-590}" orterun --allow-run-as-root --oversubscribe --bind-to core -np "$np" \
                "$m/scanlab" deadlock --exhaustive --algo lookback --blocks "${SCALING_BLOCKS:-10}" --model fair \
                --budget "${SCALING_SECONDS:-590}" --json >"$runs/np$np.json"
            echo "exit $? wall $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')"
        done
    ) >"$out/scaling.log" 2>&1 || rc=1
    python3 - "$runs" "$out/scaling.log" >"$out/scaling.json" <<'PY' || rc=1
# one row per rank count: wall time (from the log), states, verdict
import json, os, re, sys
d, log = sys.argv[1], open(sys.argv[2]).read()
walls = {int(m.group(1)): (int(m.group(2)), float(m.group(3)))
         for m in re.finditer(r"== mpirun -np (\d+) .*?\nexit (\d+) wall ([0-9.]+)", log, re.S)}
rows = []
for np, (rc, wall) in sorted(walls.items()):
    r = {"ranks": np, "exit": rc, "wall_s": wall}
    try:
        res = json.load(open(os.path.join(d, "np%d.json" % np)))["results"][0]
        r.update({k: res.get(k) for k in ("verdict", "states", "schedules", "seconds", "blocks")})
    except (OSError, ValueError, KeyError, IndexError) as e:
        r["error"] = str(e)
    rows.append(r)
json.dump({"command": "mpirun -np P scanlab deadlock --exhaustive --algo lookback --model fair", "rows": rows},
          sys.stdout, indent=1)
PY
    rm -rf "$runs"
    grep -q '"exit": [1-9]' "$out/scaling.json" && rc=1
    return $rc
}

# The PTX litmus tests on this GPU (docs/memory-model.md, "The litmus
# campaign on the GPU"). tools/litmus_gpu, built here by nvcc (host code
# alone: it opens the driver itself, no CUDA runtime) from its
# sources and the project's own litmus parser and translation (no meson
# build needed), runs every test of tests/litmus/tests at least 10^6 times
# under stress; scanlab litmus --observed then fails on any outcome the
# model forbids. The same comparison against the deliberately weakened
# models shows whether the GPU's outcomes would catch a wrong model: exit 1
# there is the answer "yes", recorded, not a failure. LITMUS_ARGS adds
# runner options (--runs, --seconds, --seed, --stress-iters ...);
# LITMUS_SECONDS bounds the runner (default 330 s). At the defaults a test
# stops at 5*10^6 runs, or after 4 s once it has 10^6: the 42 tests take
# at most about 3 minutes unless 10^6 runs of one take longer.
# tools/litmus_gpu into $1, by nvcc as a host compiler: the runner's
# sources with the project's litmus parser and translation.
build_litmus_runner() {
    echo "== nvcc: tools/litmus_gpu with model/litmus and verify/formats/json.c"
    if ! nvcc -O2 -cudart none -I"$root" -o "$1" "$root"/tools/litmus_gpu/{main,driver,kernel,place,outcomes}.c \
        "$root"/model/litmus/{parse,ptxgen,alloy}.c "$root"/verify/formats/json.c -ldl -lm; then
        echo "!! the runner does not build"
        return 1
    fi
}

do_litmus() {
    local bin=$build/litmus_gpu s=$build/scanlab rc=0 name=litmus-gpu.json json w
    local tests=("$root"/tests/litmus/tests/*.litmus)
    nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | grep -q H100 && name=litmus-h100.json
    json=$out/$name
    rm -f "$json"
    mkdir -p "$build"
    {
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
        build_litmus_runner "$bin" || return 1
        echo "== litmus_gpu --out $json ${LITMUS_ARGS:-} (${#tests[@]} tests)"
        # word splitting of LITMUS_ARGS is wanted: several options
        limit "${LITMUS_SECONDS:-330}" "$bin" --out "$json" ${LITMUS_ARGS:-} "${tests[@]}"
        echo "exit $?"
    } >"$out/litmus-run.log" 2>&1
    grep -q '^exit 0$' "$out/litmus-run.log" || rc=1
    if [ ! -s "$json" ]; then
        echo "!! no $json: see litmus-run.log" >"$out/litmus.log"
        return 1
    fi
    if [ ! -x "$s" ]; then
        echo "!! no $s: the stage build makes it" >"$out/litmus.log"
        return 1
    fi
    {
        python3 - "$json" <<'PY'
# what the GPU ran, and the states it showed that satisfy a test's body
# (for exists tests the weak outcome the test asks about)
import json, sys
d = json.load(open(sys.argv[1]))
print("%s: %d tests run, %d skipped, complete: %s, seed %d" % (d["device"], len(d["tests"]), len(d["skipped"]),
                                                                d["complete"], d["seed"]))
for t in d["tests"]:
    body = [o for o in t["outcomes"] if o["satisfies_body"]]
    print("  %-32s %10d runs %3d outcomes%s" % (t["name"], t["runs"], len(t["outcomes"]),
          "; the body: " + ", ".join("%s (%d)" % (o["state"], o["count"]) for o in body) if body else ""))
for t in d["skipped"]:
    print("  %-32s skipped: %s" % (t["test"], t["reason"]))
PY
        echo "== scanlab litmus --observed $json tests/litmus/tests/*.litmus"
        limit 300 "$s" litmus --observed "$json" "${tests[@]}"
        echo "exit $?"
    } >"$out/litmus.log" 2>&1
    grep -q '^exit 0$' "$out/litmus.log" || rc=1
    limit 300 "$s" litmus --json --observed "$json" "${tests[@]}" >"$out/litmus-observed.json" 2>/dev/null
    for w in fence scope; do
        {
            echo "== SCANLAB_TEST_WEAKEN_MODEL=$w scanlab litmus --observed $json tests/litmus/tests/*.litmus"
            SCANLAB_TEST_WEAKEN_MODEL=$w limit 300 "$s" litmus --observed "$json" "${tests[@]}"
            echo "exit $? (1: the GPU's outcomes include one the weakened model forbids)"
        } >"$out/litmus-weak-$w.log" 2>&1
    done
    return $rc
}

# The progress tests (tests/litmus/progress; stage progress) on this GPU:
# each test's threads in CTAs of their own, started as dispatched, every loop bounded
# (PROGRESS_BOUND label visits a thread, default 2^18, far more than any
# of them needs once the thread it waits for runs); on a grid the GPU
# holds at once and on one four times that, where a CTA may wait for a
# slot. tools/progress_observed.py holds the spins that reached the bound
# against scanlab's verdicts: one obe says terminates is a finding.
# litmus-progress-x1.json, -x4.json the runs; litmus-progress.log the
# comparison.
do_progress() {
    mkdir -p "$build"
    build_litmus_runner "$build/litmus_gpu" >"$out/litmus-progress-run.log" 2>&1 || return 1
    do_litmus_progress "$build/litmus_gpu"
}

do_litmus_progress() {
    local bin=$1 f rc=0
    local tests=("$root"/tests/litmus/progress/*.litmus)
    for f in 1 4; do
        {
            echo "== litmus_gpu --progress ${PROGRESS_BOUND:-262144} --oversubscribe $f (${#tests[@]} tests)"
            limit 240 "$bin" --out "$out/litmus-progress-x$f.json" --progress "${PROGRESS_BOUND:-262144}" \
                --oversubscribe "$f" --seconds 3 "${tests[@]}"
            echo "exit $?"
        } >>"$out/litmus-progress-run.log" 2>&1
    done
    # every tenth test of the published suite (tests/litmus/published/progress),
    # oversubscribed, where the GPU can show a test not terminating
    local pub=()
    mapfile -t pub < <(ls "$root"/tests/litmus/published/progress/*/*.txt | sort | awk 'NR % 10 == 1')
    {
        echo "== litmus_gpu --progress ${PROGRESS_BOUND:-262144} --oversubscribe 4 (${#pub[@]} published tests)"
        limit 300 "$bin" --out "$out/litmus-progress-published.json" --progress "${PROGRESS_BOUND:-262144}" \
            --oversubscribe 4 --runs 200000 --seconds 1 "${pub[@]}"
        echo "exit $?"
    } >>"$out/litmus-progress-run.log" 2>&1
    {
        echo "== tools/progress_observed.py scanlab litmus-progress-x1.json litmus-progress-x4.json" \
            "litmus-progress-published.json"
        python3 "$root"/tools/progress_observed.py "$build"/scanlab "$out"/litmus-progress-x{1,4}.json \
            "$out"/litmus-progress-published.json
        echo "exit $?"
    } >"$out/litmus-progress.log" 2>&1
    grep -q '^exit 0$' "$out/litmus-progress.log" || rc=1
    return $rc
}

# compute-sanitizer over every kernel that runs on cuda: memcheck (device
# memory errors), racecheck (shared-memory hazards), synccheck (barrier
# misuse); each tool one verify process, bounded in time.
do_sanitize() {
    local rc=0 tool s=$build/scanlab
    for tool in memcheck racecheck synccheck; do
        {
            echo "== compute-sanitizer --tool $tool scanlab verify --algo all --backend cuda ${SANITIZE_ARGS:---type i32 --op add --n 1000,70000}"
            limit "${SANITIZE_SECONDS:-60}" compute-sanitizer --tool "$tool" --error-exitcode 99 \
                --print-limit 20 "$s" verify --algo all --backend cuda ${SANITIZE_ARGS:---type i32 --op add --n 1000,70000} \
                --seed 1 --jobs 1
            echo "exit $?"
        } >"$out/sanitize-$tool.log" 2>&1 || rc=1
        grep -q '^exit 0$' "$out/sanitize-$tool.log" || rc=1
    done
    return $rc
}

do_test() {
    meson test -C "$build" --num-processes 8 --print-errorlogs >"$out/tests.log" 2>&1
    local rc=$?
    cp "$build/meson-logs/testlog.txt" "$out/testlog.txt" 2>/dev/null
    return $rc
}

# The device-level scans: the cases at 2^28 and above 2^31 elements.
device_scans=hierarchical,reduce-then-scan,two-level,chained-static,chained-ticket,lookback,lookback-det

do_verify() {
    local s=$build/scanlab rc=0
    {
        echo "== standard sizes, every algorithm, seq sim cuda, inclusive and exclusive"
        "$s" verify --algo all --backend seq,sim,cuda --both --seed 1 --jobs 8 || rc=1
        echo "== 2^24 and 2^24 - 1: every algorithm on cuda"
        "$s" verify --algo all --backend cuda --type i32,f32 --op add --n 2^24,16777215 --seed 2 --jobs 4 || rc=1
        "$s" verify --algo all --backend cuda --type i64 --op affine --exclusive --n 2^24 --seed 2 --jobs 4 || rc=1
        echo "== 2^28: device-level scans on cuda"
        # one case at a time: each job holds its own buffers of n elements
        "$s" verify --algo $device_scans --backend cuda --type i32 --op add --n 2^28 --seed 3 --jobs 1 || rc=1
        echo "== run-to-run determinism of float add on cuda (K = 5)"
        "$s" verify --algo all --backend cuda --type f32 --op add --n 1000000 --repeat 5 --seed 5 || rc=1
    } >"$out/verify.log" 2>&1
    return $rc
}

# Above 2^31 elements, a stage of its own: about 50 s a case on the H100,
# mostly the host's reference, so that with the stage above it would not
# fit one call of a time-limited GPU host.
do_huge() {
    local s=$build/scanlab
    {
        echo "== above 2^31 elements: device-level scans on cuda (64-bit offsets)"
        "$s" verify --algo $device_scans --backend cuda --type i32 --op add --n 2147483713 --seed 4 --jobs 1
    } >"$out/verify-huge.log" 2>&1
}

do_bench() {
    local s=$build/scanlab rc=0
    {
        echo "== OpenMP, n = 2^28 i64 add, all cores"
        "$s" bench --backend omp --n 268435456 --type i64 --jobs "$(nproc)" || rc=1
        "$s" bench --backend omp --n 268435456 --type i64 --jobs "$(nproc)" --json || rc=1
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
        "$s" verify --algo cub --backend cuda --type i32 --op add --n 2147483713 --seed 7 --jobs 1 || rc=1
        echo "== run-to-run determinism of float add, ours against CUB (K = 10, n = 2^24)"
        "$s" verify --algo cub,lookback,lookback-det,chained-ticket,reduce-then-scan,hierarchical,two-level \
            --backend cuda --type f32,f64 --op add --n 2^24 --repeat 10 --seed 8 || rc=1
        echo "== compensated (TwoSum pairs) on the GPU: the accuracy reference point"
        "$s" verify --algo compensated --backend cuda --type f32,f64 --op add --both --seed 9 || rc=1
        "$s" accuracy --algo compensated,lookback,reduce-then-scan,sequential --backend seq,cuda \
            --type f32 --dist uniform01,lognormal --n 2^10,2^16,2^20,2^24 --inputs 2 || rc=1
    } >"$out/cub.log" 2>&1
    return $rc
}

# bench_json NAME SECONDS args...: one `scanlab bench --backend cuda --json`
# run into $bench_dir/NAME.json (its command beside it, NAME.cmd).
bench_dir=$out/gpubench
bench_json() {
    local name=$1 secs=$2 dir=$bench_dir
    shift 2
    mkdir -p "$dir"
    echo "== scanlab bench --backend cuda $*"
    echo "scanlab bench --backend cuda $* --json" >"$dir/$name.cmd"
    limit "$secs" "$build/scanlab" bench --backend cuda "$@" --json >"$dir/$name.json"
}

# The GPU benchmark: each run first checks every scan's output against
# CUB's (bit for bit; float add within its depth bound) and drops a wrong
# one, then times copy, CUB and the scans interleaved (median of 25 unless
# --reps). Tables for reading in gpubench.log, JSON for the docs.
# GPUBENCH_SETS selects among the sets below (default: all of them).
want_set() { case " ${GPUBENCH_SETS:-main-incl main-excl sizes latency ops repeat above-2g apps apps-sizes select-32bit-bounds sort-sizes-i32 apps-above-2g} " in *" $1 "*) return 0 ;; esac; return 1; }
do_gpubench() {
    local rc=0 all=i32,f32,i64,f64
    bench_dir=$out/gpubench
    rm -rf "$bench_dir"
    {
        nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu --format=csv
        want_set main-incl && { bench_json main-incl 900 --type $all --n 2^28 || rc=1; }
        want_set main-excl && { bench_json main-excl 900 --type $all --n 2^28 --exclusive || rc=1; }
        want_set sizes && { bench_json sizes 900 --algo lookback,lookback-det,reduce-then-scan --type $all \
            --n 2^16,2^18,2^20,2^21,2^22,2^23,2^24,2^25,2^26,2^27,2^28,2^29,2^30 || rc=1; }
        # the same small sizes timed as a caller sees them: launch calls included
        want_set latency && { bench_json latency 300 --algo lookback,lookback-det --type $all --n 2^16,2^18 \
            --timing call || rc=1; }
        want_set ops && { bench_json ops 600 --algo lookback,lookback-det,reduce-then-scan,two-level --type i32,i64 \
            --op max,min,affine --n 2^28 || rc=1; }
        want_set repeat && { bench_json repeat 900 --algo lookback-det,lookback --type f32,f64 --n 2^24,2^28 --repeat 50 || rc=1; }
        want_set above-2g && { bench_json above-2g 600 --algo lookback,lookback-det,reduce-then-scan --type i32 \
            --n 2147483713 || rc=1; }
        # the applications beside CUB's select, partition and radix sort: both families at 2^24, then
        # the single-pass ones over the sizes (each output checked against the host's reference first)
        want_set apps && { bench_json apps 600 --algo compact,compact-3phase,partition,partition-3phase,radix-sort,pack \
            --type $all --n 2^24 --reps 10 || rc=1; }
        want_set apps-sizes && { bench_json apps-sizes 900 --algo compact,partition --type $all \
            --n 2^20,2^22,2^24,2^26,2^28,2^30 || rc=1; }
        want_set select-32bit-bounds && { bench_json select-32bit-bounds 300 --algo compact,partition --type $all \
            --n 2^20,2^24,2^28 --repeat 10 || rc=1; }
        # (each size's output is first checked against the host's sort of it: minutes at 2^30)
        want_set sort-sizes-i32 && { bench_json sort-sizes-i32 300 --algo radix-sort --type i32 \
            --n 2^20,2^22,2^26,2^28 --repeat 5 || rc=1; }
        # past 2^31 elements: 64-bit positions and counts in the single passes
        want_set apps-above-2g && { bench_json apps-above-2g 600 --algo compact,partition --type i32 \
            --n 2147483713 --reps 5 || rc=1; }
        for f in "$out"/gpubench/*.json; do
            [ -f "$f" ] || continue
            echo "== $(cat "${f%.json}.cmd")"
            python3 "$root/tools/perf_doc.py" table "$f" || rc=1
        done
    } >"$out/gpubench.log" 2>&1
    merge_results || rc=1
    return $rc
}
# The seeds' experiments. Sengupta, Lefohn & Owens (2006): reduce passes p
# of their hybrid scan at 2^18 and 2^20 elements, here the sengupta block
# kernel with sections of S = B 2^p elements held fixed (S = 1024: p = 1 ..
# 10; S = 4096: p = 2 .. 12), against the Hillis-Steele (kogge-stone)
# block scan. Merry (2015): the two-level scan against its block count C.
# Beside each GPU time, the simulator's work and steps of the same launch
# (`scanlab simulate --json`, run in parallel on the host's cores).
do_experiments() {
    local rc=0 s=$build/scanlab dir=$out/experiments p b c
    bench_dir=$dir
    rm -rf "$dir" && mkdir -p "$dir"
    {
        for p in 1 2 3 4 5 6 7 8 9 10; do
            b=$((1024 >> p))
            bench_json "sengupta-s1024-p$p" 300 --algo sengupta --block $b --param $p --type f32 --n 2^18,2^20 || rc=1
            echo "sengupta-s1024-p$p sengupta $b $p 2^18 2^20" >>"$dir/sim.list"
        done
        for p in 2 3 4 5 6 7 8 9 10 11 12; do
            b=$((4096 >> p))
            bench_json "sengupta-s4096-p$p" 300 --algo sengupta --block $b --param $p --type f32 --n 2^18,2^20 || rc=1
            echo "sengupta-s4096-p$p sengupta $b $p 2^18 2^20" >>"$dir/sim.list"
        done
        bench_json hillis-steele 300 --algo kogge-stone,kogge-stone-db --block 1024 --type f32 --n 2^18,2^20 || rc=1
        echo "hillis-steele kogge-stone 1024 0 2^18 2^20" >>"$dir/sim.list"
        for c in 33 66 132 264 528 1056 2112 4224 8448 16896; do
            bench_json "two-level-c$c" 300 --algo two-level --param $c --type i32 --n 2^24,2^28 || rc=1
            echo "two-level-c$c two-level 0 $c 2^22" >>"$dir/sim.list"
        done
        echo "== the simulator's work and steps"
        # name algo block param sizes...: one simulate --json per size
        while read -r name algo b p sizes; do
            for n in $sizes; do
                echo "timeout --kill-after=10 600 $s simulate --algo $algo --block $b --param $p --type $([ "$algo" = two-level ] && echo i32 || echo f32) --n $n --json >$dir/sim-$name-n${n#2^}.json"
            done
        done <"$dir/sim.list" | sed 's/--block 0 //' | xargs -P "$(nproc)" -I{} sh -c '{}' || rc=1
        for f in "$dir"/[!s]*.json "$dir"/sengupta-*.json; do
            [ -f "$f" ] || continue
            echo "== $(cat "${f%.json}.cmd")"
            python3 "$root/tools/perf_doc.py" table "$f" || rc=1
        done
    } >"$out/experiments.log" 2>&1
    merge_results || rc=1
    return $rc
}

# All bench and simulate JSON of this run in one document (tools/perf_doc.py
# merge): $OUT/bench-h100.json on an H100, else $OUT/bench-gpu.json.
merge_results() {
    local name=bench-gpu.json
    nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | grep -q H100 && name=bench-h100.json
    python3 "$root/tools/perf_doc.py" merge "$out/$name" "$out"/gpubench/*.json "$out"/experiments/*.json \
        >>"$out/gpubench.log" 2>&1
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

# How the default tile geometry of the single-pass scans was chosen: every
# block size and item count of lookback at 2^28 (i32 and f64), each beside
# CUB and the copy in its own process, and one Nsight Compute profile of
# the default launch (occupancy, registers, stall reasons, memory).
do_tune() {
    local s=$build/scanlab rc=0 dir=$out/tune b p t
    rm -rf "$dir" && mkdir -p "$dir"
    {
        for t in i32 f64; do
            for b in 128 256 384 512; do
                for p in $([ $t = i32 ] && echo 8 12 16 20 24 || echo 4 6 8 10 12); do
                    echo "== lookback $t block $b items $p"
                    limit 120 "$s" bench --backend cuda --algo lookback --type $t --n 2^28 --block $b --param $p \
                        --reps 15 --json >"$dir/lookback-$t-b$b-p$p.json" 2>/dev/null || rc=1
                    python3 "$root/tools/perf_doc.py" table "$dir/lookback-$t-b$b-p$p.json" 2>&1 | grep -E '^(copy|cub|lookback) '
                done
            done
        done
        echo "== ncu: lookback i32 2^28, default geometry"
        limit 240 ncu --kernel-name regex:sp_ --launch-skip 2 --launch-count 1 --section SpeedOfLight \
            --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
            --section SchedulerStats "$s" bench --backend cuda --algo lookback --type i32 --n 2^28 --reps 3 \
            2>&1 | grep -v '^bench:' | tail -150 || rc=1
        echo "== ncu: cub i32 2^28"
        limit 240 ncu --kernel-name regex:DeviceScanKernel --launch-skip 2 --launch-count 1 --section SpeedOfLight \
            --section LaunchStats --section Occupancy --section WarpStateStats \
            "$s" bench --backend cuda --algo lookback --type i32 --n 2^28 --reps 3 2>&1 | grep -v '^bench:' | tail -90 || rc=1
    } >"$out/tune.log" 2>&1
    return $rc
}

# The scan across devices (docs/scaling.md, "A scan across GPUs"). On a
# host of 2 or 4 GPUs (P = 2, and 4 where there are 4), each step bounded
# and its status recorded in multigpu.log and summary.txt:
#   - scanlab verify of multi-gpu on the GPU with SCANLAB_MG_DEVICES=each
#     (shard g on GPU g, refused otherwise): integers bit for bit against the
#     sequential scan (so equal to one GPU's), sizes P does not divide;
#     floats run to run (--repeat 5); one size above 2^31 elements in all
#     (P = 2, i32; P = 4 too where its GPUs hold it);
#   - the shards on the current GPU (SCANLAB_MG_DEVICES=one), as a control;
#   - scanlab bench --backend cuda --devices P at 2^24, 2^28 and 2^30
#     elements per GPU: multi-gpu against lookback and a copy on every GPU
#     at once, into multigpu/bench-p$P.json, and all of them into
#     bench-multi-gpu.json (docs/data/bench-multi-gpu.json).
# It builds only the scanlab binary, and nothing where a prebuilt one
# (stage prebuilt) is there: build first (stage build or prebuilt, in a
# call of its own). The steps share a budget of MULTIGPU_SECONDS (450): a
# step never runs past it, and one left without time is recorded rc=124.
# Not run by default.
do_multigpu() {
    local rc=0 s=$build/scanlab log=$out/multigpu.log dir=$out/multigpu gpus p
    local deadline=$((SECONDS + 1000000)) # the build's own limit only
    : >"$log"
    mkdir -p "$dir"
    step() { # name, seconds, command...: runs it, records its rc
        local name=$1 secs=$2 t0=$SECONDS r
        shift 2
        [ $((deadline - SECONDS)) -lt "$secs" ] && secs=$((deadline - SECONDS))
        echo "== $name: $*" >>"$log"
        if [ "$secs" -le 0 ]; then
            echo "!! not run: the stage's ${MULTIGPU_SECONDS:-450}s are spent" >>"$log"
            r=124
        else
            limit "$secs" "$@" >>"$log" 2>&1
            r=$?
        fi
        printf '  multigpu %-30s rc=%-3d %4ds\n' "$name" "$r" $((SECONDS - t0)) | tee -a "$summary" "$log"
        [ $r -eq 0 ] || rc=1
        return $r
    }
    nvidia-smi --query-gpu=index,name,memory.total,memory.used --format=csv >>"$log" 2>&1
    nvidia-smi topo -m >>"$log" 2>&1
    if [ -f "$build/build.ninja" ] || [ ! -x "$s" ]; then
        [ -f "$build/build.ninja" ] || meson setup "$build" -Dcuda=enabled -Dgpu_arch=90 >>"$out/build.log" 2>&1
        step build-scanlab 300 meson compile -C "$build" -j "$(nproc)" scanlab:executable || return 1
    fi
    # the checks' and benchmarks' budget: no step runs past it, whatever its own limit
    deadline=$((SECONDS + ${MULTIGPU_SECONDS:-450}))
    gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l)
    echo "GPUs: $gpus" | tee -a "$log"
    if [ "$gpus" -lt 2 ]; then
        echo "multigpu: needs 2 GPUs or more; this host has $gpus" | tee -a "$summary" "$log"
        return 1
    fi
    local ps=2
    [ "$gpus" -ge 4 ] && ps="2 4"
    # the refusals: more GPUs than the host has, exit status 2
    step refuse-devices 30 bash -c "\"$s\" bench --backend cuda --devices $((gpus + 1)) --n 1024; [ \$? -eq 2 ]"
    for p in $ps; do
        SCANLAB_MG_DEVICES=each step "verify-p$p-ints" 90 "$s" verify --algo multi-gpu --backend cuda --both \
            --type i32,i64 --param "$p" --n 0,1,2,3,1025,2^24,16777219 --seed 37 --jobs 1
        SCANLAB_MG_DEVICES=each step "verify-p$p-floats-repeat" 90 "$s" verify --algo multi-gpu --backend cuda \
            --type f32,f64 --op add --param "$p" --n 1000003,16777217 --repeat 5 --seed 38 --jobs 1
        SCANLAB_MG_DEVICES=one step "verify-p$p-one-gpu" 60 "$s" verify --algo multi-gpu --backend cuda \
            --type i32 --op add,affine --param "$p" --n 1025,16777219 --seed 40 --jobs 1
    done
    # above 2^31 elements in all: 2^31 + 65 i32 (8 GiB in and out on the host)
    SCANLAB_MG_DEVICES=each step "verify-p2-above-2^31" 120 "$s" verify --algo multi-gpu --backend cuda \
        --type i32 --op add --param 2 --n 2147483713 --seed 39 --jobs 1
    for p in $ps; do
        step "bench-p$p" 150 bash -c "\"$s\" bench --backend cuda --devices $p --n 2^24,2^28,2^30 --json \
            >\"$dir/bench-p$p.json\""
        [ -f "$dir/bench-p$p.json" ] && head -c 2000 "$dir/bench-p$p.json" >>"$log"
        step "bench-p$p-table" 60 "$s" bench --backend cuda --devices "$p" --n 2^28 --repeat 10
    done
    # one document: {"runs": [the bench document of each P]}, each with its command
    step bench-json 30 python3 - "$dir" "$out/bench-multi-gpu.json" $ps <<'PY'
import json, sys
d, dst, ps = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = []
for p in ps:
    with open(f"{d}/bench-p{p}.json") as f:
        doc = json.load(f)
    doc["command"] = f"scanlab bench --backend cuda --devices {p} --n 2^24,2^28,2^30 --json"
    runs.append(doc)
with open(dst, "w") as f:
    json.dump({"runs": runs}, f, indent=1)
for r in runs:
    for row in r["results"]:
        print(r["devices"], row["algo"], row["n"], round(row["median_ms"], 4), row["vs_one_gpu"],
              round(row["frac_of_copy"], 3), row["repeatable"])
PY
    return $rc
}

# The simulator against the GPU's counters (docs/model-fidelity.md): about
# three minutes on a 16-core H100 host; bounded, so that it cannot hang.
do_fidelity() {
    FIDELITY_BUDGET=${FIDELITY_BUDGET:-180} timeout -k 10 300 bash "$root/tools/fidelity.sh" "$build" "$out"
}

# Instructions, issue rate and stalls of every scan at 2^24 (about 50 s on
# the H100 host); bounded likewise.
# Where the applications' time goes against CUB's, kernel by kernel
# (tools/app-profile.sh): app-profile.json and app-profile.log.
do_appprofile() {
    timeout -k 10 500 bash "$root/tools/app-profile.sh" "$build" "$out"
}
# CUB's scan launches under Nsight Compute (tools/fidelity-cub.sh): nvcc,
# then ncu, within its own 110 s; bounded likewise.
do_cubfid() {
    timeout -k 10 150 bash "$root/tools/fidelity-cub.sh" "$build" "$out"
}
do_issue() {
    timeout -k 10 400 bash "$root/tools/issue-profile.sh" "$build" "$out"
}

status=0
for st in $stages; do
    case $st in
    build) stage build do_build || { status=1; break; } ;;
    prebuilt) stage prebuilt do_prebuilt || { status=1; break; } ;;
    gputests) stage gputests do_gputests || status=1 ;;
    ptxisa) stage ptxisa do_ptxisa || status=1 ;;
    simspeed) stage simspeed do_simspeed || status=1 ;;
    scaling) stage scaling do_scaling || status=1 ;;
    sanitize) stage sanitize do_sanitize || status=1 ;;
    litmus) stage litmus do_litmus || status=1 ;;
    progress) stage progress do_progress || status=1 ;;
    test) stage test do_test || status=1 ;;
    verify) stage verify do_verify || status=1 ;;
    huge) stage huge do_huge || status=1 ;;
    multigpu) stage multigpu do_multigpu || status=1 ;;
    bench) stage bench do_bench || status=1 ;;
    gpubench) stage gpubench do_gpubench || status=1 ;;
    experiments) stage experim do_experiments || status=1 ;;
    sass) stage sass do_sass || status=1 ;;
    cub) stage cub do_cub || status=1 ;;
    report) stage report do_report || status=1 ;;
    fidelity) stage fidelity do_fidelity || status=1 ;;
    issue) stage issue do_issue || status=1 ;;
    cubfid) stage cubfid do_cubfid || status=1 ;;
    appprofile) stage appprof do_appprofile || status=1 ;;
    tune) stage tune do_tune || status=1 ;;
    *) echo "unknown stage $st" >&2; exit 2 ;;
    esac
done
exit $status
