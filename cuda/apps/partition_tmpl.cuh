/* Partition in one pass: the elements that satisfy the predicate
 * (cuda/apps/app_defs.h) first, in input order, then the others in
 * reverse input order, as CUB's DevicePartition::If writes them; the input
 * read once and every element written once (cuda/apps/select_pass.cuh).
 * partition-3phase is the textbook stable split (both groups in input
 * order: the place of the first rejected element is the total kept, known
 * only after a scan of the counts).
 * Output: cuda/apps/app_defs.h (the number kept, then all n elements).
 *
 * Template: compiled once per (T, TN, OPN) through cuda/inst_all.h. */
#define SL_SEL_PARTITION 1
#include "cuda/apps/select_pass.cuh"
#undef SL_SEL_PARTITION

/* Host driver: as compact's (cuda/apps/compact_tmpl.cuh). */
SL_HOST sl_status SL_KN(partition)(const sl_kargs *a)
{
    return SL_KN(sel_host)(a);
}
