#!/usr/bin/env python3
"""The catalogue's own CUDA backend under `scanlab run`, against the
simulator's C front end: the same kernel sources compiled by nvcc (their
PTX run by the PTX front end through the simulator's CUDA runtime) and by
the C compiler (`--backend sim`) must pass the same checks and compute the
same bits.

  test_run_catalogue.py    ($SCANLAB: build/scanlab; $SCANLAB_SHARED_CUDART:
                            build/scanlab-shared-cudart, the same command
                            linked with nvcc -cudart shared)

The random inputs come from SCANLAB_SEED when set, else the clock; the
seed is printed. Prints TAP and exits 1 if any case failed."""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

TIMEOUT = 300
SCANLAB = os.environ.get("SCANLAB", "")
SHARED = os.environ.get("SCANLAB_SHARED_CUDART", "")

# A block-level scan, device-level single-pass scans (one from a ticket with
# decoupled look-back, its deterministic variant), a reduction and an
# application; each on i32 and f64.
ALGOS = ["kogge-stone", "lookback", "lookback-det", "reduce-shfl", "compact"]
TYPES = ["i32", "f64"]
# 0, 1, an odd size inside one block, and sizes over several blocks and tiles
SIZES = ["0", "1", "1001", "5000"]
# Outputs compared bit for bit (--input / --output take one case each):
# (algorithm, type, exclusive). lookback on f64 is left out: which earlier
# tiles have published their inclusive prefix when a tile looks back decides
# the order of its additions, and the two front ends need not run the blocks'
# look-backs in the same interleaving (lookback-det fixes the order).
BITWISE = [("kogge-stone", "i32", False), ("kogge-stone", "f64", False), ("kogge-stone", "f64", True),
           ("lookback", "i32", False), ("lookback", "i32", True), ("lookback-det", "f64", False),
           ("lookback-det", "f64", True), ("reduce-shfl", "i32", False), ("reduce-shfl", "f64", False)]
BITWISE_SIZES = [1001, 5000]


class CaseFailed(Exception):
    pass


def run(cmd):
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CaseFailed("timed out after %d s: %s" % (TIMEOUT, " ".join(cmd)))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), " ".join(cmd)


def describe(rc, out, err, cmd):
    return "%s\nexit status %d\nstderr:\n%s\nstdout:\n%s" % (cmd, rc, err[-3000:] or "(empty)",
                                                             out[-3000:] or "(empty)")


def expect(cond, why, res):
    if not cond:
        raise CaseFailed(why + "\n" + describe(*res))


def on_cuda(verify_args, record):
    """verify --backend cuda, every launch on the simulator's runtime."""
    return run([SCANLAB, "run", "--json", record, "--", SHARED, "verify", "--backend", "cuda"] + verify_args)


def on_sim(verify_args):
    return run([SCANLAB, "verify", "--backend", "sim"] + verify_args)


def check_record(record, res, what):
    """The runtime's record: launches ran, none stopped, no finding, no call refused."""
    with open(record, encoding="utf-8") as f:
        doc = json.load(f)
    ls = doc["launches"]
    expect(ls, "%s: the CUDA backend's kernels ran on the simulator (no launch recorded)" % what, res)
    expect(doc["findings"] == 0 and not any(l["stopped"] or l["findings"] or l["races"] for l in ls),
           "%s: no finding in any launch" % what, res)
    expect(not doc["not_supported"], "%s: no runtime call refused: %s" % (what, doc["not_supported"]), res)
    return ls


def table_rows(out, backend, res):
    """verify's JSON document: the first thing on stdout (scan run's record
    of the launches follows it)."""
    try:
        doc = json.JSONDecoder().raw_decode(out)[0]
    except ValueError as e:
        raise CaseFailed("verify's --json output does not parse (%s)\n%s" % (e, describe(*res)))
    rows = []
    for r in doc["results"]:
        expect(r["backend"] == backend, "every line on %s" % backend, res)
        row = dict(r)
        del row["backend"]
        rows.append(row)
    return doc, rows


def case_table(seed):
    """Both runs over the same selection and seed: every line OK, and the
    same lines (verdict, sizes checked, eta of the float scans)."""
    args = ["--algo", ",".join(ALGOS), "--type", ",".join(TYPES), "--op", "add", "--both", "--n", ",".join(SIZES),
            "--seed", str(seed), "--fail-on-skip", "--json"]
    with tempfile.TemporaryDirectory() as d:
        record = os.path.join(d, "run.json")
        cuda = on_cuda(args, record)
        expect(cuda[0] == 0, "verify --backend cuda under scanlab run passes", cuda)
        launches = check_record(record, cuda, "the table")
    sim = on_sim(args)
    expect(sim[0] == 0, "verify --backend sim passes", sim)
    cdoc, crows = table_rows(cuda[1], "cuda", cuda)
    sdoc, srows = table_rows(sim[1], "sim", sim)
    expect(len(crows) == len(srows) == len(TYPES) * (len(ALGOS) + 3), "one line per algorithm, type and kind "
           "(inclusive and exclusive for the 3 scans)", cuda)
    for c, s in zip(crows, srows):
        expect(c == s, "the lines agree:\ncuda %s\nsim  %s" % (c, s), cuda)
        expect(c["status"] == "OK" and c["sizes_checked"] == len(SIZES), "line %s passed every size" % c, cuda)
    expect(cdoc["summary"] == sdoc["summary"], "the summaries agree", cuda)
    kernels = {l["kernel"].split("(")[0] for l in launches}
    print("# %d launches of %d kernels on the PTX front end" % (len(launches), len(kernels)))


def input_file(path, typ, n, rng):
    """Random elements that make additions round: f64 of mixed signs and
    magnitudes, i32 over the whole range (wrapping)."""
    if typ == "f64":
        data = [rng.uniform(-1.0, 1.0) * 2.0 ** rng.randint(-20, 20) for _ in range(n)]
        raw = struct.pack("<%dd" % n, *data)
    else:
        raw = struct.pack("<%di" % n, *[rng.randint(-2 ** 31, 2 ** 31 - 1) for _ in range(n)])
    with open(path, "wb") as f:
        f.write(raw)


def read_npy(path):
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:6] != b"\x93NUMPY":
        raise CaseFailed("%s is not a .npy file" % path)
    hlen = struct.unpack("<H", blob[8:10])[0] if blob[6] == 1 else struct.unpack("<I", blob[8:12])[0]
    return blob[(10 if blob[6] == 1 else 12) + hlen:]


def case_bitwise(seed):
    """The outputs themselves, byte for byte, on the same input file."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as d:
        for algo, typ, exclusive in BITWISE:
            for n in BITWISE_SIZES:
                inp = os.path.join(d, "in.bin")
                input_file(inp, typ, n, rng)
                outs = {}
                for backend in ("cuda", "sim"):
                    out = os.path.join(d, "%s.npy" % backend)
                    args = ["--algo", algo, "--type", typ, "--op", "add", "--input", inp, "--output", out,
                            "--fail-on-skip"] + (["--exclusive"] if exclusive else [])
                    res = on_cuda(args, os.path.join(d, "run.json")) if backend == "cuda" else on_sim(args)
                    expect(res[0] == 0, "%s %s n=%d on %s passes" % (algo, typ, n, backend), res)
                    if backend == "cuda":
                        check_record(os.path.join(d, "run.json"), res, "%s %s n=%d" % (algo, typ, n))
                    outs[backend] = read_npy(out)
                width = 1 if algo.startswith("reduce") else n
                expect(len(outs["cuda"]) == len(outs["sim"]) == width * (4 if typ == "i32" else 8),
                       "both outputs whole", res)
                if outs["cuda"] != outs["sim"]:
                    size = 4 if typ == "i32" else 8
                    k = next(i for i in range(0, len(outs["sim"]), size)
                             if outs["cuda"][i:i + size] != outs["sim"][i:i + size]) // size
                    raise CaseFailed("%s %s%s n=%d (seed %d): the outputs differ first at index %d"
                                     % (algo, typ, " exclusive" if exclusive else "", n, seed, k))


CASES = [("verify table: cuda under scanlab run against sim", case_table),
         ("outputs bit for bit: cuda under scanlab run against sim", case_bitwise)]


def main():
    if not SCANLAB or not SHARED:
        print("Bail out! $SCANLAB and $SCANLAB_SHARED_CUDART must name the commands")
        return 1
    env = os.environ.get("SCANLAB_SEED", "")
    seed = int(env) if env else int(time.time())
    print("# seed %d (set SCANLAB_SEED to replay)" % seed)
    print("1..%d" % len(CASES))
    failed = 0
    for k, (name, fn) in enumerate(CASES, 1):
        t0 = time.monotonic()
        try:
            fn(seed)
            print("ok %d - %s (%.1f s)" % (k, name, time.monotonic() - t0))
        except CaseFailed as e:
            failed += 1
            print("not ok %d - %s" % (k, name))
            for line in str(e).splitlines():
                print("# " + line)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
