/* Warp- and block-level inclusive scans used by the device-level scans of
 * this folder: Kogge-Stone over warp shuffles, then a scan of the warp
 * totals by warp 0 (the "scan-then-propagate" block scan).
 *
 * Included once by each device-level template, after T/TN/OPN are defined:
 * the helpers depend on T and are named with SL_KN, so every instantiation
 * gets its own copy (no include guard on purpose).
 *
 * Requires a power-of-two block of 32..1024 threads (SL_DEV_BLOCK_OK). */

/* Inclusive scan of x over the 32 lanes of the calling warp: lane l ends
 * with x_0 op ... op x_l (depth ceil(log2(l + 1)) <= 5). At distance d a
 * lane combines the value d lanes below it as the EARLIER operand. */
SL_DEVICE T SL_KN(warp_iscan)(T x)
{
    const unsigned lane = LANE_ID();
    for (unsigned d = 1; d < SL_WARP_SIZE; d *= 2) {
        T y = SHFL_UP(x, d);
        if (lane >= d)
            x = OP(y, x);
    }
    return x;
}

/* Inclusive scan of one value per thread over the block. warp_sums is a
 * shared array of blockDim.x / 32 elements; *total receives the block's
 * aggregate. Ends with a barrier, so that the caller may call it again
 * (a tile loop) without racing on warp_sums. */
SL_DEVICE T SL_KN(block_iscan)(T x, T *warp_sums, T *total)
{
    const unsigned lane = LANE_ID(), w = WARP_ID(), nwarps = blockDim.x / SL_WARP_SIZE;
    /* phase 1: every warp scans its 32 values */
    x = SL_KN(warp_iscan)(x);
    if (lane == SL_WARP_SIZE - 1)
        ST(warp_sums, w, x);
    SYNCTHREADS();
    /* phase 2: warp 0 scans the warp totals in place */
    if (w == 0) {
        T s = lane < nwarps ? LD(warp_sums, lane) : IDENTITY();
        s = SL_KN(warp_iscan)(s);
        if (lane < nwarps)
            ST(warp_sums, lane, s);
    }
    SYNCTHREADS();
    /* phase 3: every warp but the first adds the total of the warps before it */
    if (w > 0)
        x = OP(LD(warp_sums, w - 1), x);
    *total = LD(warp_sums, nwarps - 1);
    SYNCTHREADS();
    return x;
}

/* Element i of the virtual input of a scan: in[i] for an inclusive scan;
 * for an exclusive one (shift = 1) in[i - 1], and the identity at 0. Out of
 * range (i >= n) gives the identity, which pads the last tile. */
SL_DEVICE T SL_KN(load_shifted)(const T *in, size_t i, size_t n, int shift)
{
    if (i >= n || (shift && i == 0))
        return IDENTITY();
    return LD(in, i - (size_t)shift);
}
