/* Fuzz target: the .npy reader (verify/formats/npy.h) on any bytes.
 *
 * Each input is a file's contents, read as .npy and as raw elements of
 * every type. What must hold, beyond no sanitizer report:
 *  - the reader accepts or refuses (SL_OK or SL_ERR_ARG: never an I/O or
 *    memory error for a small regular file), and a refusal says why in one
 *    line of text (no control character, valid UTF-8, whatever the file
 *    holds);
 *  - what it accepts is the file's last n * size bytes, of a supported
 *    type; a raw read is the whole file, a whole number of elements;
 *  - an accepted array written back (verify_npy_write) reads back the same. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "verify/formats/npy.h"
#include "verify/formats/output.h"

static const char NAME[] = "npy";
static const char MAGIC[6] = "\x93NUMPY";

static char in_path[64];    /* the input, a memory file seen through /proc */
static char out_path[4096 + 16]; /* where an accepted array is written back */
static char out_dir[4096];

static void cleanup(void)
{
    unlink(out_path);
    rmdir(out_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    int fd = memfd_create("fuzz_npy", 0);
    if (fd < 0)
        fuzz_fail(NAME, "memfd_create failed");
    snprintf(in_path, sizeof in_path, "/proc/self/fd/%d", fd);
    const char *tmp = getenv("TMPDIR");
    snprintf(out_dir, sizeof out_dir, "%s/fuzz_npy.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(out_dir))
        fuzz_fail(NAME, "cannot create a folder in %s", tmp && *tmp ? tmp : "/tmp");
    snprintf(out_path, sizeof out_path, "%s/back.npy", out_dir);
    atexit(cleanup);
    return 0;
}

static void put_input(const uint8_t *data, size_t size)
{
    int fd = atoi(in_path + strlen("/proc/self/fd/"));
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
        fuzz_fail(NAME, "cannot write the input to its memory file");
}

/* One line of text: no control character, and valid UTF-8. */
static void check_why(const char *what, const char *why)
{
    const unsigned char *p = (const unsigned char *)why;
    if (!*p)
        fuzz_fail(NAME, "%s: refused without a reason", what);
    while (*p) {
        if (*p < 0x20 || *p == 0x7f)
            fuzz_fail(NAME, "%s: the reason holds control character 0x%02x: %s", what, *p, why);
        int extra = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 && *p >= 0xc2 ? 1 : (*p & 0xf0) == 0xe0 ? 2
                  : (*p & 0xf8) == 0xf0 && *p <= 0xf4 ? 3 : -1;
        if (extra < 0)
            fuzz_fail(NAME, "%s: the reason is not UTF-8 (byte 0x%02x)", what, *p);
        for (int k = 1; k <= extra; k++)
            if ((p[k] & 0xc0) != 0x80)
                fuzz_fail(NAME, "%s: the reason is not UTF-8 (byte 0x%02x)", what, *p);
        p += 1 + extra;
    }
}

static const char *status_name(sl_status st) { return sl_status_str(st); }

/* The write-back: the accepted array written as .npy reads back equal. */
static void round_trip(sl_type t, const void *data, size_t n)
{
    char why[VERIFY_WHY_SIZE] = "";
    sl_status st = verify_npy_write(out_path, t, data, n, why, sizeof why);
    if (st != SL_OK)
        fuzz_fail(NAME, "writing back %zu elements failed: %s", n, why);
    sl_type t2;
    void *back = NULL;
    size_t n2;
    st = verify_npy_read(out_path, &t2, &back, &n2, why, sizeof why);
    if (st != SL_OK)
        fuzz_fail(NAME, "what verify_npy_write wrote does not read back: %s", why);
    if (t2 != t || n2 != n || memcmp(back, data, n * SL_TYPE_SIZE(t)) != 0)
        fuzz_fail(NAME, "the write-back reads back different (type %d/%d, n %zu/%zu)", (int)t,
                  (int)t2, n, n2);
    free(back);
    unlink(out_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    put_input(data, size);
    char why[VERIFY_WHY_SIZE] = "";
    sl_type t = SL_TYPE_COUNT;
    void *arr = NULL;
    size_t n = 0;
    sl_status st = verify_npy_read(in_path, &t, &arr, &n, why, sizeof why);
    const bool is_npy = size >= sizeof MAGIC && memcmp(data, MAGIC, sizeof MAGIC) == 0;
    if (st == SL_OK) {
        if (!is_npy || t >= SL_TYPE_COUNT || !arr)
            fuzz_fail(NAME, "accepted without the magic, a type or an array");
        size_t bytes = n * SL_TYPE_SIZE(t);
        if (n > size / SL_TYPE_SIZE(t) || memcmp(arr, data + size - bytes, bytes) != 0)
            fuzz_fail(NAME, "accepted %zu elements that are not the file's last bytes", n);
        round_trip(t, arr, n);
        free(arr);
    } else if (st == SL_ERR_ARG) {
        check_why("verify_npy_read", why);
    } else {
        fuzz_fail(NAME, "verify_npy_read: %s: %s", status_name(st), why);
    }
    const sl_status npy_st = st;

    /* every raw type, and none: .npy by its magic, else raw */
    for (int raw = 0; raw <= SL_TYPE_COUNT; raw++) {
        arr = NULL;
        why[0] = '\0';
        st = verify_array_read(in_path, (sl_type)raw, &t, &arr, &n, why, sizeof why);
        if (is_npy) {
            if (st != npy_st)
                fuzz_fail(NAME, "verify_array_read (raw %d): %s, verify_npy_read: %s", raw,
                          status_name(st), status_name(npy_st));
        } else if (raw < SL_TYPE_COUNT && size % SL_TYPE_SIZE(raw) == 0) {
            if (st != SL_OK || t != (sl_type)raw || n != size / SL_TYPE_SIZE(raw) ||
                (size && memcmp(arr, data, size) != 0))
                fuzz_fail(NAME, "a raw file of %zu bytes as type %d: %s", size, raw,
                          st == SL_OK ? "not its bytes" : why);
        } else if (st != SL_ERR_ARG) {
            fuzz_fail(NAME, "verify_array_read (raw %d) of %zu bytes: %s instead of a refusal",
                      raw, size, status_name(st));
        }
        if (st == SL_OK)
            free(arr);
        else
            check_why("verify_array_read", why);
    }
    return 0;
}
