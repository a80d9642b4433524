/* --kernel: a user's scan kernel, unchanged, on the simulator. */
#include "verify/cli/user_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/model.h"
#include "model/ptx/run.h"
#include "verify/cli/cli.h"
#include "verify/harness/expr.h"

extern char **environ;

/* The kernel's options: --kernel, --entry, --grid, --shared, --scratch,
 * --arch, --args (each --name V or --name=V). */
enum { UK_KERNEL, UK_ENTRY, UK_GRID, UK_SHARED, UK_SCRATCH, UK_ARCH, UK_ARGS, UK_COUNT };
static const char *const uk_names[UK_COUNT] = {"kernel", "entry", "grid", "shared", "scratch", "arch", "args"};

/* What each of the kernel's parameters receives (--args): kernels in the
 * wild order their parameters as they please, (out, in, n), (data, n) for
 * an in-place scan, or take a constant; the kernel stays unchanged and the
 * command line says what is where. */
typedef enum { ARG_IN, ARG_OUT, ARG_INOUT, ARG_N, ARG_SCRATCH, ARG_VALUE } uk_role;
#define UK_MAX_PARAMS 16
#define UK_ROLE_LEN 128

#define UK_DEFAULT_BLOCK 256
#define UK_DEFAULT_GRID "(n + B - 1) / B"
/* Poison the output before a launch: an element the kernel never writes
 * then reads back as this pattern, not as a lucky zero. */
#define UK_POISON 0xa5

/* The one user kernel of the process. */
static struct {
    const char *val[UK_COUNT];
    ptx_module *m;
    int entry;
    unsigned nparams;
    uk_role role[UK_MAX_PARAMS];
    char value[UK_MAX_PARAMS][UK_ROLE_LEN]; /* ARG_VALUE: an expression of n */
    unsigned bytes[UK_MAX_PARAMS];          /* each parameter's size */
    bool has_scratch;                       /* a parameter receives device scratch memory */
    int block;           /* deadlock's --block (the command has none of its own); 0: none */
    char name[128];
} uk;

/* ---- compiling a .cu ------------------------------------------------------- */
static bool ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The nvcc to run: $NVCC, else nvcc on PATH, else the toolkit's usual place. */
static const char *find_nvcc(void)
{
    const char *env = getenv("NVCC");
    if (env && *env)
        return env;
    const char *path = getenv("PATH");
    static char buf[4096];
    for (const char *p = path; p && *p;) {
        const size_t len = strcspn(p, ":");
        if (len && len + 6 < sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/nvcc", (int)len, p);
            if (access(buf, X_OK) == 0)
                return buf;
        }
        p += len + (p[len] == ':');
    }
    if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
        return "/usr/local/cuda/bin/nvcc";
    return NULL;
}

/* Compiles src with nvcc -ptx -lineinfo into a temporary file, whose path
 * is written to ptx (the caller removes it). nvcc's messages go to stderr
 * as they are. */
static int compile_cu(const char *src, const char *arch, char *ptx, size_t ptx_size)
{
    const char *nvcc = find_nvcc();
    if (!nvcc)
        return cli_usage_error("%s--kernel %s: nvcc not found (set NVCC, put it on PATH, or give the .ptx that "
                               "'nvcc -ptx -lineinfo' writes)", cli_command_prefix(), src);
    const char *tmp = getenv("TMPDIR");
    snprintf(ptx, ptx_size, "%s/scanlab-kernel-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    const int fd = mkstemp(ptx);
    if (fd < 0)
        return cli_usage_error("%s--kernel %s: cannot make a temporary file in %s: %s", cli_command_prefix(), src,
                               tmp && *tmp ? tmp : "/tmp", strerror(errno));
    close(fd);
    char archopt[64];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    char *args[] = {(char *)nvcc, "-ptx", "-lineinfo", archopt, (char *)src, "-o", ptx, NULL};
    pid_t pid;
    int status = 0;
    const int err = posix_spawn(&pid, nvcc, NULL, NULL, args, environ);
    if (err != 0) {
        unlink(ptx);
        return cli_usage_error("%s--kernel %s: cannot run %s: %s", cli_command_prefix(), src, nvcc, strerror(err));
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        unlink(ptx);
        return cli_usage_error("%s--kernel %s: nvcc could not compile it (its messages are above)",
                               cli_command_prefix(), src);
    }
    return CLI_EXIT_OK;
}

/* ---- the kernel's signature ------------------------------------------------------ */
static const char *const role_names[] = {"in", "out", "inout", "n", "scratch"};

/* Reads --args (a comma list, one entry per parameter); without it the
 * signature is (in, out, n) or (in, out, n, scratch). */
static int parse_roles(unsigned np)
{
    const char *spec = uk.val[UK_ARGS] ? uk.val[UK_ARGS] : np == 4 ? "in,out,n,scratch" : "in,out,n";
    unsigned k = 0;
    for (const char *p = spec;; k++) {
        const size_t len = strcspn(p, ",");
        if (k >= UK_MAX_PARAMS || len == 0 || len >= UK_ROLE_LEN)
            return cli_usage_error("%s--args %s: %s", cli_command_prefix(), spec,
                                   k >= UK_MAX_PARAMS ? "more than 16 parameters" : len ? "an entry is too long"
                                                                                       : "an empty entry");
        uk.role[k] = ARG_VALUE;
        for (unsigned r = 0; r < sizeof role_names / sizeof *role_names; r++)
            if (strlen(role_names[r]) == len && strncmp(p, role_names[r], len) == 0)
                uk.role[k] = (uk_role)r;
        snprintf(uk.value[k], UK_ROLE_LEN, "%.*s", (int)len, p);
        if (uk.role[k] == ARG_VALUE) {
            int64_t probe;
            char why[256];
            if (verify_expr_eval(uk.value[k], 1, &probe, why, sizeof why) != SL_OK)
                return cli_usage_error("%s--args: '%s' is neither in, out, inout, n, scratch nor an integer "
                                       "expression of n (%s)", cli_command_prefix(), uk.value[k], why);
        }
        p += len;
        if (!*p)
            break;
        p++;
    }
    if (k + 1 != np && !uk.val[UK_ARGS])
        return cli_usage_error("%s--entry %s takes %u parameters, but the kernel's signature must be (const T *in, "
                               "T *out, N n[, void *scratch]) unless --args says what each parameter is",
                               cli_command_prefix(), uk.val[UK_ENTRY], np);
    if (k + 1 != np)
        return cli_usage_error("%s--args %s names %u parameters; --entry %s takes %u", cli_command_prefix(),
                               spec, k + 1, uk.val[UK_ENTRY], np);
    return CLI_EXIT_OK;
}

/* The signature against the roles: pointers are 8 bytes, integers 1 to 8;
 * one input and one output (or one array for both), at most one scratch. */
static int check_signature(void)
{
    const unsigned np = model_ptx_nparams(uk.m, uk.entry);
    if (np == 0 || np > UK_MAX_PARAMS)
        return cli_usage_error("%s--entry %s takes %u parameters; a scan kernel takes its input, output and size",
                               cli_command_prefix(), uk.val[UK_ENTRY], np);
    int rc = parse_roles(np);
    if (rc != CLI_EXIT_OK)
        return rc;
    uk.nparams = np;
    unsigned count[ARG_VALUE + 1] = {0};
    for (unsigned k = 0; k < np; k++) {
        const size_t b = model_ptx_param_size(uk.m, uk.entry, k);
        uk.bytes[k] = (unsigned)b;
        count[uk.role[k]]++;
        const bool pointer = uk.role[k] <= ARG_INOUT || uk.role[k] == ARG_SCRATCH;
        if (pointer ? b != 8 : b != 1 && b != 2 && b != 4 && b != 8)
            return cli_usage_error("%s--entry %s: parameter %u (%s) is %zu bytes, not %s", cli_command_prefix(),
                                   uk.val[UK_ENTRY], k + 1, uk.value[k], b,
                                   pointer ? "an 8-byte pointer" : "an integer of 1, 2, 4 or 8 bytes");
    }
    const bool split = count[ARG_IN] == 1 && count[ARG_OUT] == 1 && count[ARG_INOUT] == 0;
    const bool in_place = count[ARG_IN] == 0 && count[ARG_OUT] == 0 && count[ARG_INOUT] == 1;
    if (!(split || in_place) || count[ARG_SCRATCH] > 1 || count[ARG_N] > 1)
        return cli_usage_error("%s--entry %s: the kernel's parameters must take one input and one output "
                               "(in, out) or one array for both (inout), at most one n and one scratch (--args; "
                               "without it the signature is (const T *in, T *out, N n[, void *scratch]))",
                               cli_command_prefix(), uk.val[UK_ENTRY]);
    uk.has_scratch = count[ARG_SCRATCH] == 1;
    if (uk.has_scratch && !uk.val[UK_SCRATCH])
        return cli_usage_error("%s--entry %s takes scratch memory: give --scratch BYTES, an expression of n",
                               cli_command_prefix(), uk.val[UK_ENTRY]);
    if (!uk.has_scratch && uk.val[UK_SCRATCH])
        return cli_usage_error("%s--scratch: --entry %s takes no parameter for it", cli_command_prefix(),
                               uk.val[UK_ENTRY]);
    return CLI_EXIT_OK;
}

/* Loads the module and finds the entry. */
static int load(void)
{
    const char *file = uk.val[UK_KERNEL];
    char err[1024] = "", tmp[4096] = "";
    struct stat sb;
    if (stat(file, &sb) != 0 || !S_ISREG(sb.st_mode))
        return cli_usage_error("%s--kernel %s: %s", cli_command_prefix(), file,
                               stat(file, &sb) != 0 ? strerror(errno) : "not a file");
    const char *ptx = file;
    if (ends_with(file, ".cu")) {
        const char *arch = uk.val[UK_ARCH] ? uk.val[UK_ARCH] : "sm_90";
        const int rc = compile_cu(file, arch, tmp, sizeof tmp);
        if (rc != CLI_EXIT_OK)
            return rc;
        ptx = tmp;
    } else if (uk.val[UK_ARCH]) {
        return cli_usage_error("%s--arch applies to a .cu (it is passed to nvcc); %s is PTX", cli_command_prefix(),
                               file);
    }
    uk.m = model_ptx_load_file(ptx, err, sizeof err);
    if (*tmp)
        unlink(tmp);
    if (!uk.m) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    uk.entry = model_ptx_entry(uk.m, uk.val[UK_ENTRY], err, sizeof err);
    if (uk.entry < 0) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    snprintf(uk.name, sizeof uk.name, "%s", uk.val[UK_ENTRY]);
    return check_signature();
}

/* ---- the run on the simulator ------------------------------------------------------ */
static sl_status eval(int which, const char *def, size_t n, int block, int64_t *out)
{
    char why[256], expr[512];
    const char *s = uk.val[which] ? uk.val[which] : def;
    /* the default grid names the block size B: spelled out here */
    if (!uk.val[which] && strchr(s, 'B')) {
        snprintf(expr, sizeof expr, "(n + %d - 1) / %d", block, block);
        s = expr;
    }
    if (verify_expr_eval(s, (int64_t)n, out, why, sizeof why) != SL_OK) {
        fprintf(stderr, "scanlab: %s--%s: %s\n", cli_command_prefix(), uk_names[which], why);
        return SL_ERR_ARG;
    }
    return SL_OK;
}

/* Whether v fits a parameter of the given bytes, signed or unsigned. */
static bool fits(int64_t v, unsigned bytes)
{
    if (bytes >= 8)
        return true;
    const int64_t lim = (int64_t)1 << (8 * bytes);
    return v >= -lim / 2 && v < lim;
}

/* Each parameter's value for a launch at size n; false (with a message)
 * when a value does not fit its parameter. */
static bool build_args(size_t n, void *din, void *dout, void *dscratch, uint64_t vals[], const void *args[])
{
    for (unsigned k = 0; k < uk.nparams; k++) {
        int64_t v = 0;
        switch (uk.role[k]) {
        case ARG_IN: vals[k] = (uint64_t)(uintptr_t)din; break;
        case ARG_OUT:
        case ARG_INOUT: vals[k] = (uint64_t)(uintptr_t)dout; break;
        case ARG_SCRATCH: vals[k] = (uint64_t)(uintptr_t)dscratch; break;
        case ARG_N:
            if (uk.bytes[k] < 8 && n >> (8 * uk.bytes[k] - 1)) {
                fprintf(stderr, "scanlab: %s--kernel: n = %zu does not fit the kernel's %u-byte size parameter\n",
                        cli_command_prefix(), n, uk.bytes[k]);
                return false;
            }
            vals[k] = n;
            break;
        case ARG_VALUE: {
            char why[256] = "does not fit its parameter", shown[UK_ROLE_LEN * 4];
            if (verify_expr_eval(uk.value[k], (int64_t)n, &v, why, sizeof why) != SL_OK || !fits(v, uk.bytes[k])) {
                fprintf(stderr, "scanlab: %s--args: '%s' at n = %zu: %s\n", cli_command_prefix(),
                        cli_printable(uk.value[k], -1, shown, sizeof shown), n, why);
                return false;
            }
            vals[k] = (uint64_t)v;
            break;
        }
        }
        /* little-endian: the low bytes of the 64-bit value are the parameter */
        args[k] = &vals[k];
    }
    return true;
}

static sl_status run_sim(const sl_scan_args *a)
{
    const size_t es = SL_TYPE_SIZE(a->type);
    const int block = uk.block ? uk.block : a->block ? a->block : UK_DEFAULT_BLOCK;
    int64_t grid = 0, shared = 0, scratch = 0;
    if (eval(UK_GRID, UK_DEFAULT_GRID, a->n, block, &grid) != SL_OK ||
        eval(UK_SHARED, "0", a->n, block, &shared) != SL_OK ||
        (uk.has_scratch && eval(UK_SCRATCH, "0", a->n, block, &scratch) != SL_OK))
        return SL_ERR_ARG;
    if (grid < 0 || grid > INT32_MAX || shared < 0 || shared > (int64_t)MODEL_MAX_SHARED_LIMIT || scratch < 0 ||
        scratch > ((int64_t)1 << 40)) {
        fprintf(stderr, "scanlab: %s--kernel at n = %zu: grid %lld, shared %lld, scratch %lld bytes: out of range\n",
                cli_command_prefix(), a->n,
                (long long)grid, (long long)shared, (long long)scratch);
        return SL_ERR_ARG;
    }
    bool inout = false;
    for (unsigned k = 0; k < uk.nparams; k++)
        inout |= uk.role[k] == ARG_INOUT;
    const size_t bytes = a->n * es;
    model_begin((model_stats *)a->sim);
    void *din = NULL, *dout = NULL, *dscratch = NULL;
    sl_status st = model_dev_alloc(&dout, bytes ? bytes : 1);
    if (st == SL_OK && !inout)
        st = model_dev_alloc(&din, bytes ? bytes : 1);
    if (st == SL_OK && uk.has_scratch)
        st = model_dev_alloc(&dscratch, scratch ? (size_t)scratch : 1);
    uint64_t vals[UK_MAX_PARAMS];
    const void *args[UK_MAX_PARAMS];
    if (st == SL_OK && !build_args(a->n, din, dout, dscratch, vals, args))
        st = SL_ERR_ARG;
    if (st == SL_OK) {
        /* an in-place kernel reads its input from the output array; else
         * the output starts poisoned */
        if (inout)
            model_dev_copy(dout, a->in, bytes);
        else {
            model_dev_copy(din, a->in, bytes);
            model_dev_memset(dout, UK_POISON, bytes ? bytes : 1);
        }
        if (dscratch)
            model_dev_memset(dscratch, 0, scratch ? (size_t)scratch : 1);
        /* a grid of no blocks is no launch, as a host driver skips it at n = 0 */
        if (grid > 0) {
            const sl_launch cfg = sl_launch_1d((unsigned)grid, (unsigned)block, (size_t)shared);
            char err[512] = "";
            st = model_ptx_launch(uk.m, uk.entry, &cfg, args, err, sizeof err);
            if (st == SL_ERR_ARG && *err)
                fprintf(stderr, "%s\n", err);
        } else if (a->n > 0) {
            fprintf(stderr, "scanlab: %s--kernel: at n = %zu the grid expression gives no blocks\n",
                    cli_command_prefix(), a->n);
            st = SL_ERR_ARG;
        }
        model_dev_copy(a->out, dout, bytes);
    }
    model_dev_free(din);
    model_dev_free(dout);
    model_dev_free(dscratch);
    return model_end(st);
}

/* ---- the command line ---------------------------------------------------------------- */
/* Whether argv[i] is --name or --name=V; *value is V (or argv[i + 1]). */
static int match_opt(int argc, char **argv, int i, const char *name, const char **value)
{
    const char *a = argv[i];
    const size_t k = strlen(name);
    if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, k) != 0)
        return 0;
    if (a[2 + k] == '=') {
        *value = a + 3 + k;
        return 1;
    }
    if (a[2 + k] != '\0')
        return 0;
    if (i + 1 >= argc) {
        *value = NULL;
        return 1;
    }
    *value = argv[i + 1];
    return 2;
}

static bool given(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (match_opt(argc, argv, i, name, &v))
            return true;
    }
    return false;
}

int user_kernel_dispatch(const char *cmd, int argc, char **argv, user_kernel_main_fn main_fn)
{
    cli_set_command(cmd);
    bool any = false;
    for (int k = 0; k < UK_COUNT; k++)
        any |= given(argc, argv, uk_names[k]);
    if (!any)
        return main_fn(argc, argv, verify_algos, verify_algo_count);
    /* the arguments without the kernel's options, with --algo, and the
     * defaults that fit one kernel: the sim backend, i32, add */
    char **nargv = calloc((size_t)argc + 8, sizeof *nargv);
    if (!nargv)
        return CLI_EXIT_FAILED;
    int nargc = 0;
    nargv[nargc++] = argv[0];
    for (int i = 1; i < argc; i++) {
        int used = 0;
        for (int k = 0; k < UK_COUNT && !used; k++) {
            const char *v;
            if ((used = match_opt(argc, argv, i, uk_names[k], &v))) {
                if (!v || !*v) {
                    free(nargv);
                    return cli_usage_error("%s: --%s needs a value", cmd, uk_names[k]);
                }
                uk.val[k] = v;
            }
        }
        if (used) {
            i += used - 1;
            continue;
        }
        const char *bv;
        const int bused = strcmp(cmd, "deadlock") == 0 ? match_opt(argc, argv, i, "block", &bv) : 0;
        if (bused) {
            /* deadlock has no --block of its own (and would take it for --blocks) */
            if (!bv || cli_parse_int("--block", bv, 1, 1024, &uk.block) != SL_OK) {
                free(nargv);
                return CLI_EXIT_USAGE;
            }
            i += bused - 1;
            continue;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            free(nargv);
            return main_fn(argc, argv, verify_algos, verify_algo_count);
        }
        nargv[nargc++] = argv[i];
    }
    int rc = CLI_EXIT_OK;
    if (!uk.val[UK_KERNEL])
        rc = cli_usage_error("%s: --entry, --grid, --shared, --scratch, --arch and --args go with --kernel FILE", cmd);
    else if (!uk.val[UK_ENTRY])
        rc = cli_usage_error("%s: --kernel needs --entry NAME (the kernel's name in the PTX, mangled unless it "
                             "is extern \"C\")", cmd);
    else if (given(argc, argv, "algo"))
        rc = cli_usage_error("%s: --algo and --kernel exclude each other", cmd);
    /* the kernel fixes its type and operator: one of each to check against */
    for (int i = 1; rc == CLI_EXIT_OK && i < argc; i++) {
        const char *v = NULL;
        const char *opt = match_opt(argc, argv, i, "type", &v) ? "--type"
                          : match_opt(argc, argv, i, "op", &v) ? "--op"
                                                                : NULL;
        if (opt && v && (strchr(v, ',') || strcmp(v, "all") == 0))
            rc = cli_usage_error("%s: %s %s: a kernel has one type and one operator; name the one it computes", cmd,
                                 opt, v);
    }
    if (rc == CLI_EXIT_OK)
        rc = load();
    /* report takes the kernel's type, operator and sizes as its own options */
    const bool report = strcmp(cmd, "report") == 0;
    if (rc == CLI_EXIT_OK && !report) {
        nargv[nargc++] = "--algo";
        nargv[nargc++] = uk.name;
        /* deadlock searches schedules of one type and operator of its own */
        const bool typed = strcmp(cmd, "deadlock") != 0;
        if (typed && !given(argc, argv, "backend")) {
            nargv[nargc++] = "--backend";
            nargv[nargc++] = "sim";
        }
        if (typed && !given(argc, argv, "type")) {
            nargv[nargc++] = "--type";
            nargv[nargc++] = "i32";
        }
        if (typed && !given(argc, argv, "op")) {
            nargv[nargc++] = "--op";
            nargv[nargc++] = "add";
        }
    }
    if (rc == CLI_EXIT_OK) {
        const verify_algo algo = {uk.name, "a user's kernel (--kernel)", SL_KIND_SCAN, {[SL_SIM] = run_sim}, NULL};
        rc = main_fn(nargc, nargv, &algo, 1);
    }
    model_ptx_unload(uk.m);
    uk.m = NULL;
    free(nargv);
    return rc;
}
