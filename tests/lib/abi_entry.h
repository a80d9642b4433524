/* One named number of the public ABI (abi_table.h). */
#ifndef SCANLAB_ABI_ENTRY_H
#define SCANLAB_ABI_ENTRY_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;
    uint64_t value;
} abi_entry;

size_t abi_public(const abi_entry **out);
size_t abi_internal(const abi_entry **out);

#endif
