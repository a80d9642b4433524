/* .npy and raw input/output: round trips for every dtype, files written
 * byte by byte as NumPy lays them out (versions 1.0, 2.0, 3.0), and one
 * malformed file of each kind, each refused with SL_ERR_ARG and a reason. */
#include <dirent.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include "tap.h"

#include "verify/formats/npy.h"

static char dir[64];

static void path_in_dir(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", dir, name);
}

/* Write a file of the given bytes. */
static void put_file(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A .npy file of the given version with header text (the '\n' and no
 * padding added here) followed by data. */
static void put_npy(const char *path, int major, const char *header, const void *data, size_t dlen)
{
    size_t hlen = strlen(header) + 1;
    unsigned char buf[512];
    size_t pre = major == 1 ? 10 : 12;
    assert_true(pre + hlen + dlen <= sizeof buf);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    if (major != 1) {
        buf[10] = 0;
        buf[11] = 0;
    }
    memcpy(buf + pre, header, hlen - 1);
    buf[pre + hlen - 1] = '\n';
    if (dlen)
        memcpy(buf + pre + hlen, data, dlen);
    put_file(path, buf, pre + hlen + dlen);
}

static void test_round_trip(void **state)
{
    (void)state;
    const int32_t i4[] = {1, -2, INT32_MAX, INT32_MIN};
    const int64_t i8[] = {INT64_MIN, 0, 7};
    const float f4[] = {1.5f, -0.0f, 1e-45f, 3.4e38f, 0.1f};
    const double f8[] = {0.1, -2.5e-308, 1e308};
    const struct {
        sl_type t;
        const void *data;
        size_t n;
    } cases[] = {{SL_I32, i4, 4}, {SL_I64, i8, 3}, {SL_F32, f4, 5}, {SL_F64, f8, 3}, {SL_F32, f4, 0}};
    char path[128], why[256];
    path_in_dir(path, sizeof path, "rt.npy");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        assert_int_equal(verify_npy_write(path, cases[c].t, cases[c].data, cases[c].n, why, sizeof why),
                         SL_OK);
        /* The layout NumPy expects: magic, version 1.0, a header padded so
         * that the data starts at a multiple of 64, ending in '\n'. */
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        unsigned char head[10];
        assert_int_equal(fread(head, 1, 10, f), 10);
        size_t hlen = (size_t)head[8] | (size_t)head[9] << 8;
        assert_memory_equal(head, "\x93NUMPY\x01\x00", 8);
        assert_int_equal((10 + hlen) % 64, 0);
        char text[256];
        assert_true(hlen < sizeof text);
        assert_int_equal(fread(text, 1, hlen, f), hlen);
        text[hlen] = '\0';
        assert_int_equal(text[hlen - 1], '\n');
        fclose(f);
        assert_non_null(strstr(text, "'fortran_order': False"));

        sl_type t = SL_TYPE_COUNT;
        void *data = NULL;
        size_t n = 99;
        assert_int_equal(verify_npy_read(path, &t, &data, &n, why, sizeof why), SL_OK);
        assert_int_equal(t, cases[c].t);
        assert_int_equal(n, cases[c].n);
        assert_non_null(data);
        if (n)
            assert_memory_equal(data, cases[c].data, n * SL_TYPE_SIZE(t));
        free(data);
    }
    unlink(path);
}

static void test_versions_and_spellings(void **state)
{
    (void)state;
    const float v[] = {1.0f, 2.0f};
    char path[128], why[256];
    path_in_dir(path, sizeof path, "v.npy");
    const struct {
        int major;
        const char *header;
    } ok[] = {
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"},
        {2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }   "},
        {3, "{\"descr\": \"<f4\", \"shape\": (2, ), \"fortran_order\": False}"},
        {1, "{'shape':(2,),'fortran_order':False,'descr':'=f4'}"},
    };
    for (size_t c = 0; c < sizeof ok / sizeof ok[0]; c++) {
        put_npy(path, ok[c].major, ok[c].header, v, sizeof v);
        sl_type t;
        void *data = NULL;
        size_t n = 0;
        sl_status s = verify_npy_read(path, &t, &data, &n, why, sizeof why);
        if (s != SL_OK)
            fail_msg("case %zu refused: %s", c, why);
        assert_int_equal(t, SL_F32);
        assert_int_equal(n, 2);
        assert_memory_equal(data, v, sizeof v);
        free(data);
    }
    unlink(path);
}

/* Each malformed file is refused with SL_ERR_ARG and a reason containing
 * the expected words. */
static void test_malformed(void **state)
{
    (void)state;
    const float v[] = {1.0f, 2.0f, 3.0f};
    const char *good = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
    const struct {
        const char *header; /* NULL: raw bytes below */
        size_t data_len;
        const char *reason;
    } bad[] = {
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), ", 12, "parsed"},
        {"{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }", 6, "unsupported dtype"},
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", 12, "big-endian"},
        {"{'descr': '|f4', 'fortran_order': False, 'shape': (3,), }", 12, "unsupported dtype"},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", 24, "unsupported dtype"},
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", 12, "fortran_order"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }", 12, "2 dimensions"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4, "0 dimensions"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", 12, "not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", 12, "shape"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 12, "truncated"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 12, "trailing"},
        {"{'descr': '<f4', 'shape': (3,), }", 12, "lacks"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", 12, "unexpected"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", 12, "repeated"},
        {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (3,), }", 12, "True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } x", 12, "after the dict"},
        {"['<f4', False, (3,)]", 12, "not a dict"},
    };
    char path[128], why[256];
    path_in_dir(path, sizeof path, "bad.npy");
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        float data[6] = {1, 2, 3, 4, 5, 6};
        put_npy(path, 1, bad[c].header, data, bad[c].data_len);
        sl_type t;
        void *out = NULL;
        size_t n;
        why[0] = '\0';
        sl_status s = verify_npy_read(path, &t, &out, &n, why, sizeof why);
        if (s != SL_ERR_ARG || !strstr(why, bad[c].reason))
            fail_msg("case %zu: status %d, reason '%s' (want '%s')", c, (int)s, why, bad[c].reason);
        assert_null(out);
    }

    /* Damage below the header. */
    unsigned char buf[256];
    put_npy(path, 1, good, v, sizeof v);
    FILE *f = fopen(path, "rb");
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    const struct {
        size_t at;      /* byte to change, or SIZE_MAX */
        unsigned char to;
        size_t keep;    /* bytes of the file kept */
        const char *reason;
    } cuts[] = {
        {0, 'X', len, "bad magic"},
        {6, 4, len, "version 4.0"},
        {7, 1, len, "version 1.1"},
        {SIZE_MAX, 0, 5, "truncated in the magic"},
        {SIZE_MAX, 0, 9, "truncated in the header length"},
        {SIZE_MAX, 0, 40, "truncated in the header"},
        {SIZE_MAX, 0, len - 2, "truncated"},
        {8, 20, len, "newline"}, /* a header length that cuts the header short */
    };
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        unsigned char copy[256];
        memcpy(copy, buf, len);
        if (cuts[c].at != SIZE_MAX)
            copy[cuts[c].at] = cuts[c].to;
        put_file(path, copy, cuts[c].keep);
        sl_type t;
        void *out = NULL;
        size_t n;
        why[0] = '\0';
        sl_status s = verify_npy_read(path, &t, &out, &n, why, sizeof why);
        if (s != SL_ERR_ARG || !strstr(why, cuts[c].reason))
            fail_msg("cut %zu: status %d, reason '%s' (want '%s')", c, (int)s, why, cuts[c].reason);
        assert_null(out);
    }
    unlink(path);
}

static void test_raw(void **state)
{
    (void)state;
    char path[128], why[256];
    path_in_dir(path, sizeof path, "in.bin");
    const double d[] = {1.0, -2.0, 0.5};
    put_file(path, d, sizeof d);
    sl_type t;
    void *data = NULL;
    size_t n;
    assert_int_equal(verify_raw_read(path, SL_F64, &data, &n, why, sizeof why), SL_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(data, d, sizeof d);
    free(data);
    /* 23 bytes are not a whole number of 8-byte elements. */
    put_file(path, d, sizeof d - 1);
    data = NULL;
    assert_int_equal(verify_raw_read(path, SL_F64, &data, &n, why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, "whole number"));
    assert_null(data);
    /* The dispatcher: raw with a type, refused without one. */
    put_file(path, d, sizeof d);
    assert_int_equal(verify_array_read(path, SL_F32, &t, &data, &n, why, sizeof why), SL_OK);
    assert_int_equal(t, SL_F32);
    assert_int_equal(n, 6);
    free(data);
    data = NULL;
    assert_int_equal(verify_array_read(path, SL_TYPE_COUNT, &t, &data, &n, why, sizeof why),
                     SL_ERR_ARG);
    assert_non_null(strstr(why, "--type"));
    /* A .npy file is recognised by its magic whatever the raw type says. */
    char npy[128];
    path_in_dir(npy, sizeof npy, "x.npy");
    assert_int_equal(verify_npy_write(npy, SL_F64, d, 3, why, sizeof why), SL_OK);
    assert_int_equal(verify_array_read(npy, SL_I32, &t, &data, &n, why, sizeof why), SL_OK);
    assert_int_equal(t, SL_F64);
    assert_int_equal(n, 3);
    free(data);
    /* Empty raw file: zero elements, a valid buffer. */
    put_file(path, d, 0);
    data = NULL;
    assert_int_equal(verify_raw_read(path, SL_I32, &data, &n, why, sizeof why), SL_OK);
    assert_int_equal(n, 0);
    assert_non_null(data);
    free(data);
    unlink(path);
    unlink(npy);
    /* A missing file is an I/O error; a directory is not a file. */
    assert_int_equal(verify_raw_read(path, SL_I32, &data, &n, why, sizeof why), SL_ERR_IO);
    assert_int_equal(verify_npy_read(dir, &t, &data, &n, why, sizeof why), SL_ERR_ARG);
}

/* Files in the directory whose names start with "out.npy". */
static size_t entries_in_dir(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "out.npy", 7) == 0)
            count++;
    closedir(d);
    return count;
}

static void test_write_is_whole(void **state)
{
    (void)state;
    char path[128], why[256];
    const int64_t a[] = {1, 2, 3}, b[] = {4};
    path_in_dir(path, sizeof path, "out.npy");
    assert_int_equal(verify_npy_write(path, SL_I64, a, 3, why, sizeof why), SL_OK);
    assert_int_equal(verify_npy_write(path, SL_I64, b, 1, why, sizeof why), SL_OK);
    sl_type t;
    void *data;
    size_t n;
    assert_int_equal(verify_npy_read(path, &t, &data, &n, why, sizeof why), SL_OK);
    assert_int_equal(n, 1);
    assert_int_equal(((int64_t *)data)[0], 4);
    free(data);
    assert_int_equal(entries_in_dir(), 1); /* no temporary left behind */
    unlink(path);
    /* A directory that does not exist: an error, and nothing written. */
    char missing[160];
    snprintf(missing, sizeof missing, "%s/no/such/dir.npy", dir);
    assert_int_equal(verify_npy_write(missing, SL_I64, a, 3, why, sizeof why), SL_ERR_IO);
    assert_non_null(strstr(why, missing));
    assert_int_equal(entries_in_dir(), 0);
    /* A directory is not an output: refused before anything is written,
     * and the directory is all that remains. */
    char target[160];
    path_in_dir(target, sizeof target, "out.npy.d");
    assert_int_equal(mkdir(target, 0700), 0);
    assert_int_equal(verify_npy_write(target, SL_I64, a, 3, why, sizeof why), SL_ERR_ARG);
    assert_int_equal(entries_in_dir(), 1);
    rmdir(target);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/scanlab-npy-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_versions_and_spellings),
        cmocka_unit_test(test_malformed),  cmocka_unit_test(test_raw),
        cmocka_unit_test(test_write_is_whole),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return failed;
}
