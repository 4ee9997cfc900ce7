/* ns_rules_lex.h - the rule-set language: source text, positions and tokens.
 *
 * A source is the rule text plus the name used in messages. Every error of
 * the language is reported through ns_src_error() as
 * "FILE:LINE:COL: message" (lines and columns from 1, columns in bytes). */
#ifndef NS_RULES_LEX_H
#define NS_RULES_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

typedef struct ns_src {
    const char *text;   /* borrowed, NUL-terminated */
    size_t len;         /* strlen(text) */
    const char *fname;  /* borrowed */
} ns_src;

/* Line and column (from 1) of byte offset off. */
void ns_src_linecol(const ns_src *src, size_t off, int *line, int *col);

/* Fill e with "FILE:LINE:COL: <fmt...>" for offset off; returns code. */
ns_err ns_src_error(ns_error *e, ns_err code, const ns_src *src, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Copy the source bytes [off, end) into buf as one line (newlines and runs
 * of blanks become one space, comments are dropped); long text is cut with
 * "...". */
void ns_src_excerpt(const ns_src *src, size_t off, size_t end, char *buf, size_t len);

typedef enum {
    TK_EOF = 0,
    TK_IDENT,
    TK_NUM,
    TK_STRING,
    TK_GAME_NAME,       /* the word after 'game': letters, digits, '_', '-' */
    /* punctuation */
    TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK, TK_LBRACE, TK_RBRACE,
    TK_COMMA, TK_ARROW, TK_DOTDOT, TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT,
    TK_LT, TK_LE, TK_GT, TK_GE, TK_EQ, TK_NE, TK_ASSIGN,
    /* keywords */
    TK_GAME, TK_PARAM, TK_PILES, TK_RANK, TK_PLAY, TK_DOMAIN, TK_REQUIRE, TK_MOVE,
    TK_SYMMETRIC, TK_FILTER, TK_HEAP, TK_OUTSIDE,
    TK_FOR, TK_IN, TK_WHERE, TK_FORALL, TK_AND, TK_OR, TK_NOT, TK_MOD,
    /* integer operators and user functions */
    TK_AMP, TK_BAR, TK_SHL, TK_SHR, TK_POW, TK_XOR, TK_DEF,
    TK_COUNT_
} ns_tok_kind;

typedef struct ns_tok {
    ns_tok_kind kind;
    uint32_t off;       /* first byte */
    uint32_t len;       /* bytes */
    int64_t num;        /* TK_NUM */
} ns_tok;

/* Split src into tokens (a final TK_EOF included). The word right after
 * 'game' (blanks and comments between) is one TK_GAME_NAME token when it
 * starts with a letter, digit or '_' and is not a keyword: it runs over
 * letters, digits, '_' and '-' (not '->'), so 'two-piles' and
 * 'sub25-2piles' are names, not expressions. On success *out is a
 * malloc'd array of *n tokens owned by the caller (free()). Errors:
 * unexpected characters, unterminated comments and strings, integers that
 * do not fit in 64 bits, texts over 1 MiB. */
ns_err ns_rules_lex(const ns_src *src, ns_tok **out, size_t *n, ns_error *err);

/* How a token kind reads in messages: "'->'", "'where'", "a name", ... */
const char *ns_tok_name(ns_tok_kind k);

/* Describe the token found, for "found X": "'where'", "name 'z'",
 * "number 3", "the end of the file". */
void ns_tok_describe(const ns_src *src, const ns_tok *t, char *buf, size_t len);

/* Statement keywords start a statement (the previous one ends there). */
int ns_tok_starts_stmt(ns_tok_kind k);

#endif
