/* The hierarchical device-level driver shared by the block-level scans.
 *
 * A block-level kernel scans sections of h->section elements, one block
 * per section, and writes each section's total to sums[]; this driver
 * scans the totals by the same scheme recursively (until one section holds
 * them all) and an add-back kernel combines sums[s - 1] (the inclusive scan
 * of the totals before section s) into every element of section s:
 *
 *   level 0: sections of n          -> ceil(n / section) totals
 *   level 1: sections of the totals -> ...
 *   add back, from the top level down.
 *
 * A *_tmpl.cuh file includes hier_section.cuh first (the layout and the
 * shifted load its kernel uses), then this file once per instantiation,
 * after it has defined its section scan and named it SL_HIER_SECTIONS:
 *
 *   static sl_status f(const T *in, T *out, T *sums, size_t n, int exclusive,
 *                      size_t first, unsigned count, const sl_hier *h);
 *
 * which launches `count` blocks for sections first .. first + count - 1
 * (sums == NULL: no totals wanted). The first section index is a launch
 * argument so that grids never exceed the GPU's limit on gridDim.x. The
 * recursion passes in == out and exclusive = 0, so a section scan must
 * read its whole section before writing it. */

/* Combines the total of the sections before section s = first + blockIdx.x
 * into every element of section s (s >= 1). */
SL_GLOBAL SL_KN(hier_add)(T *out, const T *sums, size_t n, size_t section, size_t first)
{
    const size_t s = first + blockIdx.x;
    const size_t end = (s + 1) * section < n ? (s + 1) * section : n;
    const T carry = LD(sums, s - 1);
    for (size_t i = s * section + threadIdx.x; i < end; i += blockDim.x)
        ST(out, i, OP(carry, LD(out, i)));
}
SL_DEFINE_LAUNCH(SL_KN(hier_add), (T *, out), (const T *, sums), (size_t, n), (size_t, section),
                 (size_t, first))

/* The device-level scan of d_in[0..n) into d_out: sections, then the
 * totals recursively, then the add-back. */
static sl_status SL_KN(hier_device)(const T *d_in, T *d_out, size_t n, int exclusive, const sl_hier *h)
{
    const size_t sections = (n + h->section - 1) / h->section;
    T *d_sums = NULL;
    sl_status st = SL_OK;
    if (n == 0)
        return SL_OK;
    /* inside the recursion, the sections are the totals of the level below */
    const char *role0 = sl_launch_role(NULL);
    sl_launch_role(role0 ? "totals scan" : "section scan");
    if (sections > 1 && !h->sections_only)
        SL_TRY(sl_dev_alloc((void **)&d_sums, sections * sizeof(T)));
    for (size_t first = 0; first < sections; first += SL_MAX_GRID_X) {
        size_t count = sections - first < SL_MAX_GRID_X ? sections - first : SL_MAX_GRID_X;
        SL_TRY(SL_HIER_SECTIONS(d_in, d_out, d_sums, n, exclusive, first, (unsigned)count, h));
    }
    if (d_sums != NULL) {
        SL_TRY(SL_KN(hier_device)(d_sums, d_sums, sections, 0, h));
        sl_launch_role("add-back");
        for (size_t first = 1; first < sections; first += SL_MAX_GRID_X) {
            size_t count = sections - first < SL_MAX_GRID_X ? sections - first : SL_MAX_GRID_X;
            SL_TRY(SL_LAUNCH(hier_add)(sl_launch_1d((unsigned)count, h->block, 0), d_out, d_sums, n,
                                       h->section, first));
        }
    }
done:
    sl_launch_role(role0);
    sl_dev_free(d_sums);
    return st;
}

/* hier_device on the buffers sl_host_run made; ctx is the sl_hier. */
static sl_status SL_KN(hier_dev)(const void *d_in, void *d_out, const sl_kargs *a, const void *ctx)
{
    return SL_KN(hier_device)((const T *)d_in, (T *)d_out, a->n, a->exclusive ? 1 : 0,
                              (const sl_hier *)ctx);
}

/* The host side of every block-level scan: copy in, scan, copy out. */
static sl_status SL_KN(hier_run)(const sl_kargs *a, const sl_hier *h)
{
    if (h->section < 2 || h->block == 0 || h->block > SL_MAX_BLOCK_THREADS || h->shmem > SL_BLOCK_SHARED_BYTES)
        return SL_ERR_ARG;
    if (a->n == 0)
        return SL_OK;
    return sl_host_run(a, sizeof(T), a->n, SL_KN(hier_dev), h);
}
