/* The calls the runtime does not serve (unsupported.def): each returns
 * cudaErrorNotSupported after one line on stderr naming it. They take
 * whatever arguments the program passes and ignore them: every one of
 * them returns cudaError_t in a register, which is all the caller reads. */
#include "runtime/rt.h"

#define RT_UNSUPPORTED(name)                                                                                     \
    RT_API cudaError_t name(void);                                                                               \
    RT_API cudaError_t name(void) { return rt_unsupported(#name); }
#include "runtime/unsupported.def"
