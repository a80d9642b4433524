/* The run functions of one kernel file (SL_KERNEL_FILE): from the table's
 * argument block to the instantiation for its (type, operator), per
 * backend. Included by the generated <file>_dispatch.c. */
#include "config.h"
#include "cuda/kernels.h"
#include "cuda/launch.h"
#include "model/model.h"

#define SL_DISPATCH_FN_(be) SL_CAT2(SL_KERNEL_FILE, be)
#define SL_INST_(tn, opn, be) SL_CAT4(SL_KERNEL_FILE, _##tn, _##opn, be)

#define X(T_, tn, opn, st, so) sl_status SL_INST_(tn, opn, _sim)(const sl_kargs *a);
SL_FOR_EACH_TYPE_OP(X)
#undef X
#if SCANLAB_HAVE_CUDA
#define X(T_, tn, opn, st, so) sl_status SL_INST_(tn, opn, _cuda)(const sl_kargs *a);
SL_FOR_EACH_TYPE_OP(X)
#undef X
#endif

static sl_kargs SL_DISPATCH_FN_(_kargs)(const sl_scan_args *a)
{
    sl_kargs k = {a->in, a->out, a->n, a->exclusive, a->block, a->param, a->adversary};
    return k;
}

sl_status SL_DISPATCH_FN_(_sim)(const sl_scan_args *a)
{
    sl_kargs k = SL_DISPATCH_FN_(_kargs)(a);
    sl_status st = SL_ERR_UNSUPPORTED;
    model_begin((model_stats *)a->sim);
#define X(T_, tn, opn, st_, so)                  \
    if (a->type == st_ && a->op == so)           \
        st = SL_INST_(tn, opn, _sim)(&k);
    SL_FOR_EACH_TYPE_OP(X)
#undef X
    return model_end(st);
}

sl_status SL_DISPATCH_FN_(_cuda)(const sl_scan_args *a)
{
#if SCANLAB_HAVE_CUDA
    sl_kargs k = SL_DISPATCH_FN_(_kargs)(a);
    sl_status st = sl_cuda_ready();
    if (st != SL_OK)
        return st;
    st = SL_ERR_UNSUPPORTED;
#define X(T_, tn, opn, st_, so)                  \
    if (a->type == st_ && a->op == so)           \
        st = SL_INST_(tn, opn, _cuda)(&k);
    SL_FOR_EACH_TYPE_OP(X)
#undef X
    return st;
#else
    (void)a;
    return SL_ERR_UNSUPPORTED;
#endif
}
