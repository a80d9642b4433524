/* The fat binary's layout (fatbinary_section.h names the wrapper; the
 * container and entry headers are as nvcc 12 and 13 write them): a
 * wrapper {magic 0x466243b1, version, data, ...}; at data a container
 * header {magic 0xba55ed50, version, header size, size of the entries};
 * then entries, each a header and its payload. An entry's kind is 1 for
 * PTX and 2 for an ELF cubin; its flags say whether the payload is
 * compressed (LZ4 since CUDA 11.4, Zstandard by default since 12.8), and
 * then how large it is uncompressed. */
#include "runtime/fatbin.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRAPPER_MAGIC 0x466243b1u
#define CONTAINER_MAGIC 0xba55ed50u
#define KIND_PTX 1
#define FLAG_LZ4 (1u << 13)
#define FLAG_ZSTD (1u << 15)
/* An entry or a decompressed payload larger than this is not believed. */
#define MAX_PAYLOAD ((uint64_t)1 << 31)

typedef struct {
    uint32_t magic, version;
    const unsigned char *data;
} wrapper_hdr;

typedef struct {
    uint32_t magic;
    uint16_t version, header_size;
    uint64_t size;
} container_hdr;

typedef struct {
    uint16_t kind, version;
    uint32_t header_size;
    uint32_t padded_size, unknown0;
    uint32_t payload_size, unknown1, unknown2;
    uint32_t sm, bits, unknown3;
    uint64_t flags, unknown4, uncompressed_size;
} entry_hdr;

/* The decompressors are the system's libraries, loaded when a compressed
 * entry is met: their stable entry points are all that is needed. */
static int zstd_decompress(const unsigned char *src, size_t n, unsigned char *dst, size_t cap, char *err,
                           size_t errlen)
{
    void *lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    size_t (*decompress)(void *, size_t, const void *, size_t) =
        lib ? (size_t (*)(void *, size_t, const void *, size_t))dlsym(lib, "ZSTD_decompress") : NULL;
    unsigned (*is_error)(size_t) = lib ? (unsigned (*)(size_t))dlsym(lib, "ZSTD_isError") : NULL;
    if (!decompress || !is_error) {
        snprintf(err, errlen, "its PTX is compressed with Zstandard and libzstd.so.1 cannot be loaded (install "
                              "libzstd1, or rebuild with nvcc -no-compress)");
        return -1;
    }
    const size_t got = decompress(dst, cap, src, n);
    if (is_error(got)) {
        snprintf(err, errlen, "its compressed PTX does not decompress (Zstandard)");
        return -1;
    }
    return (int)(got == cap ? 0 : -1);
}

static int lz4_decompress(const unsigned char *src, size_t n, unsigned char *dst, size_t cap, char *err,
                          size_t errlen)
{
    void *lib = dlopen("liblz4.so.1", RTLD_NOW | RTLD_LOCAL);
    int (*decompress)(const char *, char *, int, int) =
        lib ? (int (*)(const char *, char *, int, int))dlsym(lib, "LZ4_decompress_safe") : NULL;
    if (!decompress) {
        snprintf(err, errlen, "its PTX is compressed with LZ4 and liblz4.so.1 cannot be loaded (install liblz4-1)");
        return -1;
    }
    if (n > INT32_MAX || cap > INT32_MAX || decompress((const char *)src, (char *)dst, (int)n, (int)cap) < 0) {
        snprintf(err, errlen, "its compressed PTX does not decompress (LZ4)");
        return -1;
    }
    return 0;
}

/* The entry's PTX text, NUL-terminated at its first NUL (nvcc pads it). */
static char *entry_text(const entry_hdr *e, const unsigned char *payload, size_t *len, char *err, size_t errlen)
{
    const bool compressed = (e->flags & (FLAG_LZ4 | FLAG_ZSTD)) != 0;
    const uint64_t out = compressed ? e->uncompressed_size : e->payload_size;
    if (out > MAX_PAYLOAD) {
        snprintf(err, errlen, "a PTX entry claims %llu bytes", (unsigned long long)out);
        return NULL;
    }
    char *text = malloc(out + 1);
    if (!text) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int rc = 0;
    if (e->flags & FLAG_ZSTD)
        rc = zstd_decompress(payload, e->payload_size, (unsigned char *)text, out, err, errlen);
    else if (e->flags & FLAG_LZ4)
        rc = lz4_decompress(payload, e->payload_size, (unsigned char *)text, out, err, errlen);
    else
        memcpy(text, payload, out);
    if (rc != 0) {
        if (!*err)
            snprintf(err, errlen, "its compressed PTX has a size other than its header says");
        free(text);
        return NULL;
    }
    text[out] = '\0';
    *len = strlen(text);
    return text;
}

int rt_fatbin_ptx(const void *wrapper, char **text, size_t *len, unsigned *sm, char *err, size_t errlen)
{
    *text = NULL;
    *err = '\0';
    wrapper_hdr w;
    memcpy(&w, wrapper, sizeof w);
    if (w.magic != WRAPPER_MAGIC || !w.data) {
        snprintf(err, errlen, "not an nvcc fat binary wrapper (magic 0x%08x)", w.magic);
        return -1;
    }
    container_hdr c;
    memcpy(&c, w.data, sizeof c);
    if (c.magic != CONTAINER_MAGIC || c.header_size < sizeof c || c.size > MAX_PAYLOAD) {
        snprintf(err, errlen, "not an nvcc fat binary (magic 0x%08x)", c.magic);
        return -1;
    }
    const unsigned char *p = w.data + c.header_size, *end = p + c.size;
    const unsigned char *best = NULL;
    entry_hdr be;
    memset(&be, 0, sizeof be);
    while (p + sizeof(entry_hdr) <= end) {
        entry_hdr e;
        memcpy(&e, p, sizeof e);
        if (e.header_size < sizeof e || (uint64_t)e.header_size + e.padded_size > (uint64_t)(end - p) ||
            e.payload_size > e.padded_size) {
            snprintf(err, errlen, "its fat binary has an entry that does not fit it");
            return -1;
        }
        if (e.kind == KIND_PTX && (!best || e.sm > be.sm)) {
            best = p + e.header_size;
            be = e;
        }
        p += e.header_size + e.padded_size;
    }
    if (!best) {
        snprintf(err, errlen, "its fat binary holds no PTX (only SASS): rebuild with PTX in it, for example "
                              "nvcc -arch=sm_90 (which embeds compute_90 PTX)");
        return -1;
    }
    *text = entry_text(&be, best, len, err, errlen);
    *sm = be.sm;
    return *text ? 0 : -1;
}
