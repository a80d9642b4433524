/* 'scanlab verify' through the executable (its path is argv[1]): bad
 * usage exits 2 with a message, the CPU backends pass on the catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "tap.h"

#include "config.h"
#include "run_cli.h"

static const char *scanlab;

/* Run scanlab with args (NULL-terminated): see test_run_cli. */
static int run(const char *const *args, char **out, char **err)
{
    return test_run_cli(scanlab, args, out, err);
}

/* Each bad command line exits 2 and says why on stderr, naming the valid
 * choices where there is a list. */
static void bad_usage_exits_2(void **state)
{
    (void)state;
    static const struct {
        const char *args[8];
        const char *says;
    } cases[] = {
        {{"verify", "--algo", "nope"}, "valid: all, sequential"},
        {{"verify", "--backend", "gpu"}, "valid: seq, omp, sim, cuda"},
        {{"verify", "--type", "f16"}, "valid: i32, i64, f32, f64"},
        {{"verify", "--op", "mul"}, "valid: add, max, min, affine"},
        {{"verify", "--dist", "gauss"}, "valid: all, uniform, small"},
        {{"verify", "--op", "affine", "--type", "f32"}, "does not apply to type 'f32'"},
        {{"verify", "--type", "i32", "--dist", "uniform01"}, "uniform01"},
        {{"verify", "--sizes", "-1"}, "negative"},
        {{"verify", "--sizes", "12x"}, "not a size"},
        {{"verify", "--sizes", ","}, "empty list"},
        {{"verify", "--sizes", "2^62"}, "memory"},
        {{"verify", "--max-n", "lots"}, "not a size"},
        {{"verify", "--seed", "-5"}, "--seed"},
        {{"verify", "--jobs", "0"}, "--jobs"},
        {{"verify", "--repeat", "x"}, "--repeat"},
        {{"verify", "--exclusive", "--both"}, "exclude each other"},
        {{"verify", "--bogus"}, "unknown option '--bogus'"},
        {{"verify", "--sizes"}, "needs a value"},
        {{"verify", "extra"}, "unexpected argument 'extra'"},
        {{"verify", "--algo", "sequential", "--backend", "sim"}, "runs on none"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *err = NULL, *out = NULL;
        int rc = run(cases[i].args, &out, &err);
        if (rc != 2 || !strstr(err, cases[i].says))
            fail_msg("case %zu (%s %s %s): exit %d, stderr: %s", i, cases[i].args[1],
                     cases[i].args[2] ? cases[i].args[2] : "", cases[i].args[3] ? cases[i].args[3] : "",
                     rc, err);
        assert_string_equal(out, ""); /* nothing half-written on stdout */
        free(err);
        free(out);
    }
}

static void help_documents_every_option(void **state)
{
    (void)state;
    char *out = NULL;
    const char *args[] = {"verify", "--help", NULL};
    assert_int_equal(run(args, &out, NULL), 0);
    const char *opts[] = {"--algo", "--backend", "--type", "--op", "--exclusive", "--both", "--n",
                          "--block", "--param", "--dist", "--seed", "--jobs", "--repeat", "--json",
                          "--input", "--output", "--allow-races", "--fail-on-skip",
                          "--sizes is --n", "--max-n N is --n edges..N", "exit status"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        assert_non_null(strstr(out, opts[i]));
    free(out);
}

/* The whole catalogue on the CPU backends, inclusive and exclusive, every
 * distribution: nothing fails, and with OpenMP built the omp lines are there. */
static void cpu_backends_pass_the_catalogue(void **state)
{
    (void)state;
    const char *args[] = {"verify", "--backend", "seq,omp", "--both", "--max-n", "300",
                          "--dist", "all", "--jobs", "2", "--repeat", "2", NULL};
    const char *seq_only[] = {"verify", "--backend", "seq", "--both", "--max-n", "300",
                              "--dist", "all", "--jobs", "2", "--repeat", "2", NULL};
    char *out = NULL, *err = NULL;
    int rc = run(SCANLAB_HAVE_OPENMP ? args : seq_only, &out, &err);
    if (rc != 0)
        fail_msg("exit %d\n%s\n%s", rc, out, err);
    assert_non_null(strstr(out, " 0 FAILED,"));
    assert_non_null(strstr(err, "seed"));
    if (SCANLAB_HAVE_OPENMP)
        assert_non_null(strstr(out, "omp-"));
    /* i32 affine exclusive on the sequential scan is one of the lines. */
    assert_non_null(strstr(out, "sequential"));
    assert_non_null(strstr(out, "affine  exclusive  OK"));
    free(out);
    free(err);
}

/* "all" skips what does not apply: affine on every type runs the integers
 * only; JSON output is one document. */
static void all_skips_what_does_not_apply(void **state)
{
    (void)state;
    const char *args[] = {"verify", "--backend", "seq", "--op", "affine", "--sizes", "5",
                          "--seed", "11", "--json", NULL};
    char *out = NULL;
    assert_int_equal(run(args, &out, NULL), 0);
    assert_non_null(strstr(out, "{\"seed\":11,"));
    assert_non_null(strstr(out, "\"type\":\"i64\""));
    assert_null(strstr(out, "\"type\":\"f32\""));
    assert_null(strstr(out, "FAILED"));
    free(out);
}

/* `simulate --occupancy G`: the kernels' occupancy query answers G, so
 * the single-pass scans run as persistent grids of G blocks, as on the
 * GPU: lookback pipelines once each block gets two tiles (7 tiles of 32 on
 * 3 blocks: sp_scan_pipe_items; the default tile at 100000 i64 elements
 * on 2 blocks, one slot, random dispatch: sp_scan_pipe), chained-ticket
 * keeps one tile in flight (sp_scan_items), and every result is correct.
 * Without --occupancy the grid is that persistent path, scaled: half as
 * many blocks as tiles past 4 tiles (7 tiles: 3 blocks, pipelined; 4
 * tiles: a block each, as before), said on a line of its own and in the
 * JSON; --occupancy tiles gives a block per tile. G = 0 and G with --huge
 * exit 2. */
static void simulate_occupancy_runs_persistent_grids(void **state)
{
    (void)state;
    static const struct {
        const char *args[20];
        const char *launch;
        unsigned blocks;
    } cases[] = {
        {{"simulate", "--algo", "lookback", "--n", "224", "--block", "32", "--param", "1", "--occupancy", "3",
          "--seed", "1", NULL},
         "sp_scan_pipe_items_i32_add_sim", 3},
        {{"simulate", "--algo", "lookback", "--type", "i64", "--op", "affine", "--exclusive", "--n", "100000",
          "--occupancy", "2", "--slots", "1", "--order", "random", "--seed", "3", NULL},
         "sp_scan_pipe_i64_affine_sim", 2},
        {{"simulate", "--algo", "chained-ticket", "--n", "224", "--block", "32", "--param", "1", "--occupancy",
          "3", "--seed", "1", NULL},
         "sp_scan_items_i32_add_sim", 3},
        /* the default grid: the GPU's persistent path, scaled */
        {{"simulate", "--algo", "lookback", "--n", "224", "--block", "32", "--param", "1", "--seed", "1", NULL},
         "sp_scan_pipe_items_i32_add_sim", 3},
        {{"simulate", "--algo", "lookback-det", "--type", "f64", "--n", "224", "--block", "32", "--param", "1",
          "--seed", "1", NULL},
         "sp_scan_pipe_items_f64_add_sim", 3},
        {{"simulate", "--algo", "chained-ticket", "--n", "224", "--block", "32", "--param", "1", "--seed", "1",
          NULL},
         "sp_scan_items_i32_add_sim", 3},
        {{"simulate", "--algo", "lookback", "--n", "128", "--block", "32", "--param", "1", "--seed", "1", NULL},
         "sp_scan_items_i32_add_sim", 4},
        {{"simulate", "--algo", "lookback", "--n", "224", "--block", "32", "--param", "1", "--occupancy", "tiles",
          "--seed", "1", NULL},
         "sp_scan_items_i32_add_sim", 7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL, *err = NULL;
        assert_int_equal(run(cases[i].args, &out, &err), 0);
        /* the launch table's row: name, blocks, threads, ... */
        char row[64];
        snprintf(row, sizeof row, "\n%s ", cases[i].launch);
        const char *at = strstr(out, row);
        unsigned blocks = 0;
        if (!at || sscanf(at + strlen(row), "%u", &blocks) != 1 || blocks != cases[i].blocks ||
            !strstr(out, "result: correct"))
            fail_msg("case %zu: no launch of %s on %u blocks, or not correct:\n%s", i, cases[i].launch,
                     cases[i].blocks, out);
        /* the scaled persistent grid, where the default chose it */
        const bool scaled = i >= 3 && i <= 5;
        char line[96];
        snprintf(line, sizeof line, "\ngrid: persistent, %u blocks, ", cases[i].blocks);
        if ((strstr(out, line) != NULL) != scaled || (!scaled && strstr(out, "\ngrid: ")))
            fail_msg("case %zu: %s the persistent grid's line:\n%s", i, scaled ? "lacks" : "has", out);
        free(out);
        free(err);
    }
    const char *json[] = {"simulate", "--algo", "lookback", "--n", "224", "--block", "32", "--param", "1",
                          "--seed", "1", "--json", NULL};
    const char *json_tiles[] = {"simulate", "--algo", "lookback", "--n", "224", "--block", "32", "--param", "1",
                                "--seed", "1", "--occupancy", "tiles", "--json", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(run(json, &out, &err), 0);
    assert_non_null(strstr(out, "\"persistent_grid\":3,"));
    free(out);
    free(err);
    assert_int_equal(run(json_tiles, &out, &err), 0);
    assert_non_null(strstr(out, "\"persistent_grid\":0,"));
    free(out);
    free(err);
    const char *zero[] = {"simulate", "--algo", "lookback", "--n", "100", "--occupancy", "0", NULL};
    const char *huge[] = {"simulate", "--algo", "lookback", "--n", "2^33", "--huge", "--occupancy", "3", NULL};
    const char *const *bad[] = {zero, huge};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(run(bad[i], &out, &err), 2);
        assert_non_null(strstr(err, "--occupancy"));
        free(out);
        free(err);
    }
}

/* lookback's and lookback-det's default block, as launched: 192 threads
 * from 64 MiB of input, 128 below (tile_geom.h); the simulator's huge mode
 * runs a few blocks of the grid, enough to see its launch. */
static void lookback_default_block_follows_the_size(void **state)
{
    (void)state;
    static const struct {
        const char *algo, *type, *n, *kernel, *grid;
    } cases[] = {
        {"lookback-det", "i32", "16777216", "sp_scan_i32_add_sim", "\"blocks\":3641,\"threads_per_block\":192"},
        {"lookback-det", "i32", "16777215", "sp_scan_i32_add_sim", "\"blocks\":5462,\"threads_per_block\":128"},
        {"lookback", "f64", "8388608", "sp_scan_f64_add_sim", "\"blocks\":3641,\"threads_per_block\":192"},
        {"lookback", "f64", "8388607", "sp_scan_f64_add_sim", "\"blocks\":5462,\"threads_per_block\":128"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[] = {"simulate", "--algo", cases[i].algo, "--type", cases[i].type, "--n", cases[i].n,
                              "--huge", "--seed", "1", "--json", NULL};
        char *out = NULL, *err = NULL;
        assert_int_equal(run(args, &out, &err), 0);
        char launch[160];
        snprintf(launch, sizeof launch, "\"kernel\":\"%s\",%s", cases[i].kernel, cases[i].grid);
        if (!strstr(out, launch))
            fail_msg("%s %s at n = %s: no %s in\n%s", cases[i].algo, cases[i].type, cases[i].n, launch, out);
        free(out);
        free(err);
    }
}

/* Each usage error is one line on stderr that names the command: "scanlab:
 * <command>: ...", the user's value echoed with its control characters
 * escaped (a newline in it would split the message), and said once. */
static void usage_errors_are_one_line_naming_the_command(void **state)
{
    (void)state;
    static char long_dir[5001];
    memset(long_dir, 'd', sizeof long_dir - 1);
    static const struct {
        const char *args[10];
        const char *says;
    } cases[] = {
        /* an option that takes a value, given twice */
        {{"verify", "--input", "a.npy", "--input", "b.npy"}, "verify: --input given twice"},
        {{"verify", "--algo", "sequential", "--algo", "omp-single-pass"}, "verify: --algo given twice"},
        {{"simulate", "--algo", "brent-kung", "-o", "a.npy", "--output", "b.npy"},
         "simulate: --output given twice"},
        {{"accuracy", "-o", "a.npy", "-o", "b.npy"}, "accuracy: --output given twice"},
        {{"bench", "--n", "100", "--n", "200"}, "bench: --n given twice"},
        {{"deadlock", "--blocks", "3", "--blocks", "4"}, "deadlock: --blocks given twice"},
        {{"report", "-o", "r1", "-o", "r2"}, "report: --output given twice"},
        /* --pct explores schedules: verify as simulate */
        {{"verify", "--pct", "3"}, "verify: --pct applies to an explored schedule"},
        {{"verify", "--pct", "3", "--schedules", "1"}, "verify: --pct applies to an explored schedule"},
        {{"simulate", "--algo", "brent-kung", "--pct", "3"}, "simulate: --pct applies to an explored schedule"},
        /* the messages of the shared parsers name the command */
        {{"verify", "--type", "u8"}, "verify: unknown type 'u8' (valid: i32, i64, f32, f64)"},
        {{"verify", "--op", "mul"}, "verify: unknown operator 'mul'"},
        {{"verify", "--backend", "gpu"}, "verify: unknown backend 'gpu'"},
        {{"verify", "--dist", "gauss"}, "verify: unknown distribution 'gauss'"},
        {{"accuracy", "--dist", "gauss"}, "accuracy: unknown distribution 'gauss'"},
        {{"simulate", "--algo", "brent-kung", "--type", "u8"}, "simulate: unknown type 'u8'"},
        {{"bench", "--op", "mul"}, "bench: unknown operator 'mul'"},
        {{"verify", "--n", "12x"}, "verify: --n: '12x' is not a size"},
        {{"simulate", "--algo", "brent-kung", "--n", "9..2"}, "simulate: --n: range '9..2' runs backwards"},
        {{"accuracy", "--n", ","}, "accuracy: --n: empty list"},
        {{"bench", "--jobs", "0"}, "bench: --jobs: '0' is not a whole number"},
        {{"verify", "--seed", "-5"}, "verify: --seed: '-5' is not"},
        {{"deadlock", "--samples", "x"}, "deadlock: --samples: 'x'"},
        /* control characters of a value, escaped */
        {{"verify", "--algo", "seq\nuential"}, "verify: unknown algorithm 'seq\\x0auential'"},
        {{"verify", "--type", "i32\x1b[2J"}, "verify: unknown type 'i32\\x1b[2J'"},
        {{"simulate", "--algo", "a\rb"}, "simulate: 'a\\x0db' is not an algorithm"},
        {{"bench", "--algo", "x\ny"}, "bench: 'x\\x0ay' is not a scan"},
        {{"verify", "--n", "1\n2"}, "verify: --n: '1\\x0a2' is not a size"},
        {{"accuracy", "--input", "no\nsuch.npy"}, "accuracy: no\\x0asuch.npy: No such file"},
        /* said once */
        {{"bench", "--backend", "seq"}, "bench: cannot measure backend 'seq'"},
        {{"report", "-o", long_dir}, "report: -o: directory name too long"},
        /* refused before the seed line */
        {{"bench", "--n", "2^50"}, "bench: n = 1125899906842624 would need"},
        /* the benchmark across GPUs: refused the same with CUDA or without, GPUs or none */
        {{"bench", "--devices", "2"}, "bench: --devices applies to --backend cuda only"},
        {{"bench", "--backend", "cuda", "--devices", "0"}, "bench: --devices: '0' is not"},
        {{"bench", "--backend", "cuda", "--devices", "33"}, "bench: --devices: '33' is not"},
        {{"bench", "--backend", "cuda", "--devices", "2", "--algo", "lookback"},
         "bench: --devices times multi-gpu only"},
        {{"bench", "--backend", "cuda", "--devices", "2", "--param", "3"}, "bench: --devices 2 sets multi-gpu's P"},
        {{"bench", "--backend", "cuda", "--devices", "2", "--timing", "call"},
         "bench: --devices: --timing call is not measured"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *err = NULL, *out = NULL;
        int rc = run(cases[i].args, &out, &err);
        char want[256];
        snprintf(want, sizeof want, "scanlab: %s", cases[i].says);
        const char *nl = strchr(err, '\n');
        if (rc != 2 || strncmp(err, want, strlen(want)) != 0 || !nl || nl[1] != '\0' || strstr(err, "-o: -o:"))
            fail_msg("case %zu (%s %s): exit %d, stderr: %s", i, cases[i].args[0], cases[i].args[1], rc, err);
        assert_string_equal(out, "");
        free(err);
        free(out);
    }
}

/* Explicit types and operators: the pairs that do not exist (affine on a
 * float) are skipped, as --op all skips them, and stderr says which; none
 * left is a usage error. */
static void explicit_pairs_that_do_not_exist_are_skipped(void **state)
{
    (void)state;
    char *out, *err;
    const char *args[] = {"verify", "--algo", "sequential", "--backend", "seq", "--type", "i32,f32", "--op",
                          "add,affine", "--n", "5", "--seed", "1", "--json", NULL};
    assert_int_equal(run(args, &out, &err), 0);
    if (!strstr(err, "scanlab: verify: skipping affine on f32 (affine is defined on i32 and i64 only)\n"))
        fail_msg("stderr: %s", err);
    assert_non_null(strstr(out, "\"type\":\"i32\",\"op\":\"affine\""));
    assert_non_null(strstr(out, "\"type\":\"f32\",\"op\":\"add\""));
    assert_null(strstr(out, "\"type\":\"f32\",\"op\":\"affine\""));
    free(out);
    free(err);
    const char *none[] = {"verify", "--type", "f32,f64", "--op", "affine", NULL};
    assert_int_equal(run(none, &out, &err), 2);
    assert_non_null(strstr(err, "does not apply to type 'f32'"));
    free(out);
    free(err);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-SCANLAB\n", argv[0]);
        return 2;
    }
    scanlab = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_usage_exits_2),
        cmocka_unit_test(help_documents_every_option),
        cmocka_unit_test(cpu_backends_pass_the_catalogue),
        cmocka_unit_test(all_skips_what_does_not_apply),
        cmocka_unit_test(simulate_occupancy_runs_persistent_grids),
        cmocka_unit_test(lookback_default_block_follows_the_size),
        cmocka_unit_test(usage_errors_are_one_line_naming_the_command),
        cmocka_unit_test(explicit_pairs_that_do_not_exist_are_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
