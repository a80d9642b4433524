/* cub_app_dev: CUB's application baselines, by element type (cub_apps.h). */
#include "cuda/cub/cub_apps.h"

extern "C" sl_status cub_app_dev(sl_cub_app app, sl_type type, const void *in, void *out, size_t n, void *tmp,
                                 size_t *tmp_bytes)
{
    switch (type) {
    case SL_I32: return cub_app_dev_i32(app, in, out, n, tmp, tmp_bytes);
    case SL_I64: return cub_app_dev_i64(app, in, out, n, tmp, tmp_bytes);
    case SL_F32: return cub_app_dev_f32(app, in, out, n, tmp, tmp_bytes);
    case SL_F64: return cub_app_dev_f64(app, in, out, n, tmp, tmp_bytes);
    default: return SL_ERR_UNSUPPORTED;
    }
}
