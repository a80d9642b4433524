/* Kernel coverage over the ranks of a campaign (kernel_coverage.h,
 * report_kcov_share): every rank's records, merged at rank 0. */
#include <stdio.h>
#include <stdlib.h>

#include "verify/campaign/ranks.h"
#include "verify/report/kernel_coverage.h"

sl_status report_kcov_share(report_kcov *c, const char *(*name_of)(uint64_t, const void *), const void *ctx,
                            const char *what)
{
    if (!ranks_many())
        return SL_OK;
    const size_t n = report_kcov_site_count();
    uint64_t *mine = malloc((n + 1) * sizeof *mine);
    if (!mine)
        ranks_abort(1, "%s: out of memory sharing the kernel coverage", what);
    report_kcov_export(c, mine);
    void *all = NULL;
    size_t *lens = NULL;
    const bool ok = ranks_gather(mine, n * sizeof *mine, &all, &lens);
    sl_status st = ok ? SL_OK : SL_ERR_NOMEM;
    if (ok && ranks_rank() == 0) {
        /* the smallest of every rank's: attributed at the earliest event,
         * else run by some rank, else run by none */
        const uint64_t *part = all;
        for (int r = 0; r < ranks_count() && st == SL_OK; r++) {
            if (lens[r] != n * sizeof *mine) {
                fprintf(stderr, "scanlab: %s: rank %d's kernel coverage is incomplete\n", what, r);
                st = SL_ERR_CHECK;
                break;
            }
            for (size_t i = 0; i < n; i++)
                if (part[i] < mine[i])
                    mine[i] = part[i];
            part += n;
        }
        if (st == SL_OK)
            st = report_kcov_import(c, mine, name_of, ctx);
    }
    free(all);
    free(lens);
    free(mine);
    if (st != SL_OK) /* never a coverage of part of the ranks */
        ranks_abort(1, "%s: the ranks' kernel coverage could not be merged", what);
    return st;
}
