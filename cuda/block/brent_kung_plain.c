/* The Brent-Kung kernel compiled for the simulator with accounting off
 * (i32 only): the baseline of `scanlab bench --backend sim`. */
#define SL_SIM_PLAIN 1
#define SL_ONLY_TN 1
#include "cuda/dialect.h"
#define SL_TMPL "cuda/block/brent_kung_tmpl.cuh"
#include "cuda/inst_all.h"
