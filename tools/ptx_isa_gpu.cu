/* Runs the PTX instruction test set (tests/ptx/isa) on the GPU and writes
 * its results as h100.txt holds them: per form one line, its entry name and
 * then, vector after vector, its result words in hex.
 *
 *   nvcc -O2 -o ptx_isa_gpu tools/ptx_isa_gpu.cu -lcuda
 *   ptx_isa_gpu [DATA_DIR [OUT_FILE]]     (tests/ptx/isa and stdout by default)
 *
 * Host code alone, on the driver API: the driver JIT-compiles forms.ptx as
 * written, so the GPU runs the very text the simulator parses. Should the
 * module as a whole not load, each form is loaded on its own, and one that
 * still fails is left out (named on stderr; the exit status is then 1). */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* As tools/ptx_isa_gen.py lays the data out. */
#define VECTORS 64
#define IN_WORDS 4
#define OUT_WORDS 4
#define MAX_NAME 96

typedef struct {
    char name[MAX_NAME];
    unsigned nin, nout;
    uint64_t in[VECTORS * IN_WORDS];
} form;

static void check(CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS)
        return;
    const char *s = NULL;
    cuGetErrorString(r, &s);
    fprintf(stderr, "ptx_isa_gpu: %s: %s\n", what, s ? s : "unknown error");
    exit(2);
}

static char *read_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = (char *)malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "ptx_isa_gpu: cannot read %s\n", path);
        exit(2);
    }
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* The next line that is neither empty nor a comment, cut at its end; NULL
 * at the end of the text. */
static char *next_line(char **cursor)
{
    while (**cursor) {
        char *line = *cursor, *end = strchr(line, '\n');
        *cursor = end ? end + 1 : line + strlen(line);
        if (end)
            *end = 0;
        if (*line && *line != '#')
            return line;
    }
    return NULL;
}

/* forms.txt (counts) and inputs.txt (operands), in the same order. */
static form *read_forms(const char *dir, unsigned *count)
{
    char *ft = read_file(dir, "forms.txt"), *it = read_file(dir, "inputs.txt");
    char *fc = ft, *ic = it, *line;
    unsigned n = 0, cap = 0;
    form *forms = NULL;
    while ((line = next_line(&fc))) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            forms = (form *)realloc(forms, cap * sizeof *forms);
            if (!forms) {
                fprintf(stderr, "ptx_isa_gpu: out of memory\n");
                exit(2);
            }
        }
        form *f = &forms[n];
        memset(f, 0, sizeof *f);
        if (sscanf(line, "%95s %u %u", f->name, &f->nin, &f->nout) != 3 || f->nin > IN_WORDS ||
            f->nout > OUT_WORDS) {
            fprintf(stderr, "ptx_isa_gpu: forms.txt: bad line '%s'\n", line);
            exit(2);
        }
        char *in = next_line(&ic), *p;
        const size_t len = strlen(f->name);
        if (!in || strncmp(in, f->name, len) != 0 || in[len] != ' ') {
            fprintf(stderr, "ptx_isa_gpu: inputs.txt: no line for %s where expected\n", f->name);
            exit(2);
        }
        p = in + len;
        for (unsigned v = 0; v < VECTORS; v++)
            for (unsigned k = 0; k < f->nin; k++) {
                char *end;
                f->in[v * IN_WORDS + k] = strtoull(p, &end, 16);
                if (end == p) {
                    fprintf(stderr, "ptx_isa_gpu: inputs.txt: %s has too few words\n", f->name);
                    exit(2);
                }
                p = end;
            }
        n++;
    }
    free(ft);
    free(it);
    *count = n;
    return forms;
}

/* The module text with entry name alone: the header (up to the first
 * entry) and that entry's text. */
static char *one_entry(const char *ptx, const char *name)
{
    const char *first = strstr(ptx, ".visible .entry ");
    char key[MAX_NAME + 32];
    snprintf(key, sizeof key, ".visible .entry %s(", name);
    const char *at = strstr(ptx, key);
    if (!first || !at)
        return NULL;
    const char *end = strstr(at + 1, ".visible .entry ");
    const size_t hl = (size_t)(first - ptx), el = end ? (size_t)(end - at) : strlen(at);
    char *s = (char *)malloc(hl + el + 1);
    memcpy(s, ptx, hl);
    memcpy(s + hl, at, el);
    s[hl + el] = 0;
    return s;
}

static CUresult load(CUmodule *m, const char *text, char *log, size_t loglen)
{
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(uintptr_t)loglen};
    log[0] = 0;
    return cuModuleLoadDataEx(m, text, 2, opt, val);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/ptx/isa";
    FILE *out = argc > 2 ? fopen(argv[2], "w") : stdout;
    if (!out) {
        perror(argv[2]);
        return 2;
    }
    unsigned nforms;
    form *forms = read_forms(dir, &nforms);
    char *ptx = read_file(dir, "forms.ptx");

    CUdevice dev;
    CUcontext ctx;
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    char devname[256];
    int major, minor, driver;
    check(cuDeviceGetName(devname, sizeof devname, dev), "cuDeviceGetName");
    check(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "attribute");
    check(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "attribute");
    check(cuDriverGetVersion(&driver), "cuDriverGetVersion");

    static char log[1 << 16];
    const time_t t0 = time(NULL);
    CUmodule whole = NULL;
    if (load(&whole, ptx, log, sizeof log) != CUDA_SUCCESS) {
        fprintf(stderr, "ptx_isa_gpu: forms.ptx does not load as a whole; form by form instead:\n%s\n", log);
        whole = NULL;
    }
    const time_t t1 = time(NULL);

    CUdeviceptr din, dout;
    check(cuMemAlloc(&din, sizeof forms[0].in), "cuMemAlloc");
    check(cuMemAlloc(&dout, (size_t)VECTORS * OUT_WORDS * 8), "cuMemAlloc");
    static uint64_t res[VECTORS * OUT_WORDS];
    unsigned done = 0, missing = 0;
    fprintf(out, "# tools/ptx_isa_gpu.cu: %s (sm_%d%d), CUDA driver %d.%d, %u forms\n", devname, major, minor,
            driver / 1000, driver % 1000 / 10, nforms);
    for (unsigned i = 0; i < nforms; i++) {
        const form *f = &forms[i];
        CUmodule own = NULL;
        CUfunction fn;
        if (whole) {
            check(cuModuleGetFunction(&fn, whole, f->name), f->name);
        } else {
            char *text = one_entry(ptx, f->name);
            if (!text || load(&own, text, log, sizeof log) != CUDA_SUCCESS) {
                fprintf(stderr, "ptx_isa_gpu: %s left out: %s\n", f->name, text ? log : "no such entry");
                free(text);
                missing++;
                continue;
            }
            free(text);
            check(cuModuleGetFunction(&fn, own, f->name), f->name);
        }
        unsigned n = VECTORS;
        void *args[3] = {&din, &dout, &n};
        check(cuMemcpyHtoD(din, f->in, sizeof f->in), "cuMemcpyHtoD");
        check(cuMemsetD8(dout, 0, sizeof res), "cuMemsetD8");
        check(cuLaunchKernel(fn, 1, 1, 1, VECTORS, 1, 1, 0, NULL, args, NULL), f->name);
        check(cuCtxSynchronize(), f->name);
        check(cuMemcpyDtoH(res, dout, sizeof res), "cuMemcpyDtoH");
        if (own)
            check(cuModuleUnload(own), "cuModuleUnload");
        fputs(f->name, out);
        for (unsigned v = 0; v < VECTORS; v++)
            for (unsigned k = 0; k < f->nout; k++)
                fprintf(out, " %llx", (unsigned long long)res[v * OUT_WORDS + k]);
        fputc('\n', out);
        done++;
    }
    if (fclose(out) != 0) {
        perror("ptx_isa_gpu: writing the results");
        return 2;
    }
    fprintf(stderr, "ptx_isa_gpu: %u of %u forms run on %s (JIT %lds, all %lds)\n", done, nforms, devname,
            (long)(t1 - t0), (long)(time(NULL) - t0));
    return missing ? 1 : 0;
}
