/* Sequential scan and reduction for one (type, operator) pair: included by
 * seq.c through cuda/inst_all.h with T, TN and OPN defined. */

static sl_status SL_FN(seq_scan)(bool exclusive, const void *vin, void *vout, size_t n)
{
    const T *in = vin;
    T *out = vout;
    T acc = SL_IDENTITY();
    if (exclusive) {
        /* Read x_i before writing out[i]: in may equal out. */
        for (size_t i = 0; i < n; i++) {
            T x = in[i];
            out[i] = acc;
            acc = SL_APPLY(acc, x);
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            acc = SL_APPLY(acc, in[i]);
            out[i] = acc;
        }
    }
    return SL_OK;
}

static sl_status SL_FN(seq_reduce)(const void *vin, size_t n, void *result)
{
    const T *in = vin;
    T acc = SL_IDENTITY();
    for (size_t i = 0; i < n; i++)
        acc = SL_APPLY(acc, in[i]);
    *(T *)result = acc;
    return SL_OK;
}

static sl_status SL_FN(seq_identity)(void *out)
{
    *(T *)out = SL_IDENTITY();
    return SL_OK;
}
