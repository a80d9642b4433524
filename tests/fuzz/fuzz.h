/* The interface of a fuzz target, as libFuzzer calls it. replay.c calls the
 * same two functions on files, so that every build, sanitizers included,
 * replays the seed corpora and the regression inputs without libFuzzer. */
#ifndef SCANLAB_FUZZ_H
#define SCANLAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Once, before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
/* One input; returns 0. A property that does not hold aborts (fuzz_fail). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print "fuzz: <target>: <message>" on stderr and abort, so that libFuzzer
 * keeps the input as a crash and a replay fails. */
void fuzz_fail(const char *target, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

#endif
