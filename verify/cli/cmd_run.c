/* scanlab run -- PROGRAM ARGS: an unchanged nvcc-built program with every
 * launch executed by the simulator, through the simulator's CUDA runtime
 * (runtime/, docs/run.md) put first on the program's library path. The
 * runtime writes its record of launches and findings at the program's
 * exit; this command prints it and turns it into the exit status.
 * scanlab deadlock -- PROGRAM is the same with the schedule search of
 * every launch that waits between blocks. */
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/options.h"
#include "verify/cli/program_check.h"

extern char **environ;

#define RUNTIME_SONAME "libcudart.so.13"
#define RUNTIME_MAJOR 13

typedef struct {
    const char *models; /* NULL: none (run), "all" (deadlock) */
    const char *json;
    int schedules, resident, blocks, samples;
    int exhaustive; /* -1: by the launch's blocks */
    const char *seed;
    const char *device;
    bool allow_races;
    bool deadlock;
} run_opts;

static void usage(FILE *f, bool deadlock)
{
    if (deadlock) {
        fprintf(f, "usage: scanlab deadlock [--model M[,M...]|all] [--blocks G] [--resident R] [--exhaustive | "
                   "--samples K] [--seed S] [--json FILE] -- PROGRAM [ARGS...]\n\n"
                   "Runs PROGRAM (built with nvcc -cudart shared) with every launch on the simulator, and searches "
                   "the block schedules of each launch that waits between blocks (up to G blocks, default 8) under "
                   "each progress model (default all), R blocks resident (default 2). docs/run.md.\n");
        return;
    }
    fprintf(f, "usage: scanlab run [--model M[,M...]|all] [--schedules K] [--allow-races] [--json FILE] [--device D] "
               "-- PROGRAM [ARGS...]\n\n"
               "Runs PROGRAM, an unchanged program built with nvcc -cudart shared, with every kernel launch "
               "executed by the step-level simulator. Its output and exit status are kept; after it ends, each "
               "launch (kernel, grid, block, counts) and every finding (path:line: error:) are printed. Exit "
               "status: 1 if there was a finding, else the program's. docs/run.md.\n\n"
               "  --model M          also search the block schedules of each launch that waits between blocks\n"
               "                     under these progress models (obe, lobe, hsa, fair, all); with it, as for\n"
               "                     scanlab deadlock -- PROGRAM: --blocks G, --resident R, --exhaustive,\n"
               "                     --samples K, --seed S\n"
               "  --schedules K      each launch under K schedules: K - 1 explored ones, then the default one\n"
               "                     (whose results the program sees); 1 to 1000, default 1\n"
               "  --allow-races      a race does not fail the run (other findings still do)\n"
               "  --json FILE        the launches and findings as one JSON document\n"
               "  --device D         the GPU the device queries answer for (model/devices.def; default h100)\n");
}

/* The folder that holds the simulator's runtime: $SCANLAB_RUNTIME_DIR,
 * the build tree's runtime/ beside this executable, or the installed one. */
static bool find_runtime(char *dir, size_t size)
{
    char probe[8192];
    const char *env = getenv("SCANLAB_RUNTIME_DIR");
    if (env && *env) {
        snprintf(dir, size, "%s", env);
        snprintf(probe, sizeof probe, "%s/%s", dir, RUNTIME_SONAME);
        return access(probe, R_OK) == 0;
    }
    char exe[2048];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(dir, size, "%s/runtime", exe);
            snprintf(probe, sizeof probe, "%s/%s", dir, RUNTIME_SONAME);
            if (access(probe, R_OK) == 0)
                return true;
        }
    }
    snprintf(dir, size, "%s", SCANLAB_RUNTIME_LIBDIR);
    snprintf(probe, sizeof probe, "%s/%s", dir, RUNTIME_SONAME);
    return access(probe, R_OK) == 0;
}

/* PROGRAM as posix_spawnp would find it, for the ELF check. */
static bool resolve_program(const char *prog, char *path, size_t size)
{
    if (strchr(prog, '/')) {
        snprintf(path, size, "%s", prog);
        return access(path, X_OK) == 0;
    }
    const char *p = getenv("PATH");
    for (; p && *p;) {
        const size_t len = strcspn(p, ":");
        snprintf(path, size, "%.*s/%s", (int)len, len ? p : ".", prog);
        struct stat sb;
        if (access(path, X_OK) == 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
            return true;
        p += len + (p[len] == ':');
    }
    return false;
}

static int parse_models(const char *s, unsigned *mask)
{
    static const char *const names[] = {"obe", "lobe", "hsa", "fair"};
    *mask = 0;
    if (strcmp(s, "all") == 0) {
        *mask = 15;
        return CLI_EXIT_OK;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned k = 0;
        while (k < 4 && strcmp(t, names[k]) != 0)
            k++;
        if (k == 4)
            return cli_usage_error("%s--model: '%s' is not a progress model (obe, lobe, hsa, fair, all)",
                                   cli_command_prefix(), t);
        *mask |= 1u << k;
    }
    return *mask ? CLI_EXIT_OK : cli_usage_error("%s--model: no model named", cli_command_prefix());
}

static void setenv_uint(const char *name, unsigned long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", v);
    setenv(name, buf, 1);
}

/* The report file: header lines "scanlab-run launches=L findings=F ..."
 * (one per process that used the runtime) are counted, not printed. */
static int print_report(const char *path, unsigned long long *findings)
{
    FILE *f = fopen(path, "r");
    int reports = 0;
    *findings = 0;
    if (!f)
        return 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        unsigned long long l, fi;
        if (sscanf(line, "scanlab-run launches=%llu findings=%llu", &l, &fi) == 2) {
            reports++;
            *findings += fi;
            continue;
        }
        fputs(line, stdout);
    }
    fclose(f);
    return reports;
}

/* parse's answer to --help, which has printed it: the command returns 0 */
#define PARSE_HELP (-1)

static int parse(int argc, char **argv, run_opts *o, int *prog)
{
    *prog = 0;
    unsigned given = 0; /* options with a value, each at most once */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            *prog = i + 1;
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, o->deadlock);
            return PARSE_HELP;
        }
        if (a[0] != '-') {
            *prog = i;
            break;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        const bool has = v != NULL;
        if (strcmp(a, "--allow-races") == 0 && !o->deadlock) {
            o->allow_races = true;
            continue;
        }
        if (strcmp(a, "--exhaustive") == 0) {
            o->exhaustive = 1;
            continue;
        }
        const char *opts[] = {"--model", "--schedules", "--json", "--device", "--samples", "--seed", "--resident",
                              "--blocks"};
        size_t k = 0;
        while (k < sizeof opts / sizeof opts[0] && strcmp(a, opts[k]) != 0)
            k++;
        if (k == sizeof opts / sizeof opts[0] || (o->deadlock && (k == 1 || k == 3)))
            return cli_usage_error("%s'%s' is not an option of this command (--help lists them)",
                                   cli_command_prefix(), a);
        if (!has)
            return cli_usage_error("%s%s needs a value", cli_command_prefix(), a);
        if (given & (1u << k))
            return cli_usage_error("%s%s is given twice", cli_command_prefix(), a);
        given |= 1u << k;
        i++;
        switch (k) {
        case 0: o->models = v; break;
        case 1:
            if (cli_parse_int("--schedules", v, 1, 1000, &o->schedules) != SL_OK)
                return CLI_EXIT_USAGE;
            break;
        case 2: o->json = v; break;
        case 3: o->device = v; break;
        case 4:
            if (cli_parse_int("--samples", v, 1, 1000000, &o->samples) != SL_OK)
                return CLI_EXIT_USAGE;
            o->exhaustive = 0;
            break;
        case 5: {
            uint64_t seed;
            if (cli_parse_u64("--seed", v, &seed) != SL_OK)
                return CLI_EXIT_USAGE;
            o->seed = v;
            break;
        }
        case 6:
            if (cli_parse_int("--resident", v, 1, 255, &o->resident) != SL_OK)
                return CLI_EXIT_USAGE;
            break;
        case 7:
            if (cli_parse_int("--blocks", v, 2, 256, &o->blocks) != SL_OK)
                return CLI_EXIT_USAGE;
            break;
        }
    }
    if (!*prog || *prog >= argc)
        return cli_usage_error("%sname the program to run: scanlab %s [options] -- PROGRAM [ARGS...]",
                               cli_command_prefix(), o->deadlock ? "deadlock" : "run");
    return CLI_EXIT_OK;
}

/* Refuses a program the runtime cannot take the place of CUDA's for. */
static int check_program(const char *prog, program_info *info)
{
    char path[4096], why[256];
    if (!resolve_program(prog, path, sizeof path))
        return cli_usage_error("%s%s: no such executable%s", cli_command_prefix(), prog,
                               strchr(prog, '/') ? "" : " on PATH");
    if (program_check(path, info, why, sizeof why) != 0)
        return cli_usage_error("%s%s: %s", cli_command_prefix(), prog, why);
    if (info->link == PROGRAM_CUDART_STATIC)
        return cli_usage_error("%s%s is linked with the static CUDA runtime (nvcc's default), which the simulator "
                               "cannot take the place of: rebuild it with nvcc -cudart shared (docs/run.md)",
                               cli_command_prefix(), prog);
    if (info->link == PROGRAM_CUDART_SHARED && info->cudart_major != RUNTIME_MAJOR)
        return cli_usage_error("%s%s needs libcudart.so.%u; the simulator's runtime is %s: rebuild it with "
                               "nvcc %d (-cudart shared)", cli_command_prefix(), prog, info->cudart_major,
                               RUNTIME_SONAME, RUNTIME_MAJOR);
    return CLI_EXIT_OK;
}

/* The sanitizer runtime this scanlab was linked with, when it was built
 * with AddressSanitizer: the CUDA runtime it hands the program is then
 * instrumented too, and an nvcc-built program is not, so the sanitizer's
 * runtime must come first in the program (it refuses to start otherwise).
 * Found among the loaded objects, so that it is the very library this
 * build uses. */
#if defined(__SANITIZE_ADDRESS__)
static int find_asan(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    if (base && strncmp(base + 1, "libasan.so", 10) == 0) {
        *(const char **)data = info->dlpi_name;
        return 1;
    }
    return 0;
}
#endif

static const char *sanitizer_runtime(void)
{
    const char *found = NULL;
#if defined(__SANITIZE_ADDRESS__)
    dl_iterate_phdr(find_asan, &found);
#endif
    return found;
}

/* LD_PRELOAD with lib first (the loader takes its entries in order). */
static void preload_first(const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    if (old && strstr(old, lib))
        return;
    const size_t len = strlen(lib) + (old ? strlen(old) : 0) + 2;
    char *pre = malloc(len);
    if (!pre)
        return; /* then the program meets the loader's own message */
    snprintf(pre, len, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_PRELOAD", pre, 1);
    free(pre);
}

static int settings_env(const run_opts *o, const char *runtime, const program_info *info)
{
    const char *old = getenv("LD_LIBRARY_PATH");
    char *lib = malloc(strlen(runtime) + (old ? strlen(old) : 0) + 2);
    if (!lib)
        return CLI_EXIT_FAILED;
    sprintf(lib, "%s%s%s", runtime, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", lib, 1);
    free(lib);
    if (info->has_rpath) {
        /* DT_RPATH is searched before LD_LIBRARY_PATH; a preloaded library
         * with the soname the program needs is taken whatever its paths say */
        char pre[8192];
        snprintf(pre, sizeof pre, "%s/%s", runtime, RUNTIME_SONAME);
        preload_first(pre);
    }
    const char *asan = sanitizer_runtime();
    if (asan)
        preload_first(asan);
    setenv_uint("SCANLAB_RUN_SCHEDULES", (unsigned long long)o->schedules);
    setenv_uint("SCANLAB_RUN_ALLOW_RACES", o->allow_races);
    if (o->models) {
        unsigned mask;
        const int rc = parse_models(o->models, &mask);
        if (rc != CLI_EXIT_OK)
            return rc;
        setenv_uint("SCANLAB_RUN_MODELS", mask);
    }
    if (o->exhaustive >= 0)
        setenv_uint("SCANLAB_RUN_EXHAUSTIVE", (unsigned long long)o->exhaustive);
    if (o->samples)
        setenv_uint("SCANLAB_RUN_SAMPLES", (unsigned long long)o->samples);
    if (o->resident)
        setenv_uint("SCANLAB_RUN_RESIDENT", (unsigned long long)o->resident);
    if (o->blocks)
        setenv_uint("SCANLAB_RUN_SEARCH_BLOCKS", (unsigned long long)o->blocks);
    if (o->seed) {
        uint64_t s;
        if (cli_parse_u64("--seed", o->seed, &s) != SL_OK)
            return CLI_EXIT_USAGE;
        setenv_uint("SCANLAB_RUN_SEED", (unsigned long long)s);
    }
    if (o->device)
        setenv("SCANLAB_DEVICE", o->device, 1);
    return CLI_EXIT_OK;
}

static int run_program(int argc, char **argv, bool deadlock)
{
    run_opts o = {.schedules = 1, .exhaustive = -1, .deadlock = deadlock, .models = deadlock ? "all" : NULL};
    int prog = 0, rc = parse(argc, argv, &o, &prog);
    if (rc == PARSE_HELP)
        return CLI_EXIT_OK;
    if (rc != CLI_EXIT_OK)
        return rc;
    char runtime[4096];
    if (!find_runtime(runtime, sizeof runtime))
        return cli_usage_error("%sthe simulator's CUDA runtime (%s) is not built or installed: not found in %s "
                               "(set SCANLAB_RUNTIME_DIR to its folder)", cli_command_prefix(), RUNTIME_SONAME,
                               runtime);
    program_info info;
    if ((rc = check_program(argv[prog], &info)) != CLI_EXIT_OK)
        return rc;
    if (o.models) {
        unsigned mask;
        if ((rc = parse_models(o.models, &mask)) != CLI_EXIT_OK)
            return rc;
    }
    if (cli_dry_run())
        return CLI_EXIT_OK; /* every check made; nothing run, no file written */
    const char *tmp = getenv("TMPDIR");
    char report[4096], json_tmp[4200] = "";
    snprintf(report, sizeof report, "%s/scanlab-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    const int fd = mkstemp(report);
    if (fd < 0)
        return cli_usage_error("%scannot make a temporary file in %s: %s", cli_command_prefix(),
                               tmp && *tmp ? tmp : "/tmp", strerror(errno));
    close(fd);
    setenv("SCANLAB_RUN_REPORT", report, 1);
    if (o.json) {
        /* the runtime writes beside the destination; it becomes the
         * destination only once the program has ended and written it whole */
        snprintf(json_tmp, sizeof json_tmp, "%s.partial", o.json);
        setenv("SCANLAB_RUN_JSON", json_tmp, 1);
    }
    if ((rc = settings_env(&o, runtime, &info)) != CLI_EXIT_OK) {
        unlink(report);
        return rc;
    }
    fflush(stdout);
    pid_t pid;
    const int err = posix_spawnp(&pid, argv[prog], NULL, NULL, argv + prog, environ);
    if (err != 0) {
        unlink(report);
        return cli_usage_error("%scannot run %s: %s", cli_command_prefix(), argv[prog], strerror(err));
    }
    /* the terminal's interrupt reaches the program; this process waits for it */
    signal(SIGINT, SIG_IGN);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    signal(SIGINT, SIG_DFL);
    unsigned long long findings = 0;
    const int reports = print_report(report, &findings);
    unlink(report);
    int prog_rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (WIFSIGNALED(status))
        fprintf(stderr, "scanlab: %s%s was killed by signal %d (%s)\n", cli_command_prefix(), argv[prog],
                WTERMSIG(status), strsignal(WTERMSIG(status)));
    if (reports == 0)
        fprintf(stderr, "scanlab: %s%s ended without the simulator's runtime writing its record (%s)\n",
                cli_command_prefix(), argv[prog],
                info.link == PROGRAM_CUDART_SHARED ? "it did not reach its exit normally"
                                                   : "it is not linked with libcudart.so: no CUDA call was seen");
    if (o.json) {
        if (reports > 0 && rename(json_tmp, o.json) != 0) {
            fprintf(stderr, "scanlab: %s--json %s: %s\n", cli_command_prefix(), o.json, strerror(errno));
            prog_rc = prog_rc ? prog_rc : CLI_EXIT_FAILED;
        } else if (reports == 0) {
            unlink(json_tmp);
            fprintf(stderr, "scanlab: %s--json %s: not written (no record)\n", cli_command_prefix(), o.json);
        }
    }
    if (findings > 0) {
        printf("%llu finding%s: FAILED\n", findings, findings == 1 ? "" : "s");
        return CLI_EXIT_FAILED;
    }
    return prog_rc;
}

int cmd_run(int argc, char **argv) { return run_program(argc, argv, false); }

int cmd_run_deadlock(int argc, char **argv) { return run_program(argc, argv, true); }
