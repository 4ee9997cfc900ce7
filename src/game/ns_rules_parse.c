/* ns_rules_parse.c - recursive-descent parser for the rule-set language.
 *
 *   file      := stmt*
 *   stmt      := 'game' (STRING | GAME_NAME)          (see ns_rules_lex.h)
 *              | 'param' NAME '=' expr
 *              | 'piles' pile (','? pile)*          pile := NAME ('[' expr ']')?
 *              | 'rank' expr
 *              | 'play' ('normal' | 'misere')
 *              | 'outside' 'forbid'
 *              | 'domain' 'filter'? expr ('forall' items)* ('where' expr)?
 *              | 'symmetric' pile (','? pile)*
 *              | 'require' expr
 *              | 'move' expr '->' expr clause*
 *              | 'def' NAME '(' NAME (',' NAME)* ')' '=' expr
 *   clause    := 'for' items | 'where' expr | 'forall' items
 *   items     := expr (',' expr)*
 *   expr      := and ('or' and)*
 *   and       := not ('and' not)*
 *   not       := 'not' not | cmp
 *   cmp       := range (cmpop range)* | range 'in' range     (chains: a < b <= c)
 *   range     := bor ('..' bor)?
 *   bor       := bxor ('|' bxor)*
 *   bxor      := band ('xor' band)*
 *   band      := shift ('&' shift)*
 *   shift     := sum (('<<' | '>>') sum)*
 *   sum       := prod (('+' | '-') prod)*
 *   prod      := unary (('*' | '/' | 'mod' | '%') unary)*
 *   unary     := ('-' | '+') unary | power
 *   power     := primary ('**' unary)?                     (right to left: 2**3**2 = 2**9)
 *   primary   := NUMBER | NAME | NAME '[' expr ']' | NAME '(' args? ')'
 *              | '(' expr ')' | '(' expr (',' expr)+ ')' | '(' expr comp ')'
 *              | '{' (arg (',' arg)*)? '}'
 *   args      := arg (',' arg)*      arg := expr comp?
 *   comp      := 'for' NAME 'in' range ('where' expr)?
 * Statements need no terminator: each starts with its keyword. */
#include "game/ns_rules_parse.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200
#define MAX_NODES (1 << 22)

typedef struct parser {
    const ns_src *src;
    const ns_tok *t;        /* tokens, ending with TK_EOF */
    size_t nt, pos;
    ns_ast_prog *p;
    ns_error *err;
    ns_err rc;
    int depth;
    int *tmp;               /* scratch stack for lists */
    int ntmp, captmp;
} parser;

static const ns_tok *cur(const parser *ps)
{
    return &ps->t[ps->pos];
}

static ns_tok_kind kind(const parser *ps)
{
    return ps->t[ps->pos].kind;
}

static void advance(parser *ps)
{
    if (ps->pos + 1 < ps->nt)
        ps->pos++;
}

static uint32_t prev_end(const parser *ps)
{
    if (ps->pos == 0)
        return 0;
    const ns_tok *t = &ps->t[ps->pos - 1];
    return t->off + t->len;
}

/* "found X: expected <what>" at the current token */
static int expected(parser *ps, const char *what)
{
    char found[96];
    if (ps->rc)
        return -1;
    ns_tok_describe(ps->src, cur(ps), found, sizeof found);
    ps->rc = ns_src_error(ps->err, NS_EINVAL, ps->src, cur(ps)->off, "found %s: expected %s", found, what);
    return -1;
}

static int oom(parser *ps)
{
    if (!ps->rc)
        ps->rc = ns_error_set(ps->err, NS_ENOMEM, "out of memory");
    return -1;
}

static int new_node(parser *ps, ns_ast_kind k, uint32_t off)
{
    ns_ast_prog *p = ps->p;
    if (p->nnodes == p->capnodes) {
        if (p->nnodes >= MAX_NODES) {
            ps->rc = ns_src_error(ps->err, NS_EINVAL, ps->src, off, "the rule text is too large (more than %d syntax nodes)", MAX_NODES);
            return -1;
        }
        int nc = p->capnodes ? p->capnodes * 2 : 256;
        ns_ast *n = realloc(p->nodes, (size_t)nc * sizeof *n);
        if (!n)
            return oom(ps);
        p->nodes = n;
        p->capnodes = nc;
    }
    ns_ast *n = &p->nodes[p->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = k;
    n->off = off;
    n->end = off;
    n->a = n->b = n->c = -1;
    n->list = -1;
    n->depth = 1;
    return p->nnodes++;
}

/* Compute the depth of a finished composite node; returns n or -1 when the
 * expression is too deep (long chains such as 1+1+...+1 included). */
static int finish(parser *ps, int n)
{
    if (n < 0)
        return -1;
    ns_ast_prog *p = ps->p;
    ns_ast *x = &p->nodes[n];
    int d = 0;
    if (x->a >= 0 && p->nodes[x->a].depth > d)
        d = p->nodes[x->a].depth;
    if (x->b >= 0 && p->nodes[x->b].depth > d)
        d = p->nodes[x->b].depth;
    if (x->c >= 0 && p->nodes[x->c].depth > d)
        d = p->nodes[x->c].depth;
    for (int i = 0; i < x->nlist; i++)
        if (p->nodes[p->lists[x->list + i]].depth > d)
            d = p->nodes[p->lists[x->list + i]].depth;
    x->depth = d + 1;
    if (x->depth > NS_AST_MAX_DEPTH) {
        ps->rc = ns_src_error(ps->err, NS_EINVAL, ps->src, x->off,
                              "expression too long or nested too deeply (more than %d levels)", NS_AST_MAX_DEPTH);
        return -1;
    }
    return n;
}

static int push_tmp(parser *ps, int v)
{
    if (ps->ntmp == ps->captmp) {
        int nc = ps->captmp ? ps->captmp * 2 : 64;
        int *n = realloc(ps->tmp, (size_t)nc * sizeof *n);
        if (!n)
            return oom(ps);
        ps->tmp = n;
        ps->captmp = nc;
    }
    ps->tmp[ps->ntmp++] = v;
    return 0;
}

/* Move tmp[base..] into the list pool; returns the list start (or -1). */
static int flush_tmp(parser *ps, int base, int *count)
{
    ns_ast_prog *p = ps->p;
    int n = ps->ntmp - base;
    *count = n;
    if (p->nlists + n > p->caplists) {
        int nc = p->caplists ? p->caplists : 64;
        while (nc < p->nlists + n)
            nc *= 2;
        int *l = realloc(p->lists, (size_t)nc * sizeof *l);
        if (!l)
            return oom(ps);
        p->lists = l;
        p->caplists = nc;
    }
    int start = p->nlists;
    if (n)
        memcpy(p->lists + start, ps->tmp + base, (size_t)n * sizeof *ps->tmp);
    p->nlists += n;
    ps->ntmp = base;
    return start;
}

static int binary(parser *ps, ns_ast_kind k, int a, int b)
{
    int n = new_node(ps, k, ps->p->nodes[a].off);
    if (n < 0)
        return -1;
    ns_ast *x = &ps->p->nodes[n];
    x->a = a;
    x->b = b;
    x->end = ps->p->nodes[b].end;
    return finish(ps, n);
}

static int can_start_expr(ns_tok_kind k)
{
    return k == TK_NUM || k == TK_IDENT || k == TK_LPAREN || k == TK_LBRACE || k == TK_MINUS ||
           k == TK_PLUS || k == TK_NOT;
}

static int p_expr(parser *ps);
static int p_range(parser *ps);

static int enter(parser *ps)
{
    if (++ps->depth > MAX_DEPTH) {
        ps->rc = ns_src_error(ps->err, NS_EINVAL, ps->src, cur(ps)->off, "expression nested too deeply (more than %d levels)", MAX_DEPTH);
        return -1;
    }
    return 0;
}

/* 'for' NAME 'in' range ('where' expr)?, after item; builds a COMP node. */
static int p_comp_tail(parser *ps, int item)
{
    advance(ps); /* 'for' */
    if (kind(ps) != TK_IDENT)
        return expected(ps, "a name for the index of the comprehension (as in 'for i in 1..k')");
    const ns_tok *nm = cur(ps);
    advance(ps);
    if (kind(ps) != TK_IN)
        return expected(ps, "'in' and the range of the index (as in 'for i in 1..k')");
    advance(ps);
    int set = p_range(ps);
    if (set < 0)
        return -1;
    int filter = -1;
    if (kind(ps) == TK_WHERE) {
        advance(ps);
        if ((filter = p_expr(ps)) < 0)
            return -1;
    }
    int n = new_node(ps, AST_COMP, ps->p->nodes[item].off);
    if (n < 0)
        return -1;
    ns_ast *x = &ps->p->nodes[n];
    x->name = nm->off;
    x->nlen = nm->len;
    x->a = item;
    x->b = set;
    x->c = filter;
    x->end = ps->p->nodes[filter >= 0 ? filter : set].end;
    return finish(ps, n);
}

/* Items separated by commas (each may be a comprehension, 'item for i in
 * ...') up to the token close, which is consumed; what names the expected
 * tokens in the error. Returns the list start (count in *cnt) or -1. */
static int p_list(parser *ps, ns_tok_kind close, const char *what, int *cnt)
{
    int base = ps->ntmp;
    if (kind(ps) != close) {
        for (;;) {
            int it = p_expr(ps);
            if (it < 0)
                return -1;
            if (kind(ps) == TK_FOR && (it = p_comp_tail(ps, it)) < 0)
                return -1;
            if (push_tmp(ps, it))
                return -1;
            if (kind(ps) == TK_COMMA) {
                advance(ps);
                continue;
            }
            if (kind(ps) != close)
                return expected(ps, what);
            break;
        }
    }
    advance(ps);
    return flush_tmp(ps, base, cnt);
}

static int p_primary(parser *ps)
{
    const ns_tok *t = cur(ps);
    int n;
    switch (t->kind) {
    case TK_NUM:
        n = new_node(ps, AST_NUM, t->off);
        if (n < 0)
            return -1;
        ps->p->nodes[n].num = t->num;
        ps->p->nodes[n].end = t->off + t->len;
        advance(ps);
        return n;
    case TK_IDENT: {
        uint32_t name = t->off, nlen = t->len;
        advance(ps);
        if (kind(ps) == TK_LBRACK) {
            advance(ps);
            int sub = p_expr(ps);
            if (sub < 0)
                return -1;
            if (kind(ps) != TK_RBRACK)
                return expected(ps, "']' after the index");
            advance(ps);
            n = new_node(ps, AST_INDEX, name);
            if (n < 0)
                return -1;
            ns_ast *x = &ps->p->nodes[n];
            x->name = name;
            x->nlen = nlen;
            x->a = sub;
            x->end = prev_end(ps);
            return finish(ps, n);
        }
        if (kind(ps) == TK_LPAREN) {
            advance(ps);
            int cnt, start = p_list(ps, TK_RPAREN, "',' or ')' in the arguments", &cnt);
            if (start < 0)
                return -1;
            n = new_node(ps, AST_CALL, name);
            if (n < 0)
                return -1;
            ns_ast *x = &ps->p->nodes[n];
            x->name = name;
            x->nlen = nlen;
            x->list = start;
            x->nlist = cnt;
            x->end = prev_end(ps);
            return finish(ps, n);
        }
        n = new_node(ps, AST_NAME, name);
        if (n < 0)
            return -1;
        ps->p->nodes[n].name = name;
        ps->p->nodes[n].nlen = nlen;
        ps->p->nodes[n].end = name + nlen;
        return n;
    }
    case TK_LPAREN: {
        uint32_t off = t->off;
        advance(ps);
        int first = p_expr(ps);
        if (first < 0)
            return -1;
        if (kind(ps) == TK_FOR) {
            int c = p_comp_tail(ps, first);
            if (c < 0)
                return -1;
            if (kind(ps) != TK_RPAREN)
                return expected(ps, "')' to close the comprehension");
            advance(ps);
            ps->p->nodes[c].off = off;
            ps->p->nodes[c].end = prev_end(ps);
            return c;
        }
        if (kind(ps) == TK_RPAREN) {
            advance(ps);
            return first;
        }
        if (kind(ps) != TK_COMMA)
            return expected(ps, "')' or ','");
        int base = ps->ntmp;
        if (push_tmp(ps, first))
            return -1;
        while (kind(ps) == TK_COMMA) {
            advance(ps);
            int it = p_expr(ps);
            if (it < 0)
                return -1;
            if (push_tmp(ps, it))
                return -1;
        }
        if (kind(ps) != TK_RPAREN)
            return expected(ps, "',' or ')' to close the tuple");
        advance(ps);
        int cnt, start = flush_tmp(ps, base, &cnt);
        if (start < 0)
            return -1;
        n = new_node(ps, AST_TUPLE, off);
        if (n < 0)
            return -1;
        ps->p->nodes[n].list = start;
        ps->p->nodes[n].nlist = cnt;
        ps->p->nodes[n].end = prev_end(ps);
        return finish(ps, n);
    }
    case TK_LBRACE: {
        uint32_t off = t->off;
        advance(ps);
        int cnt, start = p_list(ps, TK_RBRACE, "',' or '}' in the set", &cnt);
        if (start < 0)
            return -1;
        n = new_node(ps, AST_SET, off);
        if (n < 0)
            return -1;
        ps->p->nodes[n].list = start;
        ps->p->nodes[n].nlist = cnt;
        ps->p->nodes[n].end = prev_end(ps);
        return finish(ps, n);
    }
    default:
        return expected(ps, "an expression (a number, a name, '(' or '{')");
    }
}

static int p_unary(parser *ps)
{
    if (enter(ps))
        return -1;
    int n;
    if (kind(ps) == TK_MINUS || kind(ps) == TK_PLUS) {
        int neg = kind(ps) == TK_MINUS;
        uint32_t off = cur(ps)->off;
        advance(ps);
        int a = p_unary(ps);
        if (a < 0)
            return -1;
        if (!neg) {
            n = a;
        } else {
            n = new_node(ps, AST_NEG, off);
            if (n >= 0) {
                ps->p->nodes[n].a = a;
                ps->p->nodes[n].end = ps->p->nodes[a].end;
                n = finish(ps, n);
            }
        }
    } else {
        n = p_primary(ps);
        if (n >= 0 && kind(ps) == TK_POW) {
            /* right to left, and tighter than a unary minus on its left
             * (-2**2 = -4), as in Python */
            advance(ps);
            int b = p_unary(ps);
            n = b < 0 ? -1 : binary(ps, AST_POW, n, b);
        }
    }
    ps->depth--;
    return n;
}

static int p_prod(parser *ps)
{
    int a = p_unary(ps);
    while (a >= 0) {
        ns_ast_kind k;
        switch (kind(ps)) {
        case TK_STAR: k = AST_MUL; break;
        case TK_SLASH: k = AST_DIV; break;
        case TK_MOD:
        case TK_PERCENT: k = AST_MOD; break;
        default: return a;
        }
        advance(ps);
        int b = p_unary(ps);
        if (b < 0)
            return -1;
        a = binary(ps, k, a, b);
    }
    return a;
}

static int p_sum(parser *ps)
{
    int a = p_prod(ps);
    while (a >= 0 && (kind(ps) == TK_PLUS || kind(ps) == TK_MINUS)) {
        ns_ast_kind k = kind(ps) == TK_PLUS ? AST_ADD : AST_SUB;
        advance(ps);
        int b = p_prod(ps);
        if (b < 0)
            return -1;
        a = binary(ps, k, a, b);
    }
    return a;
}

/* one level of left-associative binary operators: sub is the next level */
static int p_level(parser *ps, int (*sub)(parser *), ns_tok_kind t1, ns_ast_kind k1, ns_tok_kind t2, ns_ast_kind k2)
{
    int a = sub(ps);
    while (a >= 0 && (kind(ps) == t1 || kind(ps) == t2)) {
        ns_ast_kind k = kind(ps) == t1 ? k1 : k2;
        advance(ps);
        int b = sub(ps);
        if (b < 0)
            return -1;
        a = binary(ps, k, a, b);
    }
    return a;
}

static int p_shift(parser *ps)
{
    return p_level(ps, p_sum, TK_SHL, AST_SHL, TK_SHR, AST_SHR);
}

static int p_band(parser *ps)
{
    return p_level(ps, p_shift, TK_AMP, AST_BAND, TK_AMP, AST_BAND);
}

static int p_bxor(parser *ps)
{
    return p_level(ps, p_band, TK_XOR, AST_BXOR, TK_XOR, AST_BXOR);
}

static int p_bor(parser *ps)
{
    return p_level(ps, p_bxor, TK_BAR, AST_BOR, TK_BAR, AST_BOR);
}

static int p_range(parser *ps)
{
    int a = p_bor(ps);
    if (a < 0 || kind(ps) != TK_DOTDOT)
        return a;
    advance(ps);
    if (!can_start_expr(kind(ps)) || kind(ps) == TK_NOT) {
        char found[96];
        ns_tok_describe(ps->src, cur(ps), found, sizeof found);
        ps->rc = ns_src_error(ps->err, NS_EINVAL, ps->src, cur(ps)->off,
                              "the range has no upper end: found %s after '..', expected an expression (ranges are finite, as in 1..x)", found);
        return -1;
    }
    int b = p_bor(ps);
    if (b < 0)
        return -1;
    if (kind(ps) == TK_DOTDOT)
        return expected(ps, "one '..' per range");
    return binary(ps, AST_RANGE, a, b);
}

static int cmp_kind(ns_tok_kind k, ns_ast_kind *out)
{
    switch (k) {
    case TK_LT: *out = AST_LT; return 1;
    case TK_LE: *out = AST_LE; return 1;
    case TK_GT: *out = AST_GT; return 1;
    case TK_GE: *out = AST_GE; return 1;
    case TK_EQ:
    case TK_ASSIGN: *out = AST_EQ; return 1;
    case TK_NE: *out = AST_NE; return 1;
    default: return 0;
    }
}

static int p_cmp(parser *ps)
{
    int a = p_range(ps);
    if (a < 0)
        return -1;
    if (kind(ps) == TK_IN) {
        advance(ps);
        int b = p_range(ps);
        if (b < 0)
            return -1;
        return binary(ps, AST_IN, a, b);
    }
    ns_ast_kind k;
    int result = a, left = a;
    int chained = 0;
    while (cmp_kind(kind(ps), &k)) {
        advance(ps);
        int b = p_range(ps);
        if (b < 0)
            return -1;
        int c = binary(ps, k, left, b);
        if (c < 0)
            return -1;
        result = chained ? binary(ps, AST_AND, result, c) : c;
        if (result < 0)
            return -1;
        chained = 1;
        left = b;
    }
    return result;
}

static int p_not(parser *ps)
{
    if (kind(ps) != TK_NOT)
        return p_cmp(ps);
    if (enter(ps))
        return -1;
    uint32_t off = cur(ps)->off;
    advance(ps);
    int a = p_not(ps);
    ps->depth--;
    if (a < 0)
        return -1;
    int n = new_node(ps, AST_NOT, off);
    if (n < 0)
        return -1;
    ps->p->nodes[n].a = a;
    ps->p->nodes[n].end = ps->p->nodes[a].end;
    return finish(ps, n);
}

static int p_and(parser *ps)
{
    int a = p_not(ps);
    while (a >= 0 && kind(ps) == TK_AND) {
        advance(ps);
        int b = p_not(ps);
        if (b < 0)
            return -1;
        a = binary(ps, AST_AND, a, b);
    }
    return a;
}

static int p_expr(parser *ps)
{
    if (enter(ps))
        return -1;
    int a = p_and(ps);
    while (a >= 0 && kind(ps) == TK_OR) {
        advance(ps);
        int b = p_and(ps);
        if (b < 0) {
            a = -1;
            break;
        }
        a = binary(ps, AST_OR, a, b);
    }
    ps->depth--;
    return a;
}

static ns_stmt *new_stmt(parser *ps, ns_stmt_kind k)
{
    ns_ast_prog *p = ps->p;
    if (p->nstmts == p->capstmts) {
        int nc = p->capstmts ? p->capstmts * 2 : 32;
        ns_stmt *s = realloc(p->stmts, (size_t)nc * sizeof *s);
        if (!s) {
            oom(ps);
            return NULL;
        }
        p->stmts = s;
        p->capstmts = nc;
    }
    ns_stmt *s = &p->stmts[p->nstmts++];
    memset(s, 0, sizeof *s);
    s->kind = k;
    s->off = cur(ps)->off;
    s->a = s->b = -1;
    s->piles = s->binds = s->wheres = s->foralls = s->args = -1;
    return s;
}

/* items := expr (',' expr)*, appended to the scratch stack */
static int p_items(parser *ps)
{
    for (;;) {
        int it = p_expr(ps);
        if (it < 0 || push_tmp(ps, it))
            return -1;
        if (kind(ps) != TK_COMMA)
            return 0;
        advance(ps);
    }
}

static int p_game(parser *ps, ns_stmt *s)
{
    uint32_t at = cur(ps)->off;
    advance(ps);
    if (kind(ps) == TK_STRING) {
        s->name = cur(ps)->off + 1;
        s->nlen = cur(ps)->len - 2;
        advance(ps);
        return 0;
    }
    if (kind(ps) == TK_GAME_NAME) {
        /* two-piles, sub25-2piles: kept as written */
        s->name = cur(ps)->off;
        s->nlen = cur(ps)->len;
        advance(ps);
        return 0;
    }
    if (kind(ps) == TK_EOF || ns_tok_starts_stmt(kind(ps))) {
        if (!ps->rc)
            ps->rc = ns_src_error(ps->err, NS_EINVAL, ps->src, at,
                                  "'game' has no name: expected a name of letters, digits, '_' and '-' "
                                  "(as in 'game two-piles') or a string (as in 'game \"my variant\"')");
        return -1;
    }
    return expected(ps, "the name of the game: letters, digits, '_' and '-', not starting with '-' "
                        "(as in 'game two-piles'), or a string (as in 'game \"my variant\"')");
}

static int p_param(parser *ps, ns_stmt *s)
{
    advance(ps);
    if (kind(ps) != TK_IDENT)
        return expected(ps, "the name of the parameter (as in 'param a = 2')");
    s->name = cur(ps)->off;
    s->nlen = cur(ps)->len;
    advance(ps);
    if (kind(ps) != TK_ASSIGN && kind(ps) != TK_EQ)
        return expected(ps, "'=' and the default value of the parameter");
    advance(ps);
    s->a = p_expr(ps);
    return s->a < 0 ? -1 : 0;
}

static int p_piles(parser *ps, ns_stmt *s)
{
    advance(ps);
    int base = ps->ntmp;
    if (kind(ps) != TK_IDENT)
        return expected(ps, s->kind == ST_SYMMETRIC ? "the piles that may be permuted (as in 'symmetric x y' or 'symmetric p')"
                                                    : "the names of the piles (as in 'piles x y' or 'piles p[1..k]')");
    while (kind(ps) == TK_IDENT) {
        const ns_tok *nm = cur(ps);
        advance(ps);
        int n;
        if (kind(ps) == TK_LBRACK) {
            advance(ps);
            int r = p_expr(ps);
            if (r < 0)
                return -1;
            if (kind(ps) != TK_RBRACK)
                return expected(ps, "']' after the index range of the piles");
            advance(ps);
            n = new_node(ps, AST_INDEX, nm->off);
            if (n < 0)
                return -1;
            ps->p->nodes[n].a = r;
        } else {
            n = new_node(ps, AST_NAME, nm->off);
            if (n < 0)
                return -1;
        }
        ps->p->nodes[n].name = nm->off;
        ps->p->nodes[n].nlen = nm->len;
        ps->p->nodes[n].end = prev_end(ps);
        if (push_tmp(ps, n))
            return -1;
        if (kind(ps) == TK_COMMA) {
            advance(ps);
            if (kind(ps) != TK_IDENT)
                return expected(ps, "the name of a pile after ','");
        } else if (kind(ps) == TK_IDENT && memchr(ps->src->text + prev_end(ps), '\n', cur(ps)->off - prev_end(ps))) {
            break; /* without a comma the names end with the line */
        }
    }
    s->piles = flush_tmp(ps, base, &s->npiles);
    return s->piles < 0 ? -1 : 0;
}

static int p_play(parser *ps, ns_stmt *s)
{
    advance(ps);
    const ns_tok *t = cur(ps);
    const char *w = ps->src->text + t->off;
    if (t->kind == TK_IDENT && t->len == 6 && memcmp(w, "normal", 6) == 0) {
        s->misere = 0;
    } else if (t->kind == TK_IDENT && t->len == 6 && memcmp(w, "misere", 6) == 0) {
        s->misere = 1;
    } else {
        return expected(ps, "'normal' or 'misere'");
    }
    advance(ps);
    return 0;
}

/* 'outside forbid': an option outside the box is not a move */
static int p_outside(parser *ps, ns_stmt *s)
{
    (void)s;
    advance(ps);
    const ns_tok *t = cur(ps);
    if (!(t->kind == TK_IDENT && t->len == 6 && memcmp(ps->src->text + t->off, "forbid", 6) == 0))
        return expected(ps, "'forbid' (as in 'outside forbid': a move that leaves the box is not a move)");
    advance(ps);
    return 0;
}

static int p_forall(parser *ps, ns_stmt *s)
{
    int base = ps->ntmp;
    while (kind(ps) == TK_FORALL) {
        advance(ps);
        if (p_items(ps))
            return -1;
    }
    s->foralls = flush_tmp(ps, base, &s->nforalls);
    if (s->foralls < 0)
        return -1;
    if (kind(ps) != TK_WHERE)
        return 0;
    /* the filter of the forall: one condition on its indices */
    if (!s->nforalls)
        return expected(ps, "'forall' before 'where' (a domain is one condition: join conditions with 'and')");
    advance(ps);
    int c = p_expr(ps);
    if (c < 0 || push_tmp(ps, c))
        return -1;
    s->wheres = flush_tmp(ps, base, &s->nwheres);
    return s->wheres < 0 ? -1 : 0;
}

/* 'def' NAME '(' NAME (',' NAME)* ')' '=' expr */
static int p_def(parser *ps, ns_stmt *s)
{
    advance(ps);
    if (kind(ps) != TK_IDENT)
        return expected(ps, "the name of the function (as in 'def f(n) = n * (n + 1) / 2')");
    s->name = cur(ps)->off;
    s->nlen = cur(ps)->len;
    advance(ps);
    if (kind(ps) != TK_LPAREN)
        return expected(ps, "'(' and the names of the arguments (as in 'def f(n) = ...')");
    advance(ps);
    int base = ps->ntmp;
    for (;;) {
        if (kind(ps) != TK_IDENT)
            return expected(ps, "the name of an argument");
        int n = new_node(ps, AST_NAME, cur(ps)->off);
        if (n < 0)
            return -1;
        ps->p->nodes[n].name = cur(ps)->off;
        ps->p->nodes[n].nlen = cur(ps)->len;
        ps->p->nodes[n].end = cur(ps)->off + cur(ps)->len;
        if (push_tmp(ps, n))
            return -1;
        advance(ps);
        if (kind(ps) == TK_COMMA) {
            advance(ps);
            continue;
        }
        if (kind(ps) != TK_RPAREN)
            return expected(ps, "',' or ')' after the name of an argument");
        advance(ps);
        break;
    }
    if ((s->args = flush_tmp(ps, base, &s->nargs)) < 0)
        return -1;
    if (kind(ps) != TK_ASSIGN && kind(ps) != TK_EQ)
        return expected(ps, "'=' and the body of the function (as in 'def f(n) = n * (n + 1) / 2')");
    advance(ps);
    s->a = p_expr(ps);
    return s->a < 0 ? -1 : 0;
}

static int p_move(parser *ps, ns_stmt *s)
{
    advance(ps);
    s->a = p_expr(ps);
    if (s->a < 0)
        return -1;
    if (kind(ps) != TK_ARROW)
        return expected(ps, "'->' between the piles that change and their new values (as in 'move x -> x - t')");
    advance(ps);
    s->b = p_expr(ps);
    if (s->b < 0)
        return -1;
    /* clauses in any order; gather each kind on its own stack segment */
    int fbase = ps->ntmp;
    int nb = 0, nw = 0, nf = 0;
    int *b = NULL, *w = NULL, *f = NULL;
    int rc = -1;
    for (;;) {
        ns_tok_kind k = kind(ps);
        if (k != TK_FOR && k != TK_WHERE && k != TK_FORALL)
            break;
        advance(ps);
        int start = ps->ntmp;
        if (k == TK_WHERE) {
            int c = p_expr(ps);
            if (c < 0 || push_tmp(ps, c))
                goto done;
        } else if (p_items(ps)) {
            goto done;
        }
        int cnt = ps->ntmp - start;
        int **dst = k == TK_FOR ? &b : k == TK_WHERE ? &w : &f;
        int *ndst = k == TK_FOR ? &nb : k == TK_WHERE ? &nw : &nf;
        int *grown = realloc(*dst, (size_t)(*ndst + cnt) * sizeof *grown);
        if (!grown) {
            oom(ps);
            goto done;
        }
        memcpy(grown + *ndst, ps->tmp + start, (size_t)cnt * sizeof *grown);
        *dst = grown;
        *ndst += cnt;
        ps->ntmp = start;
    }
    for (int i = 0; i < nb; i++)
        if (push_tmp(ps, b[i]))
            goto done;
    if ((s->binds = flush_tmp(ps, fbase, &s->nbinds)) < 0)
        goto done;
    for (int i = 0; i < nw; i++)
        if (push_tmp(ps, w[i]))
            goto done;
    if ((s->wheres = flush_tmp(ps, fbase, &s->nwheres)) < 0)
        goto done;
    for (int i = 0; i < nf; i++)
        if (push_tmp(ps, f[i]))
            goto done;
    if ((s->foralls = flush_tmp(ps, fbase, &s->nforalls)) < 0)
        goto done;
    rc = 0;
done:
    free(b);
    free(w);
    free(f);
    return rc;
}

void ns_ast_prog_free(ns_ast_prog *p)
{
    if (!p)
        return;
    free(p->nodes);
    free(p->lists);
    free(p->stmts);
    memset(p, 0, sizeof *p);
}

ns_err ns_rules_parse(const ns_src *src, ns_ast_prog *out, ns_error *err)
{
    memset(out, 0, sizeof *out);
    ns_tok *toks = NULL;
    size_t nt = 0;
    ns_err rc = ns_rules_lex(src, &toks, &nt, err);
    if (rc)
        return rc;
    parser ps = {.src = src, .t = toks, .nt = nt, .p = out, .err = err};
    while (kind(&ps) != TK_EOF) {
        ns_tok_kind k = kind(&ps);
        if (!ns_tok_starts_stmt(k)) {
            expected(&ps, "a statement: game, param, piles, heap, rank, play, outside, domain, symmetric, require, move or def");
            break;
        }
        ns_stmt_kind sk = k == TK_GAME ? ST_GAME : k == TK_PARAM ? ST_PARAM : k == TK_PILES ? ST_PILES
                        : k == TK_RANK ? ST_RANK : k == TK_PLAY ? ST_PLAY : k == TK_DOMAIN ? ST_DOMAIN
                        : k == TK_REQUIRE ? ST_REQUIRE : k == TK_DEF ? ST_DEF : k == TK_SYMMETRIC ? ST_SYMMETRIC
                        : k == TK_HEAP ? ST_HEAP : k == TK_OUTSIDE ? ST_OUTSIDE : ST_MOVE;
        ns_stmt *s = new_stmt(&ps, sk);
        if (!s)
            break;
        int stmt_index = ps.p->nstmts - 1;
        int r;
        switch (sk) {
        case ST_GAME: r = p_game(&ps, s); break;
        case ST_PARAM: r = p_param(&ps, s); break;
        case ST_PILES:
        case ST_SYMMETRIC:
        case ST_HEAP: r = p_piles(&ps, s); break;
        case ST_PLAY: r = p_play(&ps, s); break;
        case ST_OUTSIDE: r = p_outside(&ps, s); break;
        case ST_DEF: r = p_def(&ps, s); break;
        case ST_RANK:
        case ST_REQUIRE:
            advance(&ps);
            r = (s->a = p_expr(&ps)) < 0 ? -1 : 0;
            break;
        case ST_DOMAIN:
            advance(&ps);
            if (kind(&ps) == TK_FILTER) {
                s->filter = 1;
                advance(&ps);
            }
            r = (s->a = p_expr(&ps)) < 0 ? -1 : p_forall(&ps, s);
            break;
        default: r = p_move(&ps, s); break;
        }
        if (r)
            break;
        s = &ps.p->stmts[stmt_index]; /* the array may have moved */
        s->end = prev_end(&ps);
        if (kind(&ps) != TK_EOF && !ns_tok_starts_stmt(kind(&ps))) {
            if (sk == ST_MOVE)
                expected(&ps, "'for', 'where', 'forall' or the next statement");
            else if (sk == ST_DOMAIN)
                expected(&ps, "'forall', 'where' or the next statement");
            else
                expected(&ps, "the next statement (game, param, piles, heap, rank, play, outside, domain, symmetric, require, move or def)");
            break;
        }
    }
    free(ps.tmp);
    free(toks);
    if (ps.rc) {
        ns_ast_prog_free(out);
        return ps.rc;
    }
    return NS_OK;
}
