#include "verify/cli/memory.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "verify/cli/cli.h"

/* Measured costs, peak resident memory (ru_maxrss) of a run of n elements
 * minus that at a quarter of n, over the difference in elements. Measured
 * on x86-64 Linux (Debian 12, gcc 12, release build) with
 *
 *   /usr/bin/time -f %M build/scanlab simulate --algo A --n 2^18 --type T --seed 1
 *   /usr/bin/time -f %M build/scanlab simulate --algo A --n 2^20 --type T --seed 1
 *
 * every scan of the catalogue costs 84 bytes per i32 element and 168 per
 * i64 or f64 element (lookback, kogge-stone, blelloch, hierarchical, ...);
 * the reductions 40 per i32 element. The host holds the input, the output
 * and the reference (12 and 24 bytes); the rest is 9 bytes per byte of
 * simulated global memory (the input and the output: 8 and 16 bytes): the
 * memory itself and its shadow. Applications write part of what their
 * output may hold (pack i32: 216 measured against 392 estimated), so the
 * estimate is an upper bound there. */
#define SIM_BYTES_PER_DEVICE_BYTE 9
/* The fixed part: 24 MiB of the process, and each resident thread's fiber
 * (measured: lookback n = 2^18 at 8 slots x 256 threads 58948 KiB, at 8 x
 * 1024 threads 160180 KiB, at 64 x 256 threads 295640 KiB: about 17 KiB a
 * thread). Blocks are 1024 threads at most and 8 slots by default. */
#define SIM_FIXED_BYTES ((uint64_t)24 << 20)
#define SIM_BYTES_PER_THREAD ((uint64_t)17 << 10)
#define SIM_THREADS (8u * 1024u)
/* A CPU run's fixed part (the process, OpenMP, MPFR): measured peaks are
 * 10 to 20 MiB at small n. */
#define CPU_FIXED_BYTES ((uint64_t)32 << 20)

static uint64_t read_u64_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[64] = "";
    unsigned long long v = 0;
    if (fgets(buf, sizeof buf, f) && strncmp(buf, "max", 3) != 0)
        v = strtoull(buf, NULL, 10);
    fclose(f);
    return v;
}

uint64_t cli_memory_available(const char **what)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t best = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    const char *name = "physical memory";
    static const char *const cgroup[] = {"/sys/fs/cgroup/memory.max",
                                         "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
    for (size_t i = 0; i < sizeof cgroup / sizeof cgroup[0]; i++) {
        uint64_t v = read_u64_file(cgroup[i]);
        if (v && (!best || v < best)) {
            best = v;
            name = "the cgroup's memory limit";
        }
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (!best || (uint64_t)rl.rlim_cur < best)) {
        best = (uint64_t)rl.rlim_cur;
        name = "the address-space limit (ulimit -v)";
    }
    if (what)
        *what = name;
    return best;
}

/* a + b and a * b, saturating at UINT64_MAX. */
static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t cli_bytes(uint64_t n, uint64_t elem) { return mul_sat(n, elem); }

uint64_t cli_peak_simulator(uint64_t in_bytes, uint64_t out_bytes, uint64_t threads)
{
    uint64_t device = add_sat(in_bytes, out_bytes);
    uint64_t fixed = add_sat(SIM_FIXED_BYTES, mul_sat(SIM_BYTES_PER_THREAD, threads ? threads : SIM_THREADS));
    return add_sat(mul_sat(SIM_BYTES_PER_DEVICE_BYTE, device), fixed);
}

uint64_t cli_peak_simulate(uint64_t in_bytes, uint64_t out_bytes, uint64_t threads)
{
    uint64_t host = add_sat(in_bytes, mul_sat(2, out_bytes)); /* input, output, reference */
    return add_sat(host, cli_peak_simulator(in_bytes, out_bytes, threads));
}

uint64_t cli_peak_cpu(uint64_t n, uint64_t elem, uint64_t copies)
{
    return add_sat(mul_sat(mul_sat(n, elem), copies), CPU_FIXED_BYTES);
}

sl_status cli_check_peak(const char *cmd, uint64_t n, uint64_t peak)
{
    const char *what = NULL;
    uint64_t avail = cli_memory_available(&what);
    if (peak == UINT64_MAX) {
        cli_usage_error("%s: n = %" PRIu64 " would need more than 2^64 bytes of memory", cmd, n);
        return SL_ERR_ARG;
    }
    if (avail && peak > avail) {
        cli_usage_error("%s: n = %" PRIu64 " would need about %.1f GiB of memory at its peak, more "
                        "than the %.1f GiB this process may use (%s); refused before allocating",
                        cmd, n, (double)peak / 1073741824.0, (double)avail / 1073741824.0, what);
        return SL_ERR_ARG;
    }
    return SL_OK;
}
