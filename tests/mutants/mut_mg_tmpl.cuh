/* mg: the control of mg-gpu-scope, the catalogue's multi-GPU scan
 * included unchanged (its release and acquire of system scope). */
#define SL_MG_NAME mut_mg
#include "cuda/device/multi_gpu_tmpl.cuh"
