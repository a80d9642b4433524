/* A plain main for a fuzz target: runs each file given, and each file of
 * each folder given (sorted, hidden files left out), through
 * LLVMFuzzerTestOneInput, so that any build, the sanitizer build included,
 * replays the seed corpora and the regression inputs without libFuzzer.
 * Exit status 0 when every input ran (a failed property aborts), 1 when a
 * file could not be read or nothing was run. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        return -1;
    }
    printf("replay %s (%zu bytes)\n", path, len);
    fflush(stdout); /* the input is named before anything it makes happen */
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 1;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int hidden(const struct dirent *e) { return e->d_name[0] != '.'; }

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    long runs = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            perror(argv[i]);
            bad = 1;
            continue;
        }
        if (!S_ISDIR(sb.st_mode)) {
            int r = run_file(argv[i]);
            bad |= r < 0;
            runs += r > 0;
            continue;
        }
        struct dirent **names;
        int n = scandir(argv[i], &names, hidden, by_name);
        if (n < 0) {
            perror(argv[i]);
            bad = 1;
            continue;
        }
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
            int r = run_file(path);
            bad |= r < 0;
            runs += r > 0;
            free(names[k]);
        }
        free(names);
    }
    printf("replayed %ld inputs\n", runs);
    return bad || runs == 0;
}
