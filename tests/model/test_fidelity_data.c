/* model/fidelity.h: a fidelity file read back and summarised, on a small
 * file written here (made-up rows, not a measurement). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/fidelity.h"

static const char doc[] =
    "{\n"
    "  \"device\": \"Test GPU\",\n"
    "  \"date\": \"2026-11-22\",\n"
    "  \"constants\": {\"sms\": 4, \"name\": \"t\"},\n"
    "  \"problems\": [\"a \\\"quoted\\\" note\"],\n"
    "  \"sass\": {\"k\": {\"LDS\": 3}},\n"
    "  \"rows\": [\n"
    "    {\"algo\": \"a\", \"kernel\": \"k_i32_add\", \"type\": \"i32\", \"n\": 2048, \"block\": 256, \"launch\": 0, "
    "\"blocks\": 8, \"metric\": \"smsp__sass_inst_executed_op_shared_ld.sum\", \"predicted\": 10, \"measured\": 10},\n"
    "    {\"algo\": \"a\", \"kernel\": \"k_i32_add\", \"type\": \"i32\", \"n\": 2048, \"block\": 256, \"launch\": 1, "
    "\"blocks\": 1, \"metric\": \"smsp__sass_inst_executed_op_shared_ld.sum\", \"predicted\": 12, \"measured\": 11},\n"
    "    {\"algo\": \"a\", \"kernel\": \"k_i32_add\", \"type\": \"i32\", \"n\": 2048, \"block\": 256, \"launch\": 1, "
    "\"blocks\": 1, \"metric\": \"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\", \"predicted\": 5, \"measured\": null},\n"
    /* time: two launches over 1 MB (errors 10% and 50%), one under */
    "    {\"algo\": \"a\", \"kernel\": \"k_i32_add\", \"type\": \"i32\", \"n\": 16777216, \"block\": 256, \"launch\": 0, "
    "\"metric\": \"gpu__time_duration.sum\", \"predicted\": 110.0, \"measured\": 100, \"bytes\": 2e6, \"bound\": \"memory\"},\n"
    "    {\"algo\": \"b\", \"kernel\": \"m_i32_add\", \"type\": \"i32\", \"n\": 16777216, \"block\": 256, \"launch\": 0, "
    "\"metric\": \"gpu__time_duration.sum\", \"predicted\": 300, \"measured\": 200, \"bytes\": 4e6, \"bound\": null},\n"
    "    {\"algo\": \"c\", \"kernel\": \"q_i32_add\", \"type\": \"i32\", \"n\": 16777216, \"block\": 256, \"launch\": -1, "
    "\"metric\": \"gpu__time_duration.sum\", \"predicted\": 50, \"measured\": 400, \"bytes\": 1000}\n"
    "  ]\n"
    "}\n";

static void test_load_and_summarise(void **state)
{
    (void)state;
    char path[] = "/tmp/scanlab-fidXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, doc, sizeof doc - 1), (ssize_t)(sizeof doc - 1));
    close(fd);
    model_fid f;
    assert_int_equal(model_fid_load(path, &f), SL_OK);
    assert_string_equal(f.device, "Test GPU");
    assert_string_equal(f.date, "2026-11-22");
    assert_int_equal(f.nrows, 6);
    assert_string_equal(f.rows[1].kernel, "k_i32_add");
    assert_int_equal(f.rows[3].n, 16777216);
    assert_int_equal(f.rows[5].launch, -1);
    assert_false(f.rows[2].has_measured);
    model_fid_summary s;
    model_fid_summarise(&f, &s);
    /* shared ld: 2 measured, 1 exact; sectors: no measurement, not listed */
    assert_int_equal(s.nmetrics, 1);
    assert_int_equal(s.metric[0].total, 2);
    assert_int_equal(s.metric[0].exact, 1);
    /* over 1 MB: a (10%) and b (50%); c is a whole scan under 1 MB */
    assert_int_equal(s.time_big, 2);
    assert_int_equal(s.time_within, 1);
    assert_true(s.time_median_error > 0.2999 && s.time_median_error < 0.3001);
    /* pairs at 2^24: measured a 100 < b 200 < c 400; predicted a 110 <
     * b 300, c 50: (a, b) right, (a, c) and (b, c) wrong */
    assert_int_equal(s.pairs, 3);
    assert_int_equal(s.pairs_right, 1);
    model_fid_free(&f);
    /* not a fidelity file; no file */
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_int_equal(write(fd, "{\"rows\": [1]}", 13), 13);
    close(fd);
    assert_int_equal(model_fid_load(path, &f), SL_ERR_ARG);
    unlink(path);
    assert_int_equal(model_fid_load(path, &f), SL_ERR_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_load_and_summarise)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
