/* The PTX tokenizer: splits PTX text (any bytes, not NUL-terminated) into
 * tokens, skipping white space and comments, counting lines. Tokens point
 * into the text; nothing is copied or allocated. */
#ifndef SCANLAB_PTX_LEX_H
#define SCANLAB_PTX_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    PTX_TOK_EOF,
    /* a name: %r12, $L__BB0_2, _Z3fooi, an opcode with its modifiers
     * (ld.global.L1::no_allocate.v4.u32), a special register (%tid.x) */
    PTX_TOK_IDENT,
    PTX_TOK_DIRECTIVE, /* .version, .b32, .shared::cta */
    PTX_TOK_NUMBER,    /* 12, 0x1f, 0f3F800000, 1.5e-3, 9.0: decoded by the parser */
    PTX_TOK_STRING,    /* "...", quotes included */
    PTX_TOK_PUNCT,     /* one byte: , ; : { } [ ] ( ) < > + - ! @ | = and any other */
    PTX_TOK_ERROR,     /* an unterminated comment or string: ptx_lexer.msg says which */
} ptx_tok_kind;

typedef struct {
    ptx_tok_kind kind;
    const char *s; /* the token's text (len bytes) */
    size_t len;
    uint32_t line; /* 1-based line of its first byte */
} ptx_token;

typedef struct {
    const char *p, *end;
    uint32_t line;
    const char *msg; /* the reason of the last PTX_TOK_ERROR */
} ptx_lexer;

void ptx_lex_init(ptx_lexer *lx, const char *text, size_t len);
/* The next token (PTX_TOK_EOF at the end, every time after). */
ptx_token ptx_lex_next(ptx_lexer *lx);
/* The token ptx_lex_next would return, without consuming it. */
ptx_token ptx_lex_peek(const ptx_lexer *lx);
/* Whether the token's text is exactly s. */
bool ptx_tok_is(const ptx_token *t, const char *s);
/* Whether the token is the punctuation c. */
bool ptx_tok_punct(const ptx_token *t, char c);

#endif
