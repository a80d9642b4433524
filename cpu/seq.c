/* The sequential references: one left-to-right loop per (type, operator),
 * reached through a dispatch table built from the catalogue. */
#include "cpu.h"

#include "cpu_check.h"

#define SL_TMPL "cpu/seq_tmpl.c"
#include "cuda/inst_all.h"
#undef SL_TMPL

typedef struct {
    sl_status (*scan)(bool exclusive, const void *in, void *out, size_t n);
    sl_status (*reduce)(const void *in, size_t n, void *result);
    sl_status (*identity)(void *out);
} seq_entry;

#define SEQ_ENTRY(C, TN_, OPN_, TYPE, OP)                                                      \
    [TYPE][OP] = {seq_scan_##TN_##_##OPN_, seq_reduce_##TN_##_##OPN_, seq_identity_##TN_##_##OPN_},
static const seq_entry seq_table[SL_TYPE_COUNT][SL_OP_COUNT] = {SL_FOR_EACH_TYPE_OP(SEQ_ENTRY)};
#undef SEQ_ENTRY

sl_status cpu_scan_seq(sl_type t, sl_op op, bool exclusive, const void *in, void *out, size_t n)
{
    sl_status st = cpu_check_args(t, op, in, out, n);
    return st != SL_OK ? st : seq_table[t][op].scan(exclusive, in, out, n);
}

sl_status cpu_reduce_seq(sl_type t, sl_op op, const void *in, size_t n, void *result)
{
    sl_status st = cpu_check_args(t, op, in, result, n);
    if (st == SL_OK && !result)
        st = SL_ERR_ARG;
    return st != SL_OK ? st : seq_table[t][op].reduce(in, n, result);
}

sl_status cpu_identity(sl_type t, sl_op op, void *out)
{
    if (!cpu_pair_valid(t, op) || !out)
        return SL_ERR_ARG;
    return seq_table[t][op].identity(out);
}
