/* Integer expressions of n, as a user writes a launch's grid or a buffer's
 * size on the command line: '(n + 255) / 256', 'max(1, n / 1024) * 8'.
 * Numbers, n, + - * / %, parentheses, unary minus, min(a, b), max(a, b);
 * arithmetic on signed 64 bits, an overflow or a division by zero an
 * error. */
#ifndef SCANLAB_EXPR_H
#define SCANLAB_EXPR_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/status.h"

/* The value of expression s at n: SL_OK, or SL_ERR_ARG with the reason in
 * why (syntax, overflow, division by zero). */
sl_status verify_expr_eval(const char *s, int64_t n, int64_t *out, char *why, size_t why_size);

#endif
