/* The ABI table as the library's own sources see it. */
#include "cpu/cpu.h"
#include "verify/harness/harness.h"
#include "verify/harness/ref_exact.h"

#define ABI_TABLE_FN abi_internal
#include "abi_table.h"
