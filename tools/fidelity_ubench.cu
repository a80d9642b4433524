/* fidelity_ubench: measures the GPU constants of the time model
 * (model/timemodel.h) and prints them as "key = value" lines.
 *
 *   fidelity_ubench all "MEASURED"   every constant but launch_ns; MEASURED
 *                                    (date and command) is copied into the output
 *   fidelity_ubench empty            20 launches of an empty one-block kernel, for
 *                                    Nsight Compute to time (launch_ns)
 *
 * Each figure is the best of REPS runs timed with CUDA events; latencies
 * are differences between a long and a short run of the same kernel, so
 * the launch itself cancels out. Exit status 1 on a CUDA error or a bounded
 * wait that gave up. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define REPS 5
#define CHECK(x)                                                                    \
    do {                                                                            \
        cudaError_t e_ = (x);                                                       \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "fidelity_ubench: %s: %s\n", #x, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

/* --- kernels -------------------------------------------------------------- */

__global__ void empty_kernel() {}

/* Device-wide copy, 16 bytes per thread and iteration. */
__global__ void copy_kernel(const int4 *in, int4 *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

/* One thread follows `steps` links of next[] from start (loads that
 * bypass L1). */
__global__ void chase_kernel(const uint32_t *next, uint32_t start, int steps, uint32_t *sink)
{
    uint32_t j = start;
    for (int s = 0; s < steps; s++)
        j = __ldcg(&next[j]);
    *sink = j;
}

/* A chain across blocks, as the catalogue's chained scans pass their
 * prefixes (cuda/device/tile_status.cuh): each block's thread 0 takes a
 * ticket, polls the word of the ticket before it with a relaxed gpu-scope
 * load until its status half is set, and publishes status and value in one
 * relaxed 8-byte store, no fence (a fence before the store, as an earlier
 * version had, costs about as much again and is not what the scans pay).
 * A wait gives up after 2^26 polls and sets *error. */
__device__ unsigned long long ld_relaxed_gpu(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ void st_relaxed_gpu(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__global__ void chain_kernel(unsigned long long *flag, uint32_t *ticket, uint32_t *error)
{
    if (threadIdx.x != 0)
        return;
    const uint32_t t = atomicAdd(ticket, 1u);
    unsigned long long prev = 0;
    if (t > 0) {
        unsigned long long polls = 0;
        while (((prev = ld_relaxed_gpu(&flag[t - 1])) >> 32) == 0)
            if (++polls == (1ull << 26)) {
                *error = 1;
                break;
            }
    }
    st_relaxed_gpu(&flag[t], (1ull << 32) | ((prev + 1) & 0xffffffffull));
}

/* Conflict-free shared loads: every warp reads 32 consecutive words per
 * load, `iters` times 8 loads. */
__global__ void smem_rate_kernel(int iters, uint32_t *sink)
{
    __shared__ uint32_t s[2048];
    for (unsigned i = threadIdx.x; i < 2048; i += blockDim.x)
        s[i] = i;
    __syncthreads();
    volatile uint32_t *v = s;
    uint32_t acc = 0;
    const unsigned lane = threadIdx.x & 31;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < 8; k++)
            acc ^= v[((it + k) & 63) * 32 + lane];
    }
    if (acc == 0xdeadbeef)
        *sink = acc;
}

/* One thread follows `steps` links through shared memory. */
__global__ void smem_chase_kernel(int steps, uint32_t *sink)
{
    __shared__ uint32_t s[1024];
    for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x)
        s[i] = (i * 97 + 31) & 1023;
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    volatile uint32_t *v = s;
    uint32_t j = 0;
    for (int k = 0; k < steps; k++)
        j = v[j];
    *sink = j;
}

/* Barrier intervals with nothing in them: `intervals` barriers in a row. */
__global__ void barrier_kernel(int intervals, uint32_t *sink)
{
    for (int i = 0; i < intervals; i++)
        __syncthreads();
    if (threadIdx.x == 0 && intervals < 0)
        *sink = 0;
}

/* --- timing --------------------------------------------------------------- */

static cudaEvent_t ev0, ev1;

/* Best milliseconds of REPS runs of launch() after one warm-up run. */
template <typename F> static double best_ms(F launch)
{
    double best = 1e30;
    for (int r = 0; r <= REPS; r++) {
        CHECK(cudaEventRecord(ev0));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev1));
        CHECK(cudaEventSynchronize(ev1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
        if (r > 0 && ms < best)
            best = ms;
    }
    return best;
}

/* ns per link of a chase over `bytes` bytes: next[i] = i + stride words
 * (wrapping), so that consecutive links land in different lines. With
 * fresh set, every run starts where no earlier run went (the buffer must
 * hold 12 runs), so that its lines come from DRAM; else every run walks
 * the same lines, which stay in L2. */
static double chase_ns(size_t bytes, uint32_t stride_words, bool fresh, uint32_t *sink)
{
    const size_t n = bytes / sizeof(uint32_t);
    uint32_t *h = (uint32_t *)malloc(bytes), *d;
    if (!h) {
        fprintf(stderr, "fidelity_ubench: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        h[i] = (uint32_t)((i + stride_words) % n);
    CHECK(cudaMalloc(&d, bytes));
    CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    free(h);
    const int short_steps = 1024, long_steps = 5120;
    size_t run = 0;
    auto start = [&] {
        return fresh ? (uint32_t)((run++ * (size_t)long_steps * stride_words) % n) : 0u;
    };
    double t_short = best_ms([&] { chase_kernel<<<1, 1>>>(d, start(), short_steps, sink); });
    double t_long = best_ms([&] { chase_kernel<<<1, 1>>>(d, start(), long_steps, sink); });
    CHECK(cudaFree(d));
    return (t_long - t_short) * 1e6 / (long_steps - short_steps);
}

static double chain_ns(uint32_t *sink)
{
    const unsigned short_blocks = 2048, long_blocks = 10240;
    unsigned long long *flag;
    uint32_t *ticket, *error;
    CHECK(cudaMalloc(&flag, long_blocks * sizeof(*flag)));
    CHECK(cudaMalloc(&ticket, sizeof(uint32_t)));
    CHECK(cudaMalloc(&error, sizeof(uint32_t)));
    CHECK(cudaMemset(error, 0, sizeof(uint32_t)));
    auto run = [&](unsigned blocks) {
        return best_ms([&] {
            cudaMemsetAsync(flag, 0, blocks * sizeof(*flag));
            cudaMemsetAsync(ticket, 0, sizeof(uint32_t));
            chain_kernel<<<blocks, 32>>>(flag, ticket, error);
        });
    };
    /* the memsets are timed in both runs, and cancel out */
    double t = (run(long_blocks) - run(short_blocks)) * 1e6 / (long_blocks - short_blocks);
    uint32_t err = 0;
    CHECK(cudaMemcpy(&err, error, sizeof err, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(flag));
    CHECK(cudaFree(ticket));
    CHECK(cudaFree(error));
    if (err) {
        fprintf(stderr, "fidelity_ubench: a chain wait gave up\n");
        exit(1);
    }
    (void)sink;
    return t;
}

static const char *short_name(const char *gpu)
{
    if (strstr(gpu, "H100"))
        return "h100";
    if (strstr(gpu, "H200"))
        return "h200";
    return "gpu";
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "empty") == 0) {
        for (int i = 0; i < 20; i++)
            empty_kernel<<<1, 32>>>();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        return 0;
    }
    if (argc != 3 || strcmp(argv[1], "all") != 0) {
        fprintf(stderr, "usage: fidelity_ubench all \"MEASURED\" | fidelity_ubench empty\n");
        return 2;
    }
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    CHECK(cudaEventCreate(&ev0));
    CHECK(cudaEventCreate(&ev1));
    uint32_t *sink;
    CHECK(cudaMalloc(&sink, sizeof(uint32_t)));

    /* copy: 1 GiB read and 1 GiB written */
    const size_t copy_bytes = (size_t)1 << 30, n4 = copy_bytes / sizeof(int4);
    int4 *a, *b;
    CHECK(cudaMalloc(&a, copy_bytes));
    CHECK(cudaMalloc(&b, copy_bytes));
    CHECK(cudaMemset(a, 1, copy_bytes));
    const unsigned copy_blocks = (unsigned)p.multiProcessorCount * 8;
    double copy_ms = best_ms([&] { copy_kernel<<<copy_blocks, 256>>>(a, b, n4); });
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));

    /* global round trips: 1 GiB (mostly DRAM) and 1 MiB (L2) chases; the
     * 4 KiB + 128 B stride leaves every link in a new line and page */
    double dram = chase_ns((size_t)1 << 30, 1056, true, sink);
    double l2 = chase_ns((size_t)1 << 20, 40, false, sink);
    double link = chain_ns(sink);

    /* shared wavefront rate: 8 warps per block, 4 blocks per SM */
    const int iters_short = 1000, iters_long = 5000, blocks = p.multiProcessorCount * 4, threads = 256;
    double rs = best_ms([&] { smem_rate_kernel<<<blocks, threads>>>(iters_short, sink); });
    double rl = best_ms([&] { smem_rate_kernel<<<blocks, threads>>>(iters_long, sink); });
    double wavefronts = (double)blocks * (threads / 32) * 8.0 * (iters_long - iters_short);
    double wf_per_ns_sm = wavefronts / ((rl - rs) * 1e6) / p.multiProcessorCount;

    double ss = best_ms([&] { smem_chase_kernel<<<1, 32>>>(1024, sink); });
    double sl = best_ms([&] { smem_chase_kernel<<<1, 32>>>(5120, sink); });
    double smem_rtt = (sl - ss) * 1e6 / (5120 - 1024);

    /* a barrier interval of one block alone on each SM, of 8 and of 32
     * warps: the line through the two gives the constant and the cost per
     * warp (the model holds an SM's resident warps to that cost too) */
    double lone[2];
    const int bar_threads[2] = {256, 1024};
    for (int k = 0; k < 2; k++) {
        const int nb = p.multiProcessorCount, th = bar_threads[k];
        double bs = best_ms([&] { barrier_kernel<<<nb, th>>>(1000, sink); });
        double bl = best_ms([&] { barrier_kernel<<<nb, th>>>(5000, sink); });
        lone[k] = (bl - bs) * 1e6 / (5000 - 1000);
    }
    const double bar_per_warp = (lone[1] - lone[0]) / (32 - 8);
    const double bar_ns = lone[0] - 8 * bar_per_warp;
    if (!(bar_per_warp > 0 && bar_ns > 0)) {
        fprintf(stderr, "fidelity_ubench: barrier intervals of 8 and 32 warps took %.1f and %.1f ns\n", lone[0],
                lone[1]);
        return 1;
    }

    printf("# time-model constants (model/timemodel.h), measured by tools/fidelity_ubench\n");
    printf("name = %s\n", short_name(p.name));
    printf("gpu = %s\n", p.name);
    printf("measured = %s\n", argv[2]);
    printf("sms = %d\n", p.multiProcessorCount);
    printf("threads_per_sm = %d\n", p.maxThreadsPerMultiProcessor);
    printf("blocks_per_sm = %d\n", p.maxBlocksPerMultiProcessor);
    printf("copy_bytes_per_ns = %.1f\n", 2.0 * (double)copy_bytes / (copy_ms * 1e6));
    printf("dram_rtt_ns = %.1f\n", dram);
    printf("l2_rtt_ns = %.1f\n", l2);
    printf("chain_link_ns = %.1f\n", link);
    printf("smem_wavefronts_per_ns = %.3f\n", wf_per_ns_sm);
    printf("smem_rtt_ns = %.2f\n", smem_rtt);
    printf("barrier_ns = %.1f\n", bar_ns);
    printf("barrier_ns_per_warp = %.3f\n", bar_per_warp);
    CHECK(cudaFree(sink));
    return 0;
}
