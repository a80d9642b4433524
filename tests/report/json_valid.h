/* A strict JSON check (RFC 8259) for the tests: the grammar, and strings
 * of valid UTF-8. */
#ifndef SCANLAB_TEST_JSON_VALID_H
#define SCANLAB_TEST_JSON_VALID_H

#include <stdbool.h>
#include <stddef.h>

/* Whether text is one JSON value (surrounded by whitespace only); when not,
 * *where receives the offset of the first error. */
bool json_valid(const char *text, size_t *where);

#endif
