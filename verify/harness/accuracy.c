#include "verify/harness/accuracy.h"

#include <math.h>
#include <string.h>

enum { F32_PREC = 24, F64_PREC = 53, F32_MIN_EXP = -126, F64_MIN_EXP = -1022 };

double verify_accuracy_ulp(sl_type t, double v)
{
    int prec = t == SL_F32 ? F32_PREC : F64_PREC;
    int emin = t == SL_F32 ? F32_MIN_EXP : F64_MIN_EXP;
    int e;
    frexp(fabs(v), &e); /* |v| in [2^(e-1), 2^e) */
    if (v == 0.0 || e - 1 < emin)
        e = emin + 1;
    return ldexp(1.0, e - prec);
}

static double load(sl_type t, const void *p, size_t i)
{
    return t == SL_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

void verify_accuracy_errors(sl_type t, const void *got, const void *exact, const double *abs_prefix,
                            size_t n, double *ulps, double *eta)
{
    double u = verify_unit_roundoff(t);
    for (size_t i = 0; i < n; i++) {
        double g = load(t, got, i), x = load(t, exact, i);
        if (!isfinite(g) || !isfinite(x)) {
            bool same = (isnan(g) && isnan(x)) || g == x;
            ulps[i] = eta[i] = same ? 0.0 : INFINITY;
            continue;
        }
        /* Long double keeps the difference of two doubles nearly exact (and
         * that of two floats exactly). */
        long double err = fabsl((long double)g - (long double)x);
        ulps[i] = (double)(err / verify_accuracy_ulp(t, x));
        if (err == 0)
            eta[i] = 0.0;
        else if (abs_prefix[i] == 0.0)
            eta[i] = INFINITY;
        else
            eta[i] = (double)(err / ((long double)u * abs_prefix[i]));
    }
}

static void swap(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* Hoare's selection: afterwards v[k] is the k-th smallest, smaller values
 * before it, larger after. Expected O(m); the middle-of-three pivot keeps
 * sorted and constant inputs fast. */
static void select_kth(double *v, size_t m, size_t k)
{
    size_t lo = 0, hi = m - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo])
            swap(&v[mid], &v[lo]);
        if (v[hi] < v[lo])
            swap(&v[hi], &v[lo]);
        if (v[hi] < v[mid])
            swap(&v[hi], &v[mid]);
        double pivot = v[mid];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                swap(&v[i], &v[j]);
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

static double median(double *v, size_t m)
{
    size_t k = (m - 1) / 2;
    select_kth(v, m, k);
    if (m % 2)
        return v[k];
    double next = v[k + 1]; /* the smallest of the upper part */
    for (size_t i = k + 2; i < m; i++)
        if (v[i] < next)
            next = v[i];
    return v[k] / 2 + next / 2;
}

void verify_accuracy_summarize(double *ulps, double *eta, size_t m, verify_accuracy_stats *out)
{
    memset(out, 0, sizeof *out);
    if (m == 0)
        return;
    double sum_sq = 0.0;
    for (size_t i = 0; i < m; i++) {
        out->max_ulps = fmax(out->max_ulps, ulps[i]);
        out->max_eta = fmax(out->max_eta, eta[i]);
        sum_sq += eta[i] * eta[i];
    }
    out->rms_eta = sqrt(sum_sq / (double)m);
    out->median_ulps = median(ulps, m);
    out->median_eta = median(eta, m);
}

size_t verify_accuracy_depth_bound(const verify_algo *a, const sl_scan_args *args)
{
    size_t n = args->n;
    if (!a->depth) {
        size_t terms = args->exclusive ? n - (n > 0) : n;
        return terms > 0 ? terms - 1 : 0;
    }
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        size_t di = a->depth(args, i);
        if (di > d)
            d = di;
    }
    return d;
}

bool verify_accuracy_within_bound(sl_type t, double max_eta, size_t depth)
{
    double du = (double)depth * verify_unit_roundoff(t);
    if (du >= 1.0)
        return true;
    double gamma_over_u = (double)depth / (1.0 - du);
    /* A relative slack of 2^-40 absorbs the rounding of eta itself. */
    return max_eta <= (gamma_over_u + 1.0) * (1.0 + 0x1p-40);
}
