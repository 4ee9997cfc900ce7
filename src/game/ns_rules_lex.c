/* ns_rules_lex.c - see ns_rules_lex.h */
#include "game/ns_rules_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXT ((size_t)1 << 20)

void ns_src_linecol(const ns_src *src, size_t off, int *line, int *col)
{
    int l = 1, c = 1;
    if (off > src->len)
        off = src->len;
    for (size_t i = 0; i < off; i++) {
        if (src->text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

ns_err ns_src_error(ns_error *e, ns_err code, const ns_src *src, size_t off, const char *fmt, ...)
{
    char msg[NS_ERROR_MSG_LEN];
    int line, col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* one line of printable text, whatever the source held */
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 32 || (unsigned char)*p == 127)
            *p = ' ';
    ns_src_linecol(src, off, &line, &col);
    return ns_error_set(e, code, "%s:%d:%d: %s", src->fname, line, col, msg);
}

void ns_src_excerpt(const ns_src *src, size_t off, size_t end, char *buf, size_t len)
{
    size_t o = 0;
    int space = 0;
    if (len == 0)
        return;
    if (end > src->len)
        end = src->len;
    for (size_t i = off; i < end; i++) {
        char ch = src->text[i];
        if (ch == '#') {
            while (i < end && src->text[i] != '\n')
                i++;
            space = o > 0;
            continue;
        }
        if (ch == '/' && i + 1 < end && src->text[i + 1] == '*') {
            const char *close = strstr(src->text + i + 2, "*/");
            i = close ? (size_t)(close - src->text) + 1 : end;
            space = o > 0;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            space = o > 0;
            continue;
        }
        if ((unsigned char)ch < 32 || (unsigned char)ch >= 127)
            ch = '?';
        if (space) {
            if (o + 1 >= len)
                break;
            buf[o++] = ' ';
            space = 0;
        }
        if (o + 1 >= len)
            break;
        buf[o++] = ch;
    }
    buf[o] = '\0';
    /* cut: mark with "..." when the text did not fit */
    if (o + 1 >= len && len > 4) {
        buf[len - 4] = '.';
        buf[len - 3] = '.';
        buf[len - 2] = '.';
        buf[len - 1] = '\0';
    }
}

static const struct {
    const char *word;
    ns_tok_kind kind;
} keywords[] = {
    {"game", TK_GAME},     {"param", TK_PARAM}, {"piles", TK_PILES},   {"rank", TK_RANK},
    {"play", TK_PLAY},     {"domain", TK_DOMAIN}, {"require", TK_REQUIRE}, {"move", TK_MOVE},
    {"for", TK_FOR},       {"in", TK_IN},       {"where", TK_WHERE},   {"forall", TK_FORALL},
    {"and", TK_AND},       {"or", TK_OR},       {"not", TK_NOT},       {"mod", TK_MOD},
    {"xor", TK_XOR},       {"def", TK_DEF},
    {"symmetric", TK_SYMMETRIC}, {"filter", TK_FILTER}, {"heap", TK_HEAP}, {"outside", TK_OUTSIDE},
};

const char *ns_tok_name(ns_tok_kind k)
{
    switch (k) {
    case TK_EOF: return "the end of the file";
    case TK_IDENT: return "a name";
    case TK_NUM: return "a number";
    case TK_STRING: return "a string";
    case TK_GAME_NAME: return "the name of the game";
    case TK_LPAREN: return "'('";
    case TK_RPAREN: return "')'";
    case TK_LBRACK: return "'['";
    case TK_RBRACK: return "']'";
    case TK_LBRACE: return "'{'";
    case TK_RBRACE: return "'}'";
    case TK_COMMA: return "','";
    case TK_ARROW: return "'->'";
    case TK_DOTDOT: return "'..'";
    case TK_PLUS: return "'+'";
    case TK_MINUS: return "'-'";
    case TK_STAR: return "'*'";
    case TK_SLASH: return "'/'";
    case TK_PERCENT: return "'%'";
    case TK_LT: return "'<'";
    case TK_LE: return "'<='";
    case TK_GT: return "'>'";
    case TK_GE: return "'>='";
    case TK_EQ: return "'=='";
    case TK_NE: return "'!='";
    case TK_ASSIGN: return "'='";
    case TK_GAME: return "'game'";
    case TK_PARAM: return "'param'";
    case TK_PILES: return "'piles'";
    case TK_HEAP: return "'heap'";
    case TK_RANK: return "'rank'";
    case TK_PLAY: return "'play'";
    case TK_DOMAIN: return "'domain'";
    case TK_REQUIRE: return "'require'";
    case TK_MOVE: return "'move'";
    case TK_FOR: return "'for'";
    case TK_IN: return "'in'";
    case TK_WHERE: return "'where'";
    case TK_FORALL: return "'forall'";
    case TK_AND: return "'and'";
    case TK_OR: return "'or'";
    case TK_NOT: return "'not'";
    case TK_MOD: return "'mod'";
    case TK_AMP: return "'&'";
    case TK_BAR: return "'|'";
    case TK_SHL: return "'<<'";
    case TK_SHR: return "'>>'";
    case TK_POW: return "'**'";
    case TK_XOR: return "'xor'";
    case TK_DEF: return "'def'";
    case TK_SYMMETRIC: return "'symmetric'";
    case TK_FILTER: return "'filter'";
    case TK_OUTSIDE: return "'outside'";
    default: return "a token";
    }
}

void ns_tok_describe(const ns_src *src, const ns_tok *t, char *buf, size_t len)
{
    int n = (int)(t->len > 40 ? 40 : t->len);
    switch (t->kind) {
    case TK_EOF:
        snprintf(buf, len, "the end of the file");
        break;
    case TK_IDENT:
        snprintf(buf, len, "name '%.*s'", n, src->text + t->off);
        break;
    case TK_NUM:
        snprintf(buf, len, "number %.*s", n, src->text + t->off);
        break;
    case TK_STRING:
        snprintf(buf, len, "string %.*s", n, src->text + t->off);
        break;
    case TK_GAME_NAME:
        snprintf(buf, len, "game name '%.*s'", n, src->text + t->off);
        break;
    default:
        snprintf(buf, len, "'%.*s'", n, src->text + t->off);
        break;
    }
}

int ns_tok_starts_stmt(ns_tok_kind k)
{
    return k == TK_GAME || k == TK_PARAM || k == TK_PILES || k == TK_RANK || k == TK_PLAY ||
           k == TK_DOMAIN || k == TK_REQUIRE || k == TK_MOVE || k == TK_DEF || k == TK_SYMMETRIC ||
           k == TK_HEAP || k == TK_OUTSIDE;
}

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* The keyword kind of the word s[0..n), or TK_IDENT. */
static ns_tok_kind word_kind(const char *s, size_t n)
{
    for (size_t w = 0; w < sizeof keywords / sizeof keywords[0]; w++)
        if (strlen(keywords[w].word) == n && memcmp(keywords[w].word, s, n) == 0)
            return keywords[w].kind;
    return TK_IDENT;
}

/* Length of the game name at s[i..len) (letters, digits, '_' and '-', a
 * '-' not followed by '>'), or 0 when there is none or it is a keyword. */
static size_t game_name_len(const char *s, size_t i, size_t len)
{
    size_t j = i;
    if (j >= len || !(is_alpha((unsigned char)s[j]) || is_digit((unsigned char)s[j])))
        return 0;
    while (j < len && (is_alpha((unsigned char)s[j]) || is_digit((unsigned char)s[j]) ||
                       (s[j] == '-' && !(j + 1 < len && s[j + 1] == '>'))))
        j++;
    return word_kind(s + i, j - i) == TK_IDENT ? j - i : 0;
}

ns_err ns_rules_lex(const ns_src *src, ns_tok **out, size_t *n, ns_error *err)
{
    const char *s = src->text;
    const size_t len = src->len;
    ns_err rc = NS_OK;
    ns_tok *v = NULL;
    size_t nv = 0, cap = 0;
    *out = NULL;
    *n = 0;
    if (len > MAX_TEXT)
        return ns_error_set(err, NS_EINVAL, "%s: the rule text is %zu bytes: expected at most 1 MiB", src->fname, len);
    size_t i = 0;
    for (;;) {
        /* blanks and comments */
        while (i < len) {
            unsigned char c = (unsigned char)s[i];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
                i++;
            } else if (c == '#') {
                while (i < len && s[i] != '\n')
                    i++;
            } else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
                const char *close = strstr(s + i + 2, "*/");
                if (!close) {
                    rc = ns_src_error(err, NS_EINVAL, src, i, "unterminated comment: '/*' has no matching '*/'");
                    goto fail;
                }
                i = (size_t)(close - s) + 2;
            } else {
                break;
            }
        }
        if (nv == cap) {
            size_t nc = cap ? cap * 2 : 256;
            ns_tok *p = realloc(v, nc * sizeof *p);
            if (!p) {
                rc = ns_error_set(err, NS_ENOMEM, "out of memory");
                goto fail;
            }
            v = p;
            cap = nc;
        }
        ns_tok *t = &v[nv];
        memset(t, 0, sizeof *t);
        t->off = (uint32_t)i;
        if (i >= len) {
            t->kind = TK_EOF;
            nv++;
            break;
        }
        unsigned char c = (unsigned char)s[i];
        size_t gn = nv > 0 && v[nv - 1].kind == TK_GAME ? game_name_len(s, i, len) : 0;
        if (gn > 0) {
            t->kind = TK_GAME_NAME;
            t->len = (uint32_t)gn;
            i += gn;
        } else if (is_alpha(c)) {
            size_t j = i;
            while (j < len && (is_alpha((unsigned char)s[j]) || is_digit((unsigned char)s[j])))
                j++;
            t->kind = TK_IDENT;
            t->len = (uint32_t)(j - i);
            t->kind = word_kind(s + i, t->len);
            i = j;
        } else if (is_digit(c)) {
            size_t j = i;
            uint64_t val = 0;
            int over = 0;
            while (j < len && is_digit((unsigned char)s[j])) {
                unsigned d = (unsigned)(s[j] - '0');
                if (val > (UINT64_C(0x7FFFFFFFFFFFFFFF) - d) / 10)
                    over = 1;
                else
                    val = val * 10 + d;
                j++;
            }
            if (over) {
                rc = ns_src_error(err, NS_EINVAL, src, i, "integer %.*s does not fit in 64 bits: expected at most 9223372036854775807",
                             (int)(j - i > 40 ? 40 : j - i), s + i);
                goto fail;
            }
            if (j < len && is_alpha((unsigned char)s[j])) {
                size_t e = j;
                while (e < len && (is_alpha((unsigned char)s[e]) || is_digit((unsigned char)s[e])))
                    e++;
                rc = ns_src_error(err, NS_EINVAL, src, j, "found '%.*s' right after the number %.*s: expected an operator (write %.*s*%.*s)",
                             (int)(e - j > 40 ? 40 : e - j), s + j, (int)(j - i > 40 ? 40 : j - i), s + i,
                             (int)(j - i > 40 ? 40 : j - i), s + i, (int)(e - j > 40 ? 40 : e - j), s + j);
                goto fail;
            }
            t->kind = TK_NUM;
            t->num = (int64_t)val;
            t->len = (uint32_t)(j - i);
            i = j;
        } else if (c == '"') {
            size_t j = i + 1;
            while (j < len && s[j] != '"' && s[j] != '\n')
                j++;
            if (j >= len || s[j] != '"') {
                rc = ns_src_error(err, NS_EINVAL, src, i, "unterminated string: expected a closing '\"' on the same line");
                goto fail;
            }
            t->kind = TK_STRING;
            t->len = (uint32_t)(j + 1 - i);
            i = j + 1;
        } else {
            char c2 = i + 1 < len ? s[i + 1] : '\0';
            t->len = 1;
            switch (c) {
            case '(': t->kind = TK_LPAREN; break;
            case ')': t->kind = TK_RPAREN; break;
            case '[': t->kind = TK_LBRACK; break;
            case ']': t->kind = TK_RBRACK; break;
            case '{': t->kind = TK_LBRACE; break;
            case '}': t->kind = TK_RBRACE; break;
            case ',': t->kind = TK_COMMA; break;
            case '+': t->kind = TK_PLUS; break;
            case '*':
                if (c2 == '*') {
                    t->kind = TK_POW;
                    t->len = 2;
                } else {
                    t->kind = TK_STAR;
                }
                break;
            case '&': t->kind = TK_AMP; break;
            case '|': t->kind = TK_BAR; break;
            case '/': t->kind = TK_SLASH; break;
            case '%': t->kind = TK_PERCENT; break;
            case '-':
                if (c2 == '>') {
                    t->kind = TK_ARROW;
                    t->len = 2;
                } else {
                    t->kind = TK_MINUS;
                }
                break;
            case '.':
                if (c2 != '.') {
                    rc = ns_src_error(err, NS_EINVAL, src, i, "found a single '.': expected '..' (a range such as 1..x); numbers are integers");
                    goto fail;
                }
                t->kind = TK_DOTDOT;
                t->len = 2;
                break;
            case '<':
                if (c2 == '=') {
                    t->kind = TK_LE;
                    t->len = 2;
                } else if (c2 == '<') {
                    t->kind = TK_SHL;
                    t->len = 2;
                } else {
                    t->kind = TK_LT;
                }
                break;
            case '>':
                if (c2 == '=') {
                    t->kind = TK_GE;
                    t->len = 2;
                } else if (c2 == '>') {
                    t->kind = TK_SHR;
                    t->len = 2;
                } else {
                    t->kind = TK_GT;
                }
                break;
            case '=':
                if (c2 == '=') {
                    t->kind = TK_EQ;
                    t->len = 2;
                } else {
                    t->kind = TK_ASSIGN;
                }
                break;
            case '!':
                if (c2 != '=') {
                    rc = ns_src_error(err, NS_EINVAL, src, i, "found '!': expected '!=' (write 'not' for negation)");
                    goto fail;
                }
                t->kind = TK_NE;
                t->len = 2;
                break;
            case '^':
                rc = ns_src_error(err, NS_EINVAL, src, i, "found '^': expected 'xor' for exclusive or, or '**' for a power");
                goto fail;
            default:
                if (c >= 33 && c < 127)
                    rc = ns_src_error(err, NS_EINVAL, src, i, "unexpected character '%c'", (char)c);
                else
                    rc = ns_src_error(err, NS_EINVAL, src, i, "unexpected byte 0x%02x: expected ASCII rule text", (unsigned)c);
                goto fail;
            }
            i += t->len;
        }
        nv++;
    }
    *out = v;
    *n = nv;
    return NS_OK;
fail:
    free(v);
    return rc;
}
