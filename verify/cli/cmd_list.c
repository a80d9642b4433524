/* scanlab list: the catalogue, as a table or as JSON. */
#include <stdio.h>
#include <string.h>

#include "verify/harness/algos.h"
#include "verify/cli/cli.h"
#include "verify/cli/commands.h"
#include "verify/cli/options.h"
#include "verify/formats/json.h"

static const char *const kind_names[] = {[SL_KIND_SCAN] = "scan", [SL_KIND_REDUCE] = "reduce",
                                         [SL_KIND_COMPACT] = "compact", [SL_KIND_PARTITION] = "partition",
                                         [SL_KIND_SORT] = "sort", [SL_KIND_PACK] = "pack",
                                         [SL_KIND_PARTITION_REV] = "partition"};

static void backends_of(const verify_algo *a, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        if (verify_algo_runs_on(a, (sl_backend)b)) {
            if (buf[0])
                strncat(buf, ",", size - strlen(buf) - 1);
            strncat(buf, verify_backend_name((sl_backend)b), size - strlen(buf) - 1);
        }
}

static void print_json(void)
{
    json_writer w;
    json_init(&w, stdout);
    json_begin_object(&w, NULL);
    json_begin_array(&w, "algorithms");
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        json_begin_object(&w, NULL);
        json_string(&w, "algo", a->name);
        json_string(&w, "kind", kind_names[a->kind]);
        json_string(&w, "summary", a->summary);
        json_begin_array(&w, "backends");
        for (int b = 0; b < SL_BACKEND_COUNT; b++)
            if (verify_algo_runs_on(a, (sl_backend)b))
                json_string(&w, NULL, verify_backend_name((sl_backend)b));
        json_end_array(&w);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_array(&w, "backends");
    for (int b = 0; b < SL_BACKEND_COUNT; b++) {
        json_begin_object(&w, NULL);
        json_string(&w, "backend", verify_backend_name((sl_backend)b));
        json_bool(&w, "built", verify_backend_built((sl_backend)b));
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_array(&w, "types");
    for (int t = 0; t < SL_TYPE_COUNT; t++)
        json_string(&w, NULL, verify_type_name((sl_type)t));
    json_end_array(&w);
    json_begin_array(&w, "operators");
    for (int op = 0; op < SL_OP_COUNT; op++) {
        json_begin_object(&w, NULL);
        json_string(&w, "op", verify_op_name((sl_op)op));
        json_bool(&w, "commutative", op != SL_AFFINE);
        json_begin_array(&w, "types");
        for (int t = 0; t < SL_TYPE_COUNT; t++)
            if (SL_OP_APPLIES(op, t))
                json_string(&w, NULL, verify_type_name((sl_type)t));
        json_end_array(&w);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_end_object(&w);
    json_finish(&w);
}

static void print_table(void)
{
    size_t width = 4;
    for (size_t i = 0; i < verify_algo_count; i++)
        if (strlen(verify_algos[i].name) > width)
            width = strlen(verify_algos[i].name);
    printf("%-*s  %-9s  %-14s  %s\n", (int)width, "algorithm", "kind", "backends", "description");
    for (size_t i = 0; i < verify_algo_count; i++) {
        const verify_algo *a = &verify_algos[i];
        char be[64];
        backends_of(a, be, sizeof be);
        printf("%-*s  %-9s  %-14s  %s\n", (int)width, a->name, kind_names[a->kind], be, a->summary);
    }
    printf("\nbackends:  ");
    for (int b = 0; b < SL_BACKEND_COUNT; b++)
        printf("%s%s%s", b ? ", " : "", verify_backend_name((sl_backend)b),
               verify_backend_built((sl_backend)b) ? "" : " (not built)");
    printf("\ntypes:     i32, i64, f32, f64\n");
    printf("operators: add, max, min (every type); affine (i32, i64: composition of x -> a*x + b, not commutative)\n");
    printf("scans are inclusive by default; --exclusive selects exclusive scans\n");
}

static const cli_cmd_opt list_opts[] = {{OPT_JSON, NULL}};

static const cli_command list_cmd = {
    "list", "[--json]",
    "Lists the algorithms (with their kind and the backends that run each in this build), the "
    "backends, types and operators.",
    list_opts, sizeof list_opts / sizeof list_opts[0], "the list could not be written to stdout",
    .dry_run = false};

int cmd_list(int argc, char **argv)
{
    cli_args args;
    int rc = cli_parse(&list_cmd, argc, argv, &args);
    if (rc != CLI_EXIT_OK || args.set[OPT_HELP])
        return rc;
    if (args.set[OPT_JSON])
        print_json();
    else
        print_table();
    cli_args_free(&args);
    return CLI_EXIT_OK;
}
