/* The Brent-Kung block kernel of cuda/block/brent_kung_tmpl.cuh as the
 * dialect compiles it for nvcc (the i32 instantiations; compare.sh reads
 * bk_scan_i32_add_cuda). */
#define SL_ONLY_TN 1
#include "cuda/dialect.h"
#define SL_TMPL "cuda/block/brent_kung_tmpl.cuh"
#include "cuda/inst_all.h"

