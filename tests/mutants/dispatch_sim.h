/* The sim half of cuda/dispatch_tmpl.h: the run function <file>_sim of one
 * mutant (SL_KERNEL_FILE), from the table's argument block to the
 * instantiation for its (type, operator). The mutants are simulator-only
 * (no nvcc wrappers), so no <file>_cuda is defined and the table's cuda
 * entry stays NULL (mutant_entry.h). Included by the generated
 * <file>_dispatch.c. */
#include "cuda/launch.h"
#include "cuda/ops.h"
#include "model/model.h"
#include "verify/harness/algos.h"

#define SL_DISPATCH_FN_(be) SL_CAT2(SL_KERNEL_FILE, be)
#define SL_INST_(tn, opn, be) SL_CAT4(SL_KERNEL_FILE, _##tn, _##opn, be)

#define X(T_, tn, opn, st, so) sl_status SL_INST_(tn, opn, _sim)(const sl_kargs *a);
SL_FOR_EACH_TYPE_OP(X)
#undef X

sl_status SL_DISPATCH_FN_(_sim)(const sl_scan_args *a);

sl_status SL_DISPATCH_FN_(_sim)(const sl_scan_args *a)
{
    sl_kargs k = {a->in, a->out, a->n, a->exclusive, a->block, a->param, a->adversary};
    sl_status st = SL_ERR_UNSUPPORTED;
    model_begin((model_stats *)a->sim);
#define X(T_, tn, opn, st_, so)                  \
    if (a->type == st_ && a->op == so)           \
        st = SL_INST_(tn, opn, _sim)(&k);
    SL_FOR_EACH_TYPE_OP(X)
#undef X
    return model_end(st);
}
