/* Addition-tree depths of the kernels (the bound eta <= depth that float
 * results are checked against, DESIGN.md): named in cuda/kernels.def. */
#ifndef SCANLAB_DEPTH_H
#define SCANLAB_DEPTH_H

#include <stddef.h>
#include "verify/algos.h"

/* Brent-Kung, hierarchical: per level of sections at most 2 log2(section) - 1
 * roundings, plus one add-back per level above the first. */
size_t sl_depth_brent_kung(const sl_scan_args *a, size_t i);

#endif
