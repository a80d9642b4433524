/* The ABI table as a program that includes only include/scanlab/ sees it. */
#include <scanlab/scanlab.h>

#define ABI_TABLE_FN abi_public
#include "abi_table.h"
