/* The PTX tokenizer. Every read is bounded by the text's end: the text may
 * be truncated anywhere, lack a final newline or NUL, or be binary. */
#include <string.h>

#include "model/ptx/lex.h"

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
/* The characters a name continues with. A '.' joins an opcode to its
 * modifiers and a special register to its component (%tid.x): neither is
 * ever written with spaces. */
static bool is_name_char(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$' || c == '.'; }
static bool is_name_start(int c) { return is_alpha(c) || c == '_' || c == '$' || c == '%'; }

void ptx_lex_init(ptx_lexer *lx, const char *text, size_t len)
{
    lx->p = text;
    lx->end = text + len;
    lx->line = 1;
    lx->msg = NULL;
}

static ptx_token error_token(ptx_lexer *lx, const char *start, uint32_t line, const char *msg)
{
    lx->msg = msg;
    lx->p = lx->end; /* nothing after an unterminated comment or string is readable */
    return (ptx_token){PTX_TOK_ERROR, start, (size_t)(lx->end - start), line};
}

/* Skips white space and comments; false (with the error token in *err)
 * for a comment that does not end. */
static bool skip_blank(ptx_lexer *lx, ptx_token *err)
{
    for (;;) {
        while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == '\n' ||
                                   *lx->p == '\f' || *lx->p == '\v')) {
            if (*lx->p == '\n')
                lx->line++;
            lx->p++;
        }
        if (lx->end - lx->p < 2 || lx->p[0] != '/')
            return true;
        if (lx->p[1] == '/') {
            const char *nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
            lx->p = nl ? nl : lx->end;
        } else if (lx->p[1] == '*') {
            const char *start = lx->p;
            uint32_t line = lx->line;
            lx->p += 2;
            for (;;) {
                if (lx->end - lx->p < 2) {
                    *err = error_token(lx, start, line, "unterminated comment");
                    return false;
                }
                if (lx->p[0] == '*' && lx->p[1] == '/') {
                    lx->p += 2;
                    break;
                }
                if (*lx->p == '\n')
                    lx->line++;
                lx->p++;
            }
        } else {
            return true;
        }
    }
}

/* A name continues with name characters and with "::" (L1::no_allocate,
 * .shared::cta); a single ':' ends it (a label's definition). */
static void scan_name(ptx_lexer *lx)
{
    for (;;) {
        if (lx->p < lx->end && is_name_char((unsigned char)*lx->p))
            lx->p++;
        else if (lx->end - lx->p >= 3 && lx->p[0] == ':' && lx->p[1] == ':' &&
                 is_name_char((unsigned char)lx->p[2]))
            lx->p += 2;
        else
            return;
    }
}

/* A number runs over letters, digits and dots (0x1F, 0f3F800000, 1.5,
 * 12U); a decimal one's exponent may carry a sign (1e-5). */
static void scan_number(ptx_lexer *lx, const char *start)
{
    bool prefixed = lx->end - start >= 2 && start[0] == '0' && is_alpha((unsigned char)start[1]) &&
                    start[1] != 'e' && start[1] != 'E';
    while (lx->p < lx->end) {
        int c = (unsigned char)*lx->p;
        if (is_alpha(c) || is_digit(c) || c == '_' || c == '.') {
            lx->p++;
        } else if ((c == '+' || c == '-') && !prefixed && (lx->p[-1] == 'e' || lx->p[-1] == 'E') &&
                   lx->end - lx->p >= 2 && is_digit((unsigned char)lx->p[1])) {
            lx->p++;
        } else {
            break;
        }
    }
}

static ptx_token scan_string(ptx_lexer *lx, const char *start, uint32_t line)
{
    lx->p++;
    while (lx->p < lx->end && *lx->p != '"') {
        if (*lx->p == '\n')
            return error_token(lx, start, line, "unterminated string");
        if (*lx->p == '\\' && lx->end - lx->p >= 2 && lx->p[1] != '\n')
            lx->p++;
        lx->p++;
    }
    if (lx->p >= lx->end)
        return error_token(lx, start, line, "unterminated string");
    lx->p++;
    return (ptx_token){PTX_TOK_STRING, start, (size_t)(lx->p - start), line};
}

ptx_token ptx_lex_next(ptx_lexer *lx)
{
    ptx_token err;
    if (!skip_blank(lx, &err))
        return err;
    const char *start = lx->p;
    uint32_t line = lx->line;
    if (lx->p >= lx->end)
        return (ptx_token){PTX_TOK_EOF, lx->end, 0, line};
    int c = (unsigned char)*lx->p;
    int next = lx->end - lx->p >= 2 ? (unsigned char)lx->p[1] : -1;
    ptx_tok_kind kind;
    if (is_name_start(c) && (c != '%' || (next >= 0 && is_name_char(next)))) {
        lx->p++;
        scan_name(lx);
        kind = PTX_TOK_IDENT;
    } else if (c == '.' && next >= 0 && (is_alpha(next) || next == '_')) {
        lx->p++;
        scan_name(lx);
        kind = PTX_TOK_DIRECTIVE;
    } else if (is_digit(c)) {
        lx->p++;
        scan_number(lx, start);
        kind = PTX_TOK_NUMBER;
    } else if (c == '"') {
        return scan_string(lx, start, line);
    } else {
        lx->p++;
        kind = PTX_TOK_PUNCT;
    }
    return (ptx_token){kind, start, (size_t)(lx->p - start), line};
}

ptx_token ptx_lex_peek(const ptx_lexer *lx)
{
    ptx_lexer copy = *lx;
    return ptx_lex_next(&copy);
}

bool ptx_tok_is(const ptx_token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}

bool ptx_tok_punct(const ptx_token *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->s[0] == c;
}
