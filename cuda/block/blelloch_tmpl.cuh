/* Blelloch scan (work-efficient, exclusive at heart) with plain shared
 * indices: the strided tree accesses hit the same banks more and more often
 * as the tree is climbed (blelloch_cf_tmpl.cuh pads them away).
 * The kernel is blelloch_body.cuh. */
#ifndef SL_BL_PAD
#define SL_BL_PAD(i) (i)
#define SL_BL_NAME blelloch
#endif
#include "cuda/block/blelloch_body.cuh"
