/* The PTX instruction test set (tests/ptx/isa, made by
 * tools/ptx_isa_gen.py): one kernel per instruction form, each run on the
 * simulator through the whole front end (parse, decode, execute) on its
 * edge and random operands, against the results an H100 gave for the same
 * kernels (h100.txt, from tools/ptx_isa_gpu.cu): exact forms bit for bit,
 * the GPU's approximations within the tolerance forms.txt states:
 *   approx FMT ulp=U [abs=A] [range=R]
 * FMT (f32 or f64) is the result's format; a result agrees when both are
 * NaN, or within A where the GPU's result is below 1 in magnitude (given
 * A: sin, cos and lg2, whose error is absolute there), else within U units
 * in the last place; with R, only operands up to R in magnitude are
 * compared (beyond, NaN against NaN alone). PTX_ISA_DATA names the folder
 * (default tests/ptx/isa). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "tap.h"

#include "model/model.h"
#include "model/ptx/run.h"
#include "model/rt.h"

/* As tools/ptx_isa_gen.py lays the data out. */
#define VECTORS 64
#define IN_WORDS 4
#define OUT_WORDS 4

typedef struct {
    char name[96];
    unsigned nin, nout;
    bool approx, f64; /* approx: the result is an f32 (or f64) within the tolerance */
    double ulps, abs, range;
    char text[256]; /* the instruction */
    uint64_t in[VECTORS * IN_WORDS];
    uint64_t want[VECTORS * OUT_WORDS];
} form;

static const char *data_dir(void)
{
    const char *d = getenv("PTX_ISA_DATA");
    return d && *d ? d : "tests/ptx/isa";
}

static char *read_text(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data_dir(), name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_error("cannot open %s (PTX_ISA_DATA names the folder)\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
        buf[n] = '\0';
    } else {
        free(buf);
        buf = NULL;
        print_error("cannot read %s\n", path);
    }
    fclose(f);
    return buf;
}

/* The next line that is neither empty nor a comment, cut at its end. */
static char *next_line(char **cursor)
{
    while (**cursor) {
        char *line = *cursor, *end = strchr(line, '\n');
        *cursor = end ? end + 1 : line + strlen(line);
        if (end)
            *end = '\0';
        if (*line && *line != '#')
            return line;
    }
    return NULL;
}

/* A line of inputs.txt or h100.txt for form f: its name, then n hex words
 * into w[v * stride + k] for each vector v and k < per. */
static bool read_words(char **cursor, const char *file, const form *f, uint64_t *w, unsigned stride, unsigned per)
{
    char *line = next_line(cursor);
    const size_t len = strlen(f->name);
    if (!line || strncmp(line, f->name, len) != 0 || (line[len] != ' ' && line[len] != '\0')) {
        print_error("%s: no line for %s where expected (the files are made together: regenerate them)\n", file,
                    f->name);
        return false;
    }
    char *p = line + len;
    for (unsigned v = 0; v < VECTORS; v++)
        for (unsigned k = 0; k < per; k++) {
            char *end;
            w[v * stride + k] = strtoull(p, &end, 16);
            if (end == p) {
                print_error("%s: %s has fewer than %u words\n", file, f->name, VECTORS * per);
                return false;
            }
            p = end;
        }
    if (p[strspn(p, " \t\r")] != '\0') {
        print_error("%s: %s has more than %u words\n", file, f->name, VECTORS * per);
        return false;
    }
    return true;
}

/* forms.txt, inputs.txt and h100.txt, whose lines go in the same order. */
static form *read_forms(unsigned *count)
{
    char *ft = read_text("forms.txt"), *it = read_text("inputs.txt"), *ht = read_text("h100.txt");
    form *forms = NULL;
    unsigned n = 0, cap = 0;
    bool ok = ft && it && ht;
    char *fc = ft, *ic = it, *hc = ht, *line;
    while (ok && (line = next_line(&fc))) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            form *g = realloc(forms, cap * sizeof *forms);
            assert_non_null(g);
            forms = g;
        }
        form *f = &forms[n];
        memset(f, 0, sizeof *f);
        char cls[16], fmt[8] = "";
        int at = 0, more = 0;
        if (sscanf(line, "%95s %u %u %15s %n", f->name, &f->nin, &f->nout, cls, &at) != 4 || f->nin > IN_WORDS ||
            f->nout > OUT_WORDS || f->nout == 0) {
            print_error("forms.txt: bad line '%s'\n", line);
            ok = false;
            break;
        }
        f->approx = strcmp(cls, "approx") == 0;
        if (f->approx) {
            if (sscanf(line + at, "%7s %n", fmt, &more) == 1)
                at += more;
            f->f64 = strcmp(fmt, "f64") == 0;
            bool have_ulps = false;
            /* key=value until the instruction */
            for (;;) {
                double v;
                char key[8];
                if (sscanf(line + at, "%7[a-z]=%lf %n", key, &v, &more) != 2)
                    break;
                at += more;
                if (strcmp(key, "ulp") == 0) {
                    f->ulps = v;
                    have_ulps = true;
                } else if (strcmp(key, "abs") == 0) {
                    f->abs = v;
                } else if (strcmp(key, "range") == 0) {
                    f->range = v;
                }
            }
            if (!have_ulps || (!f->f64 && strcmp(fmt, "f32") != 0)) {
                print_error("forms.txt: %s: expected 'approx f32|f64 ulp=U [abs=A] [range=R]'\n", f->name);
                ok = false;
                break;
            }
        } else if (strcmp(cls, "exact") != 0) {
            print_error("forms.txt: %s: class '%s'\n", f->name, cls);
            ok = false;
            break;
        }
        snprintf(f->text, sizeof f->text, "%s", line + at);
        ok = read_words(&ic, "inputs.txt", f, f->in, IN_WORDS, f->nin) &&
             read_words(&hc, "h100.txt", f, f->want, OUT_WORDS, f->nout);
        n++;
    }
    if (ok && next_line(&hc)) {
        print_error("h100.txt: more lines than forms.txt has forms\n");
        ok = false;
    }
    free(ft);
    free(it);
    free(ht);
    if (!ok) {
        free(forms);
        return NULL;
    }
    *count = n;
    return forms;
}

/* ---- comparison ---------------------------------------------------------- */
static double as_double(uint64_t v, bool f64)
{
    if (f64) {
        double d;
        memcpy(&d, &v, 8);
        return d;
    }
    const uint32_t u = (uint32_t)v;
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* Units in the last place between two floats of the same format: the
 * distance of their bit patterns on the line of ordered values (-0 and +0
 * one apart). */
static double ulp_distance(uint64_t a, uint64_t b, bool f64)
{
    const unsigned bits = f64 ? 64 : 32;
    const uint64_t sign = UINT64_C(1) << (bits - 1);
    const uint64_t mask = f64 ? ~UINT64_C(0) : 0xffffffffu;
    a &= mask;
    b &= mask;
    /* sign-magnitude to a signed line: -x at -|x| - 1 */
    const double oa = a & sign ? -(double)(a & ~sign) - 1 : (double)a;
    const double ob = b & sign ? -(double)(b & ~sign) - 1 : (double)b;
    return fabs(oa - ob);
}

typedef struct {
    double ulps, abs; /* the largest differences seen, as the tolerance measures them */
} approx_seen;

/* Does got agree with want (the GPU's), for vector v of form f? An
 * approximate form notes its differences in seen. */
static bool agrees(const form *f, unsigned v, uint64_t want, uint64_t got, approx_seen *seen)
{
    if (want == got)
        return true;
    if (!f->approx)
        return false;
    const double w = as_double(want, f->f64), g = as_double(got, f->f64);
    if (isnan(w) || isnan(g))
        return isnan(w) && isnan(g);
    if (f->range > 0 && fabs(as_double(f->in[v * IN_WORDS], f->f64)) > f->range)
        return true;
    if (f->abs > 0 && fabs(w) < 1) {
        const double d = fabs(w - g);
        seen->abs = d > seen->abs ? d : seen->abs;
        return d <= f->abs;
    }
    const double u = ulp_distance(want, got, f->f64);
    seen->ulps = u > seen->ulps ? u : seen->ulps;
    return u <= f->ulps;
}

/* ---- the test ------------------------------------------------------------ */
static void print_vector(const form *f, unsigned v)
{
    for (unsigned k = 0; k < f->nin; k++)
        print_error(" %llx", (unsigned long long)f->in[v * IN_WORDS + k]);
}

/* Runs form f on the simulator: the results of its VECTORS threads into
 * got; false when the launch fails. */
static bool run_form(ptx_module *m, const form *f, void *din, void *dout, uint64_t *got)
{
    char err[512] = "";
    const int e = model_ptx_entry(m, f->name, err, sizeof err);
    if (e < 0) {
        print_error("%s\n", err);
        return false;
    }
    /* a run of its own, so that a finding is the form's own */
    model_stats stats;
    model_stats_init(&stats);
    stats.cfg.quiet = true;
    model_begin(&stats);
    model_dev_copy(din, f->in, sizeof f->in);
    model_dev_memset(dout, 0, (size_t)VECTORS * OUT_WORDS * 8);
    const uint32_t n = VECTORS;
    const void *args[3] = {&din, &dout, &n};
    const sl_launch cfg = sl_launch_1d(1, VECTORS, 0);
    const sl_status st = model_end(model_ptx_launch(m, e, &cfg, args, err, sizeof err));
    model_stats_free(&stats);
    if (st != SL_OK) {
        print_error("%s (%s): the launch failed: %s\n", f->name, f->text, err);
        return false;
    }
    model_dev_copy(got, dout, (size_t)VECTORS * OUT_WORDS * 8);
    return true;
}

static void test_isa_forms_agree_with_h100(void **state)
{
    (void)state;
    unsigned nforms = 0;
    form *forms = read_forms(&nforms);
    assert_non_null(forms);
    char path[4096], err[512] = "";
    snprintf(path, sizeof path, "%s/forms.ptx", data_dir());
    ptx_module *m = model_ptx_load_file(path, err, sizeof err);
    if (!m) {
        free(forms);
        fail_msg("%s", err);
    }

    void *din = NULL, *dout = NULL;
    assert_int_equal(model_dev_alloc(&din, sizeof forms[0].in), SL_OK);
    assert_int_equal(model_dev_alloc(&dout, (size_t)VECTORS * OUT_WORDS * 8), SL_OK);
    static uint64_t got[VECTORS * OUT_WORDS];
    unsigned napprox = 0, bad_forms = 0;
    unsigned long bad = 0;
    for (unsigned i = 0; i < nforms; i++) {
        const form *f = &forms[i];
        napprox += f->approx;
        if (!run_form(m, f, din, dout, got)) {
            bad_forms++;
            continue;
        }
        approx_seen seen = {0, 0};
        unsigned wrong = 0;
        for (unsigned v = 0; v < VECTORS; v++)
            for (unsigned k = 0; k < f->nout; k++) {
                const uint64_t w = f->want[v * OUT_WORDS + k], g = got[v * OUT_WORDS + k];
                if (agrees(f, v, w, g, &seen))
                    continue;
                wrong++;
                print_error("%s (%s) vector %u, in", f->name, f->text, v);
                print_vector(f, v);
                print_error(": result %u: H100 %llx, simulator %llx\n", k, (unsigned long long)w,
                            (unsigned long long)g);
            }
        if (f->approx && f->abs > 0)
            printf("# %s: largest differences %.0f ulp, %.3g absolute (tolerance %.0f ulp, %.3g)\n", f->name,
                   seen.ulps, seen.abs, f->ulps, f->abs);
        else if (f->approx)
            printf("# %s: largest difference %.0f ulp (tolerance %.0f ulp)\n", f->name, seen.ulps, f->ulps);
        bad += wrong;
        bad_forms += wrong > 0;
    }
    model_dev_free(din);
    model_dev_free(dout);
    model_ptx_unload(m);
    free(forms);
    if (bad_forms)
        fail_msg("%u of %u forms disagree with the H100 (%lu results)", bad_forms, nforms, bad);
    printf("# %u forms, %u exact, %u approximate, all agree\n", nforms, nforms - napprox, napprox);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_forms_agree_with_h100),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
