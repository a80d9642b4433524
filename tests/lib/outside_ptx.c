/* A program outside scanlab, built by install_test.sh against the installed
 * library: it runs PTX that nvcc wrote for two one-block Kogge-Stone scans
 * (`nvcc -ptx -arch=sm_90`, embedded below; the CUDA source is in the
 * comment) on the simulator. The correct one must scan 200 integers with
 * no finding; the one without the barrier between reading a neighbour and
 * writing must be reported with a race. Exit 0 when both hold.
 *
 *     extern "C" __global__ void ks_scan(const int *in, int *out, int n)
 *     {
 *         __shared__ int s[256];
 *         int t = threadIdx.x;
 *         s[t] = t < n ? in[t] : 0;
 *         __syncthreads();
 *         for (int d = 1; d < blockDim.x; d *= 2) {
 *             int v = t >= d ? s[t - d] : 0;
 *             __syncthreads();
 *             s[t] += v;
 *             __syncthreads();
 *         }
 *         if (t < n)
 *             out[t] = s[t];
 *     }
 *
 * ks_scan_racy is the same with `if (t >= d) s[t] += s[t - d];` and one
 * barrier a step. */
#include <scanlab/scanlab.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 200

static const char ptx[] =
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry ks_scan(\n"
    " .param .u64 ks_scan_param_0,\n"
    " .param .u64 ks_scan_param_1,\n"
    " .param .u32 ks_scan_param_2\n"
    ")\n"
    "{\n"
    " .reg .pred  %p<6>;\n"
    " .reg .b32  %r<26>;\n"
    " .reg .b64  %rd<9>;\n"
    " .shared .align 4 .b8 _ZZ7ks_scanE1s[1024];\n"
    " ld.param.u64  %rd1, [ks_scan_param_0];\n"
    " ld.param.u64  %rd2, [ks_scan_param_1];\n"
    " ld.param.u32  %r10, [ks_scan_param_2];\n"
    " mov.u32  %r1, %tid.x;\n"
    " setp.ge.s32  %p1, %r1, %r10;\n"
    " mov.u32  %r23, 0;\n"
    " @%p1 bra  $L__BB0_2;\n"
    " cvta.to.global.u64  %rd3, %rd1;\n"
    " mul.wide.s32  %rd4, %r1, 4;\n"
    " add.s64  %rd5, %rd3, %rd4;\n"
    " ld.global.u32  %r23, [%rd5];\n"
    "$L__BB0_2:\n"
    " shl.b32  %r12, %r1, 2;\n"
    " mov.u32  %r13, _ZZ7ks_scanE1s;\n"
    " add.s32  %r4, %r13, %r12;\n"
    " st.shared.u32  [%r4], %r23;\n"
    " bar.sync  0;\n"
    " mov.u32  %r5, %ntid.x;\n"
    " setp.lt.u32  %p2, %r5, 2;\n"
    " @%p2 bra  $L__BB0_7;\n"
    " mov.u32  %r24, 1;\n"
    "$L__BB0_4:\n"
    " setp.lt.s32  %p3, %r1, %r24;\n"
    " mov.u32  %r25, 0;\n"
    " @%p3 bra  $L__BB0_6;\n"
    " sub.s32  %r16, %r1, %r24;\n"
    " shl.b32  %r17, %r16, 2;\n"
    " add.s32  %r19, %r13, %r17;\n"
    " ld.shared.u32  %r25, [%r19];\n"
    "$L__BB0_6:\n"
    " bar.sync  0;\n"
    " ld.shared.u32  %r20, [%r4];\n"
    " add.s32  %r21, %r20, %r25;\n"
    " st.shared.u32  [%r4], %r21;\n"
    " bar.sync  0;\n"
    " shl.b32  %r24, %r24, 1;\n"
    " setp.lt.u32  %p4, %r24, %r5;\n"
    " @%p4 bra  $L__BB0_4;\n"
    "$L__BB0_7:\n"
    " @%p1 bra  $L__BB0_9;\n"
    " ld.shared.u32  %r22, [%r4];\n"
    " cvta.to.global.u64  %rd6, %rd2;\n"
    " mul.wide.s32  %rd7, %r1, 4;\n"
    " add.s64  %rd8, %rd6, %rd7;\n"
    " st.global.u32  [%rd8], %r22;\n"
    "$L__BB0_9:\n"
    " ret;\n"
    "}\n"
    ".visible .entry ks_scan_racy(\n"
    " .param .u64 ks_scan_racy_param_0,\n"
    " .param .u64 ks_scan_racy_param_1,\n"
    " .param .u32 ks_scan_racy_param_2\n"
    ")\n"
    "{\n"
    " .reg .pred  %p<6>;\n"
    " .reg .b32  %r<23>;\n"
    " .reg .b64  %rd<9>;\n"
    " .shared .align 4 .b8 _ZZ12ks_scan_racyE1s[1024];\n"
    " ld.param.u64  %rd1, [ks_scan_racy_param_0];\n"
    " ld.param.u64  %rd2, [ks_scan_racy_param_1];\n"
    " ld.param.u32  %r8, [ks_scan_racy_param_2];\n"
    " mov.u32  %r1, %tid.x;\n"
    " setp.ge.s32  %p1, %r1, %r8;\n"
    " mov.u32  %r21, 0;\n"
    " @%p1 bra  $L__BB1_2;\n"
    " cvta.to.global.u64  %rd3, %rd1;\n"
    " mul.wide.s32  %rd4, %r1, 4;\n"
    " add.s64  %rd5, %rd3, %rd4;\n"
    " ld.global.u32  %r21, [%rd5];\n"
    "$L__BB1_2:\n"
    " shl.b32  %r10, %r1, 2;\n"
    " mov.u32  %r11, _ZZ12ks_scan_racyE1s;\n"
    " add.s32  %r4, %r11, %r10;\n"
    " st.shared.u32  [%r4], %r21;\n"
    " bar.sync  0;\n"
    " mov.u32  %r5, %ntid.x;\n"
    " setp.lt.u32  %p2, %r5, 2;\n"
    " @%p2 bra  $L__BB1_7;\n"
    " mov.u32  %r22, 1;\n"
    "$L__BB1_4:\n"
    " setp.lt.s32  %p3, %r1, %r22;\n"
    " @%p3 bra  $L__BB1_6;\n"
    " sub.s32  %r13, %r1, %r22;\n"
    " shl.b32  %r14, %r13, 2;\n"
    " add.s32  %r16, %r11, %r14;\n"
    " ld.shared.u32  %r17, [%r4];\n"
    " ld.shared.u32  %r18, [%r16];\n"
    " add.s32  %r19, %r17, %r18;\n"
    " st.shared.u32  [%r4], %r19;\n"
    "$L__BB1_6:\n"
    " bar.sync  0;\n"
    " shl.b32  %r22, %r22, 1;\n"
    " setp.lt.u32  %p4, %r22, %r5;\n"
    " @%p4 bra  $L__BB1_4;\n"
    "$L__BB1_7:\n"
    " @%p1 bra  $L__BB1_9;\n"
    " ld.shared.u32  %r20, [%r4];\n"
    " cvta.to.global.u64  %rd6, %rd2;\n"
    " mul.wide.s32  %rd7, %r1, 4;\n"
    " add.s64  %rd8, %rd6, %rd7;\n"
    " st.global.u32  [%rd8], %r20;\n"
    "$L__BB1_9:\n"
    " ret;\n"
    "}\n";

static int fail(const char *what)
{
    fprintf(stderr, "outside_ptx: %s\n", what);
    return 1;
}

int main(void)
{
    char err[512];
    sl_ptx *m = sl_ptx_load_text(ptx, sizeof ptx - 1, "ksex.ptx", err, sizeof err);
    if (!m)
        return fail(err);
    if (sl_ptx_kernel_count(m) != 2 || strcmp(sl_ptx_kernel_name(m, 0), "ks_scan") != 0)
        return fail("the module's kernels are not ks_scan and ks_scan_racy");
    int32_t host[N], want[N], got[N];
    int32_t acc = 0;
    for (int i = 0; i < N; i++) {
        host[i] = (i * 37) % 11 - 5;
        acc += host[i];
        want[i] = acc;
    }
    int32_t *in = sl_ptx_dev_alloc(sizeof host), *out = sl_ptx_dev_alloc(sizeof host);
    if (!in || !out)
        return fail("out of memory");
    sl_ptx_copy(in, host, sizeof host);
    const int32_t n = N;
    const void *args[] = {&in, &out, &n};
    const sl_ptx_dim3 grid = {1, 1, 1}, block = {256, 1, 1};
    sl_sim *sim = sl_sim_new();
    int rc = sl_ptx_launch(m, "ks_scan", grid, block, 0, args, sim, err, sizeof err);
    sl_ptx_copy(got, out, sizeof got);
    if (rc != 0 || sl_sim_findings(sim, false) != 0) {
        sl_sim_print_findings(stderr, sim);
        return fail(rc == 2 ? err : "ks_scan: a finding");
    }
    if (memcmp(got, want, sizeof want) != 0)
        return fail("ks_scan: a wrong result");
    /* 8 steps, each with two barriers, after the first */
    if (sl_sim_count(sim, SL_SIM_BARRIERS) != 17)
        return fail("ks_scan: not 17 barriers");
    sl_sim_free(sim);

    sim = sl_sim_new();
    rc = sl_ptx_launch(m, "ks_scan_racy", grid, block, 0, args, sim, err, sizeof err);
    if (rc != 1 || sl_sim_count(sim, SL_SIM_RACES) == 0)
        return fail("ks_scan_racy: no race reported");
    sl_sim_free(sim);
    if (sl_ptx_launch(m, "nope", grid, block, 0, args, NULL, err, sizeof err) != 2 || !strstr(err, "nope"))
        return fail("an unknown kernel was not refused");
    sl_ptx_dev_free(in);
    sl_ptx_dev_free(out);
    sl_ptx_free(m);
    printf("outside_ptx: ks_scan correct with no finding; ks_scan_racy's race found\n");
    return 0;
}
