/* The layout and the values that include/scanlab/ promises, as a table of
 * named numbers. abi_public.c builds it from the public headers and
 * abi_internal.c from the headers the library is compiled from; test_abi.c
 * compares the two, so that the public declarations cannot drift from the
 * library's own. Include after the headers, with ABI_TABLE_FN defined. */
#include <stddef.h>
#include <stdint.h>

#include "abi_entry.h"

#define E(x) {#x, (uint64_t)(x)}
#define S(t) {"sizeof " #t, (uint64_t)sizeof(t)}
#define O(t, f) {"offsetof " #t "." #f, (uint64_t)offsetof(t, f)}

size_t ABI_TABLE_FN(const abi_entry **out)
{
    static const abi_entry table[] = {
        E(SL_OK), E(SL_ERR_ARG), E(SL_ERR_NOMEM), E(SL_ERR_UNSUPPORTED), E(SL_ERR_NO_GPU), E(SL_ERR_CUDA),
        E(SL_ERR_TIMEOUT), E(SL_ERR_SIM), E(SL_ERR_IO), E(SL_ERR_CHECK), S(sl_status),
        E(SL_I32), E(SL_I64), E(SL_F32), E(SL_F64), E(SL_TYPE_COUNT),
        E(SL_ADD), E(SL_MAX), E(SL_MIN), E(SL_AFFINE), E(SL_OP_COUNT),
        E(SL_SEQ), E(SL_OMP), E(SL_SIM), E(SL_CUDA), E(SL_BACKEND_COUNT),
        E(SL_TYPE_SIZE(SL_I32)), E(SL_TYPE_SIZE(SL_I64)), E(SL_TYPE_SIZE(SL_F32)), E(SL_TYPE_SIZE(SL_F64)),
        E(SL_KIND_SCAN), E(SL_KIND_REDUCE), E(SL_KIND_COMPACT), E(SL_KIND_PARTITION), E(SL_KIND_SORT),
        E(SL_KIND_PACK), E(SL_KIND_PARTITION_REV),
        S(sl_scan_args), O(sl_scan_args, type), O(sl_scan_args, op), O(sl_scan_args, exclusive),
        O(sl_scan_args, in), O(sl_scan_args, out), O(sl_scan_args, n), O(sl_scan_args, threads),
        O(sl_scan_args, block), O(sl_scan_args, param), O(sl_scan_args, sim), O(sl_scan_args, adversary),
        E(SL_ADVERSARY_NONE), E(SL_ADVERSARY_REVERSED), E(SL_ADVERSARY_LATE),
        S(verify_algo), O(verify_algo, name), O(verify_algo, summary), O(verify_algo, kind),
        O(verify_algo, run), O(verify_algo, depth),
        E(VERIFY_DIST_UNIFORM), E(VERIFY_DIST_SMALL), E(VERIFY_DIST_UNIFORM01), E(VERIFY_DIST_UNIFORM11),
        E(VERIFY_DIST_NORMAL), E(VERIFY_DIST_LOGNORMAL), E(VERIFY_DIST_ONES), E(VERIFY_DIST_ILLCOND),
        E(VERIFY_DIST_COUNT), E(VERIFY_MAX_ELEM),
        S(verify_mismatch), O(verify_mismatch, found), O(verify_mismatch, index), O(verify_mismatch, expected),
        O(verify_mismatch, got), O(verify_mismatch, eta), O(verify_mismatch, bound),
        S(verify_case), O(verify_case, algo), O(verify_case, backend), O(verify_case, type), O(verify_case, op),
        O(verify_case, exclusive), O(verify_case, dist), O(verify_case, n), O(verify_case, seed),
        O(verify_case, repeat), O(verify_case, block), O(verify_case, param), O(verify_case, allow_races),
        O(verify_case, schedules), O(verify_case, pct), O(verify_case, one_grid),
        E(VERIFY_FINDINGS_TEXT),
        E(VERIFY_WHERE_VALUE), E(VERIFY_WHERE_BEFORE), E(VERIFY_WHERE_AFTER), E(VERIFY_WHERE_INPUT),
        E(VERIFY_WHERE_COUNT), E(VERIFY_WHERE_FINDING),
        S(verify_case_result), O(verify_case_result, status), O(verify_case_result, exact),
        O(verify_case_result, max_eta), O(verify_case_result, deterministic), O(verify_case_result, run),
        O(verify_case_result, where), O(verify_case_result, mismatch), O(verify_case_result, value_type),
        O(verify_case_result, kept), O(verify_case_result, races), O(verify_case_result, schedule),
        O(verify_case_result, occupancy), O(verify_case_result, findings),
        O(verify_case_result, findings_text),
    };
    *out = table;
    return sizeof table / sizeof table[0];
}
