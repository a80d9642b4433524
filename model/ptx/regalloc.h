/* Register compaction of a parsed PTX function (regalloc.c). */
#ifndef SCANLAB_MODEL_PTX_REGALLOC_H
#define SCANLAB_MODEL_PTX_REGALLOC_H

#include "model/ptx/ptx.h"

/* Gives the function's registers whose values are never live at the same
 * time one slot each, rewriting its instructions' operands and shrinking
 * nregs, reg_type and reg_names. Returns 0, or -1 when out of memory (the
 * function is then unchanged). */
int ptx_compact_registers(ptx_func *f);

#endif
