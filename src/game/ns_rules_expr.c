/* ns_rules_expr.c - the elaboration of expressions: errors, symbols,
 * names, types, function calls, comprehensions (ns_rules_expr.h). */
#include "game/ns_rules_expr.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const builtins[] = {"min", "max", "abs", "sum", "count", "all", "any", "size", "popcount", "lex", NULL};

/* ---------- helpers ---------- */

const ns_ast *ns_elab_node(const ns_elab *e, int id)
{
    return &e->ast->nodes[id];
}

int ns_elab_fail_at(ns_elab *e, uint32_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ns_elab_fail_at(ns_elab *e, uint32_t off, const char *fmt, ...)
{
    if (e->rc)
        return -1;
    char msg[NS_ERROR_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    e->rc = ns_src_error(e->err, NS_EINVAL, e->src, off, "%s", msg);
    return -1;
}

int ns_elab_oom(ns_elab *e)
{
    if (!e->rc)
        e->rc = ns_error_set(e->err, NS_ENOMEM, "out of memory");
    return -1;
}

/* The text of node id, shortened, for messages. */
const char *ns_elab_text_of(const ns_elab *e, int id, char *buf, size_t len)
{
    ns_src_excerpt(e->src, ns_elab_node(e, id)->off, ns_elab_node(e, id)->end, buf, len);
    return buf;
}

void ns_elab_where_of(const ns_elab *e, uint32_t off, char *buf, size_t len)
{
    int l, c;
    ns_src_linecol(e->src, off, &l, &c);
    snprintf(buf, len, "%d:%d", l, c);
}

static int span_eq(const ns_elab *e, uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
    return alen == blen && memcmp(e->src->text + a, e->src->text + b, alen) == 0;
}

static int span_is(const ns_elab *e, uint32_t a, uint32_t alen, const char *w)
{
    return strlen(w) == alen && memcmp(e->src->text + a, w, alen) == 0;
}

static int is_builtin(const ns_elab *e, uint32_t name, uint32_t nlen)
{
    for (const char *const *b = builtins; *b; b++)
        if (span_is(e, name, nlen, *b))
            return 1;
    return 0;
}

static int fault(ns_elab *e, const ns_ir_fault *f)
{
    switch (f->code) {
    case NS_IR_DIVZERO:
        return ns_elab_fail_at(e, f->off, "division by zero");
    case NS_IR_OVERFLOW:
        return ns_elab_fail_at(e, f->off, "integer overflow: the value does not fit in 64 bits");
    case NS_IR_NEGSHIFT:
    case NS_IR_NEGPOW:
    case NS_IR_NEGPOP:
        return ns_elab_fail_at(e, f->off, "%s", ns_ir_fault_text(f->code));
    case NS_IR_TOOBIG:
        return ns_elab_fail_at(e, f->off, "the rules are too large once 'forall' and comprehensions are expanded, or an expression is nested too deeply");
    default:
        return ns_elab_oom(e);
    }
}

static int mk(ns_elab *e, ns_ir_op op, int a, int b, int64_t v, uint32_t off)
{
    ns_ir_fault f;
    int id = ns_ir_add(&e->prog->ir, op, a, b, v, off, &f);
    if (id < 0)
        return fault(e, &f);
    return id;
}

static int mk_const(ns_elab *e, int64_t v, uint32_t off)
{
    return mk(e, IR_CONST, -1, -1, v, off);
}

int ns_elab_push_tmp(ns_elab *e, int v)
{
    if (e->ntmp == e->captmp) {
        int nc = e->captmp ? e->captmp * 2 : 64;
        int *n = realloc(e->tmp, (size_t)nc * sizeof *n);
        if (!n)
            return ns_elab_oom(e);
        e->tmp = n;
        e->captmp = nc;
    }
    e->tmp[e->ntmp++] = v;
    return 0;
}

int ns_rules_prog_list(ns_rules_prog *p, const int *ids, int n)
{
    if (p->nlists + n > p->caplists) {
        int nc = p->caplists ? p->caplists : 64;
        while (nc < p->nlists + n)
            nc *= 2;
        int *l = realloc(p->lists, (size_t)nc * sizeof *l);
        if (!l)
            return -1;
        p->lists = l;
        p->caplists = nc;
    }
    int start = p->nlists;
    if (n)
        memcpy(p->lists + start, ids, (size_t)n * sizeof *ids);
    p->nlists += n;
    return start;
}

/* Store tmp[base..] as a list and pop it. */
int ns_elab_flush_tmp(ns_elab *e, int base, int *n)
{
    *n = e->ntmp - base;
    int start = ns_rules_prog_list(e->prog, *n ? e->tmp + base : NULL, *n);
    e->ntmp = base;
    if (start < 0)
        return ns_elab_oom(e);
    return start;
}

/* ---------- symbols ---------- */

static const char *sym_what(ns_sym_kind k)
{
    switch (k) {
    case SYM_PARAM: return "a parameter";
    case SYM_PILE: return "a pile";
    case SYM_GROUP: return "a group of piles";
    case SYM_INDEX: return "an index";
    case SYM_ARG: return "an argument";
    default: return "a bound variable";
    }
}

/* the 'def' statement called name, or NULL */
static const ns_stmt *find_def(const ns_elab *e, uint32_t name, uint32_t nlen)
{
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        if (st->kind == ST_DEF && span_eq(e, st->name, st->nlen, name, nlen))
            return st;
    }
    return NULL;
}

/* visible from here: inside a function body, only its arguments and the
 * parameters */
static int visible(const ns_elab *e, int i)
{
    return i >= e->def_floor || e->syms[i].kind == SYM_PARAM;
}

int ns_elab_declare(ns_elab *e, const ns_sym *s)
{
    if (is_builtin(e, s->name, s->nlen))
        return ns_elab_fail_at(e, s->off, "'%.*s' is a built-in function: choose another name", (int)s->nlen, e->src->text + s->name);
    if (find_def(e, s->name, s->nlen))
        return ns_elab_fail_at(e, s->off, "'%.*s' is a function (defined with 'def'): choose another name", (int)s->nlen, e->src->text + s->name);
    for (int i = e->nsyms - 1; i >= 0; i--) {
        const ns_sym *o = &e->syms[i];
        if (!visible(e, i) || !span_eq(e, o->name, o->nlen, s->name, s->nlen))
            continue;
        if (o->kind == SYM_VAR && s->kind == SYM_VAR && o->has_sub && s->has_sub && o->sub != s->sub)
            continue;
        char at[32];
        ns_elab_where_of(e, o->off, at, sizeof at);
        if (s->has_sub && o->has_sub)
            return ns_elab_fail_at(e, s->off, "duplicate name '%.*s[%" PRId64 "]': already bound at %s", (int)s->nlen,
                           e->src->text + s->name, s->sub, at);
        return ns_elab_fail_at(e, s->off, "duplicate name '%.*s': already %s (declared at %s)", (int)s->nlen, e->src->text + s->name,
                       sym_what(o->kind), at);
    }
    if (e->nsyms == e->capsyms) {
        int nc = e->capsyms ? e->capsyms * 2 : 64;
        ns_sym *n = realloc(e->syms, (size_t)nc * sizeof *n);
        if (!n)
            return ns_elab_oom(e);
        e->syms = n;
        e->capsyms = nc;
    }
    e->syms[e->nsyms++] = *s;
    return 0;
}

/* Innermost symbol called name (any subscript), or NULL. */
const ns_sym *ns_elab_lookup(const ns_elab *e, uint32_t name, uint32_t nlen)
{
    for (int i = e->nsyms - 1; i >= 0; i--)
        if (visible(e, i) && span_eq(e, e->syms[i].name, e->syms[i].nlen, name, nlen))
            return &e->syms[i];
    return NULL;
}

static const ns_sym *lookup_sub(const ns_elab *e, uint32_t name, uint32_t nlen, int64_t sub)
{
    for (int i = e->nsyms - 1; i >= 0; i--) {
        const ns_sym *s = &e->syms[i];
        if (visible(e, i) && s->kind == SYM_VAR && s->has_sub && s->sub == sub && span_eq(e, s->name, s->nlen, name, nlen))
            return s;
    }
    return NULL;
}

static int unknown_name(ns_elab *e, uint32_t off, uint32_t name, uint32_t nlen)
{
    if (is_builtin(e, name, nlen) || find_def(e, name, nlen))
        return ns_elab_fail_at(e, off, "'%.*s' is a function: write %.*s(...)", (int)nlen, e->src->text + name, (int)nlen,
                       e->src->text + name);
    if (e->def_floor > 0)
        return ns_elab_fail_at(e, off, "unknown name '%.*s' in the body of a function (it may use its arguments and the parameters)",
                               (int)(nlen > 40 ? 40 : nlen), e->src->text + name);
    /* declared, but not usable here: a pile in a parameter, a parameter
     * used before its declaration */
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        char at[32];
        if (st->kind == ST_PARAM && span_eq(e, st->name, st->nlen, name, nlen)) {
            ns_elab_where_of(e, st->name, at, sizeof at);
            return ns_elab_fail_at(e, off, "parameter '%.*s' is used before its declaration at %s", (int)nlen, e->src->text + name, at);
        }
        if (st->kind != ST_PILES)
            continue;
        for (int i = 0; i < st->npiles; i++) {
            const ns_ast *x = ns_elab_node(e, e->ast->lists[st->piles + i]);
            if (span_eq(e, x->name, x->nlen, name, nlen))
                return ns_elab_fail_at(e, off, "pile '%.*s' cannot be used in %s", (int)nlen, e->src->text + name, e->ctx);
        }
    }
    return ns_elab_fail_at(e, off, "unknown name '%.*s'", (int)(nlen > 40 ? 40 : nlen), e->src->text + name);
}

/* ---------- expressions ---------- */

int ns_elab_val(ns_elab *e, int id, ns_val *out);

const char *ns_elab_type_name(ns_vtype t)
{
    switch (t) {
    case V_INT: return "a number";
    case V_BOOL: return "a condition";
    case V_SET: return "a set";
    default: return "a group of piles";
    }
}

static int want(ns_elab *e, int id, const ns_val *v, ns_vtype t)
{
    if (v->t == t)
        return 0;
    char buf[64];
    return ns_elab_fail_at(e, ns_elab_node(e, id)->off, "expected %s, found %s '%s'", ns_elab_type_name(t), ns_elab_type_name(v->t), ns_elab_text_of(e, id, buf, sizeof buf));
}

int ns_elab_int(ns_elab *e, int id)
{
    ns_val v;
    if (ns_elab_val(e, id, &v) || want(e, id, &v, V_INT))
        return -1;
    return v.node;
}

int ns_elab_bool(ns_elab *e, int id)
{
    ns_val v;
    if (ns_elab_val(e, id, &v) || want(e, id, &v, V_BOOL))
        return -1;
    return v.node;
}

int ns_elab_set(ns_elab *e, int id, ns_val *out)
{
    if (ns_elab_val(e, id, out))
        return -1;
    if (out->t == V_SET)
        return 0;
    char buf[64];
    return ns_elab_fail_at(e, ns_elab_node(e, id)->off, "expected a set (a range a..b, a list {1, 3} or a set parameter), found %s '%s'",
                   ns_elab_type_name(out->t), ns_elab_text_of(e, id, buf, sizeof buf));
}

int ns_elab_const(ns_elab *e, int id, const char *what, int64_t *out)
{
    int n = ns_elab_int(e, id);
    if (n < 0)
        return -1;
    if (!ns_ir_is_const(&e->prog->ir, n)) {
        char buf[64];
        return ns_elab_fail_at(e, ns_elab_node(e, id)->off, "%s must be a constant (numbers, parameters, forall and comprehension indices), found '%s'",
                       what, ns_elab_text_of(e, id, buf, sizeof buf));
    }
    *out = e->prog->ir.n[n].v;
    return 0;
}

/* Values of a constant set (forall and comprehension indices, set
 * parameters). *vals is malloc'd (caller frees). */
int ns_elab_const_values(ns_elab *e, int id, const char *what, int64_t **vals, int *n, int maxn)
{
    ns_val s;
    *vals = NULL;
    *n = 0;
    if (ns_elab_set(e, id, &s))
        return -1;
    const ns_ir_pool *ir = &e->prog->ir;
    char buf[64];
    if (s.range) {
        if (!ns_ir_is_const(ir, s.lo) || !ns_ir_is_const(ir, s.hi))
            return ns_elab_fail_at(e, ns_elab_node(e, id)->off, "%s must be a constant range (numbers, parameters, forall and comprehension indices), found '%s'",
                           what, ns_elab_text_of(e, id, buf, sizeof buf));
        int64_t lo = ir->n[s.lo].v, hi = ir->n[s.hi].v;
        if (hi < lo)
            return 0;
        if ((uint64_t)hi - (uint64_t)lo >= (uint64_t)maxn)
            return ns_elab_fail_at(e, ns_elab_node(e, id)->off, "%s '%s' has %s values: expected at most %d", what, ns_elab_text_of(e, id, buf, sizeof buf),
                           (uint64_t)hi - (uint64_t)lo == UINT64_MAX ? "2^64" : "too many", maxn);
        int cnt = (int)((uint64_t)hi - (uint64_t)lo + 1);
        int64_t *v = malloc((size_t)cnt * sizeof *v);
        if (!v)
            return ns_elab_oom(e);
        for (int i = 0; i < cnt; i++)
            v[i] = lo + i;
        *vals = v;
        *n = cnt;
        return 0;
    }
    if (s.n > maxn)
        return ns_elab_fail_at(e, ns_elab_node(e, id)->off, "%s '%s' has %d values: expected at most %d", what, ns_elab_text_of(e, id, buf, sizeof buf), s.n, maxn);
    int64_t *v = malloc((size_t)(s.n ? s.n : 1) * sizeof *v);
    if (!v)
        return ns_elab_oom(e);
    for (int i = 0; i < s.n; i++) {
        int nd = e->prog->lists[s.list + i];
        if (!ns_ir_is_const(ir, nd)) {
            free(v);
            return ns_elab_fail_at(e, ns_elab_node(e, id)->off, "%s must be a constant set, found '%s'", what, ns_elab_text_of(e, id, buf, sizeof buf));
        }
        v[i] = ir->n[nd].v;
    }
    *vals = v;
    *n = s.n;
    return 0;
}

/* Expand tuples and comprehensions: call fn on every plain item. */
int ns_elab_expand(ns_elab *e, int id, ns_item_fn fn, void *u)
{
    const ns_ast *x = ns_elab_node(e, id);
    if (x->kind == AST_TUPLE) {
        for (int i = 0; i < x->nlist; i++)
            if (ns_elab_expand(e, e->ast->lists[x->list + i], fn, u))
                return -1;
        return 0;
    }
    if (x->kind != AST_COMP)
        return fn(e, id, u);
    int64_t *vals;
    int n;
    if (ns_elab_const_values(e, x->b, "the range of a comprehension index", &vals, &n, NS_RULES_MAX_EXPAND))
        return -1;
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        /* the index goes out of scope after the item, but variables the
         * item binds (for (t[i] in ... for i in ...)) stay: hide the index
         * instead of popping the stack */
        int pos = e->nsyms;
        ns_sym s = {.kind = SYM_INDEX, .name = x->name, .nlen = x->nlen, .off = x->name, .value = vals[i]};
        int keep = 1;
        rc = ns_elab_declare(e, &s);
        if (!rc && x->c >= 0) {
            /* the filter: a constant condition on the indices */
            int c = ns_elab_bool(e, x->c);
            if (c < 0) {
                rc = -1;
            } else if (!ns_ir_is_const(&e->prog->ir, c)) {
                char buf[64];
                rc = ns_elab_fail_at(e, ns_elab_node(e, x->c)->off,
                                     "the filter of a comprehension must be a constant condition (numbers, parameters, indices), found '%s'",
                                     ns_elab_text_of(e, x->c, buf, sizeof buf));
            } else {
                keep = e->prog->ir.n[c].v != 0;
            }
        }
        rc = rc || (keep && ns_elab_expand(e, x->a, fn, u));
        if (e->nsyms == pos + 1)
            e->nsyms = pos;
        else if (pos < e->nsyms)
            e->syms[pos].nlen = 0;
    }
    free(vals);
    return rc ? -1 : 0;
}

/* Balanced tree of op over ids[0..n) (n >= 1). */
static int reduce(ns_elab *e, const int *ids, int n, ns_ir_op op, uint32_t off)
{
    if (n == 1)
        return ids[0];
    int h = n / 2;
    int a = reduce(e, ids, h, op, off);
    if (a < 0)
        return -1;
    int b = reduce(e, ids + h, n - h, op, off);
    if (b < 0)
        return -1;
    return mk(e, op, a, b, 0, off);
}

typedef struct arg_ctx {
    ns_vtype t;
} arg_ctx;

static int arg_item(ns_elab *e, int id, void *u)
{
    const arg_ctx *c = u;
    ns_val v;
    if (ns_elab_val(e, id, &v) || want(e, id, &v, c->t))
        return -1;
    return ns_elab_push_tmp(e, v.node);
}

/* The slot of a pile reference (x or p[i]), or -1 when id is no pile (no
 * message unless report). */
int ns_elab_pile_slot(ns_elab *e, int id, int report)
{
    const ns_ast *x = ns_elab_node(e, id);
    char buf[64];
    if (x->kind == AST_NAME) {
        const ns_sym *s = ns_elab_lookup(e, x->name, x->nlen);
        if (s && s->kind == SYM_PILE)
            return s->slot;
        if (!s && report)
            return unknown_name(e, x->off, x->name, x->nlen);
    } else if (x->kind == AST_INDEX) {
        const ns_sym *s = ns_elab_lookup(e, x->name, x->nlen);
        if (s && s->kind == SYM_GROUP) {
            int64_t i;
            if (ns_elab_const(e, x->a, "the index of a pile", &i))
                return -1;
            if (i < s->glo || i > s->ghi)
                return ns_elab_fail_at(e, ns_elab_node(e, x->a)->off, "index %" PRId64 " is out of range: '%.*s' has indices %" PRId64 "..%" PRId64, i,
                               (int)x->nlen, e->src->text + x->name, s->glo, s->ghi);
            return s->slot + (int)(i - s->glo);
        }
        if (!s && report)
            return unknown_name(e, x->off, x->name, x->nlen);
    }
    if (report)
        return ns_elab_fail_at(e, x->off, "expected a pile (as in x or p[i]), found '%s'", ns_elab_text_of(e, id, buf, sizeof buf));
    return -1;
}

/* A call of a function defined with 'def': the arguments are elaborated
 * here, then the body with the argument names bound to them and every
 * other name but the parameters hidden (the function is inlined). */
static int el_user_call(ns_elab *e, int id, const ns_stmt *st, ns_val *out)
{
    const ns_ast *x = ns_elab_node(e, id);
    const int nl = (int)x->nlen;
    const char *t = e->src->text + x->name;
    if (x->nlist != st->nargs)
        return ns_elab_fail_at(e, x->off, "wrong arity: %.*s takes %d argument%s, found %d", nl, t, st->nargs, st->nargs == 1 ? "" : "s",
                               x->nlist);
    const int si = (int)(st - e->ast->stmts);
    for (int i = 0; i < e->ndef_active; i++)
        if (e->def_active[i] == si)
            return ns_elab_fail_at(e, x->off, "'%.*s' calls itself: functions cannot be recursive", nl, t);
    if (e->ndef_active >= NS_DEF_MAX_DEPTH)
        return ns_elab_fail_at(e, x->off, "functions call each other too deeply (more than %d levels)", NS_DEF_MAX_DEPTH);
    ns_sym args[NS_DEF_MAX_ARGS];
    char buf[64];
    for (int i = 0; i < st->nargs; i++) {
        int aid = e->ast->lists[x->list + i];
        ns_val v;
        if (ns_elab_val(e, aid, &v))
            return -1;
        if (v.t != V_INT && v.t != V_BOOL)
            return ns_elab_fail_at(e, ns_elab_node(e, aid)->off, "expected a number or a condition as an argument of %.*s, found %s '%s'", nl, t,
                                   ns_elab_type_name(v.t), ns_elab_text_of(e, aid, buf, sizeof buf));
        const ns_ast *an = ns_elab_node(e, e->ast->lists[st->args + i]);
        args[i] = (ns_sym){.kind = SYM_ARG, .name = an->name, .nlen = an->nlen, .off = an->off, .node = v.node, .is_bool = v.t == V_BOOL};
    }
    /* the body's scope: the arguments above everything else */
    const int mark = e->nsyms, floor = e->def_floor;
    const char *ctx = e->ctx;
    for (int i = 0; i < st->nargs; i++) {
        if (e->nsyms == e->capsyms) {
            int nc = e->capsyms ? e->capsyms * 2 : 64;
            ns_sym *n = realloc(e->syms, (size_t)nc * sizeof *n);
            if (!n)
                return ns_elab_oom(e);
            e->syms = n;
            e->capsyms = nc;
        }
        e->syms[e->nsyms++] = args[i];
    }
    e->def_floor = mark;
    e->def_active[e->ndef_active++] = si;
    e->ctx = "the body of a function (it may use its arguments and the parameters)";
    int rc = ns_elab_val(e, st->a, out);
    e->ndef_active--;
    e->def_floor = floor;
    e->nsyms = mark;
    e->ctx = ctx;
    if (rc)
        return -1;
    if (out->t != V_INT && out->t != V_BOOL)
        return ns_elab_fail_at(e, ns_elab_node(e, st->a)->off, "the body of %.*s must be a number or a condition, found %s", nl, t,
                               ns_elab_type_name(out->t));
    return 0;
}

static int el_call(ns_elab *e, int id, ns_val *out)
{
    const ns_ast *x = ns_elab_node(e, id);
    const char *t = e->src->text + x->name;
    int nl = (int)x->nlen;
    out->t = V_INT;
    if (span_is(e, x->name, x->nlen, "lex"))
        return ns_elab_fail_at(e, x->off, "lex(...) orders positions: it can only be the whole rank (as in 'rank lex(x, y)')");
    if (span_is(e, x->name, x->nlen, "size")) {
        if (x->nlist != 1 || ns_elab_node(e, e->ast->lists[x->list])->kind == AST_COMP)
            return ns_elab_fail_at(e, x->off, "size takes 1 argument (a pile), found %d", x->nlist);
        if (!e->sizes_ok)
            return ns_elab_fail_at(e, x->off, "size() cannot be used in %s", e->ctx);
        int slot = ns_elab_pile_slot(e, e->ast->lists[x->list], 1);
        if (slot < 0)
            return -1;
        out->node = mk(e, IR_SIZE, slot, -1, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    ns_ir_op op;
    ns_vtype argt = V_INT;
    int minargs = 0, maxargs = -1;
    if (span_is(e, x->name, x->nlen, "min") || span_is(e, x->name, x->nlen, "max")) {
        op = t[1] == 'i' ? IR_MIN : IR_MAX;
        minargs = 1;
    } else if (span_is(e, x->name, x->nlen, "abs")) {
        op = IR_ABS;
        minargs = maxargs = 1;
    } else if (span_is(e, x->name, x->nlen, "popcount")) {
        op = IR_POPCOUNT;
        minargs = maxargs = 1;
    } else if (span_is(e, x->name, x->nlen, "sum")) {
        op = IR_ADD;
    } else if (span_is(e, x->name, x->nlen, "count")) {
        op = IR_ADD;
        argt = V_BOOL;
    } else if (span_is(e, x->name, x->nlen, "all") || span_is(e, x->name, x->nlen, "any")) {
        op = t[1] == 'l' ? IR_AND : IR_OR;
        argt = V_BOOL;
        out->t = V_BOOL;
    } else {
        const ns_stmt *def = find_def(e, x->name, x->nlen);
        if (def)
            return el_user_call(e, id, def, out);
        const ns_sym *s = ns_elab_lookup(e, x->name, x->nlen);
        if (s)
            return ns_elab_fail_at(e, x->off, "'%.*s' is %s, not a function: expected min, max, abs, sum, count, all, any, size, popcount or a 'def'", nl, t,
                           sym_what(s->kind));
        return ns_elab_fail_at(e, x->off, "unknown function '%.*s': expected min, max, abs, sum, count, all, any, size, popcount or a 'def'", nl > 40 ? 40 : nl, t);
    }
    int base = e->ntmp;
    arg_ctx c = {argt};
    for (int i = 0; i < x->nlist; i++)
        if (ns_elab_expand(e, e->ast->lists[x->list + i], arg_item, &c)) {
            e->ntmp = base;
            return -1;
        }
    int n = e->ntmp - base;
    if (n < minargs || (maxargs >= 0 && n > maxargs)) {
        e->ntmp = base;
        if (maxargs == minargs)
            return ns_elab_fail_at(e, x->off, "wrong arity: %.*s takes %d argument%s, found %d", nl, t, minargs, minargs == 1 ? "" : "s", n);
        return ns_elab_fail_at(e, x->off, "wrong arity: %.*s takes at least %d argument%s, found %d", nl, t, minargs, minargs == 1 ? "" : "s", n);
    }
    if (op == IR_ABS || op == IR_POPCOUNT) {
        out->node = mk(e, op, e->tmp[base], -1, 0, x->off);
    } else if (n == 0) {
        out->node = mk_const(e, op == IR_AND ? 1 : 0, x->off);
    } else if (op == IR_ADD && argt == V_BOOL) {
        /* count: booleans are 0/1, so the count is their sum */
        out->node = reduce(e, e->tmp + base, n, IR_ADD, x->off);
    } else {
        out->node = reduce(e, e->tmp + base, n, op, x->off);
    }
    e->ntmp = base;
    return out->node < 0 ? -1 : 0;
}

static int el_name(ns_elab *e, int id, ns_val *out)
{
    const ns_ast *x = ns_elab_node(e, id);
    const ns_sym *s = ns_elab_lookup(e, x->name, x->nlen);
    if (!s)
        return unknown_name(e, x->off, x->name, x->nlen);
    out->t = V_INT;
    switch (s->kind) {
    case SYM_INDEX:
        out->node = mk_const(e, s->value, x->off);
        break;
    case SYM_PARAM: {
        const ns_param *p = &e->prog->params.p[s->param];
        if (!e->prog->pinfo[s->param].is_set) {
            out->node = mk_const(e, p->v[0], x->off);
            break;
        }
        int base = e->ntmp;
        for (int i = 0; i < p->n; i++) {
            int c = mk_const(e, p->v[i], x->off);
            if (c < 0 || ns_elab_push_tmp(e, c)) {
                e->ntmp = base;
                return -1;
            }
        }
        out->t = V_SET;
        out->range = 0;
        out->list = ns_elab_flush_tmp(e, base, &out->n);
        return out->list < 0 ? -1 : 0;
    }
    case SYM_PILE:
        if (!e->piles_ok)
            return ns_elab_fail_at(e, x->off, "pile '%.*s' cannot be used in %s", (int)x->nlen, e->src->text + x->name, e->ctx);
        out->node = mk(e, IR_PILE, s->slot, -1, 0, x->off);
        break;
    case SYM_GROUP:
        out->t = V_GROUP;
        out->group = (int)(s - e->syms);
        return 0;
    case SYM_ARG:
        out->t = s->is_bool ? V_BOOL : V_INT;
        out->node = s->node;
        break;
    default:
        if (s->has_sub)
            return ns_elab_fail_at(e, x->off, "'%.*s' is a family of variables: write %.*s[...] with an index", (int)x->nlen,
                           e->src->text + x->name, (int)x->nlen, e->src->text + x->name);
        out->node = mk(e, IR_VAR, s->slot, -1, 0, x->off);
        break;
    }
    return out->node < 0 ? -1 : 0;
}

static int el_index(ns_elab *e, int id, ns_val *out)
{
    const ns_ast *x = ns_elab_node(e, id);
    const ns_sym *s = ns_elab_lookup(e, x->name, x->nlen);
    if (!s)
        return unknown_name(e, x->off, x->name, x->nlen);
    out->t = V_INT;
    if (s->kind == SYM_GROUP) {
        if (!e->piles_ok)
            return ns_elab_fail_at(e, x->off, "pile '%.*s[...]' cannot be used in %s", (int)x->nlen, e->src->text + x->name, e->ctx);
        int slot = ns_elab_pile_slot(e, id, 1);
        if (slot < 0)
            return -1;
        out->node = mk(e, IR_PILE, slot, -1, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    if (s->kind == SYM_VAR && s->has_sub) {
        int64_t i;
        if (ns_elab_const(e, x->a, "the index of a bound variable", &i))
            return -1;
        const ns_sym *v = lookup_sub(e, x->name, x->nlen, i);
        if (!v)
            return ns_elab_fail_at(e, x->off, "'%.*s[%" PRId64 "]' is not bound here", (int)x->nlen, e->src->text + x->name, i);
        out->node = mk(e, IR_VAR, v->slot, -1, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    return ns_elab_fail_at(e, x->off, "'%.*s' is %s and cannot be indexed: only pile groups p[1..k] and variables bound as t[i] take [ ]",
                   (int)x->nlen, e->src->text + x->name, sym_what(s->kind));
}

static int el_in(ns_elab *e, int id, ns_val *out)
{
    const ns_ast *x = ns_elab_node(e, id);
    int a = ns_elab_int(e, x->a);
    if (a < 0)
        return -1;
    ns_val s;
    if (ns_elab_set(e, x->b, &s))
        return -1;
    out->t = V_BOOL;
    if (s.range) {
        int l = mk(e, IR_LE, s.lo, a, 0, x->off);
        int h = l < 0 ? -1 : mk(e, IR_LE, a, s.hi, 0, x->off);
        out->node = h < 0 ? -1 : mk(e, IR_AND, l, h, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    if (s.n == 0) {
        out->node = mk_const(e, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    int base = e->ntmp;
    for (int i = 0; i < s.n; i++) {
        int c = mk(e, IR_EQ, a, e->prog->lists[s.list + i], 0, x->off);
        if (c < 0 || ns_elab_push_tmp(e, c)) {
            e->ntmp = base;
            return -1;
        }
    }
    out->node = reduce(e, e->tmp + base, s.n, IR_OR, x->off);
    e->ntmp = base;
    return out->node < 0 ? -1 : 0;
}

int ns_elab_val(ns_elab *e, int id, ns_val *out)
{
    const ns_ast *x = ns_elab_node(e, id);
    memset(out, 0, sizeof *out);
    out->t = V_INT;
    char buf[64];
    switch (x->kind) {
    case AST_NUM:
        out->node = mk_const(e, x->num, x->off);
        return out->node < 0 ? -1 : 0;
    case AST_NAME:
        return el_name(e, id, out);
    case AST_INDEX:
        return el_index(e, id, out);
    case AST_CALL:
        return el_call(e, id, out);
    case AST_NEG: {
        int a = ns_elab_int(e, x->a);
        out->node = a < 0 ? -1 : mk(e, IR_NEG, a, -1, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    case AST_NOT: {
        int a = ns_elab_bool(e, x->a);
        out->t = V_BOOL;
        out->node = a < 0 ? -1 : mk(e, IR_NOT, a, -1, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    case AST_ADD:
    case AST_SUB:
    case AST_MUL:
    case AST_DIV:
    case AST_MOD:
    case AST_BAND:
    case AST_BOR:
    case AST_BXOR:
    case AST_SHL:
    case AST_SHR:
    case AST_POW: {
        ns_ir_op op = x->kind == AST_ADD ? IR_ADD : x->kind == AST_SUB ? IR_SUB : x->kind == AST_MUL ? IR_MUL
                    : x->kind == AST_DIV ? IR_DIV : x->kind == AST_MOD ? IR_MOD : x->kind == AST_BAND ? IR_BAND
                    : x->kind == AST_BOR ? IR_BOR : x->kind == AST_BXOR ? IR_BXOR : x->kind == AST_SHL ? IR_SHL
                    : x->kind == AST_SHR ? IR_SHR : IR_POW;
        int a = ns_elab_int(e, x->a);
        int b = a < 0 ? -1 : ns_elab_int(e, x->b);
        /* the position of an arithmetic node is its operator's: the end of a */
        uint32_t opoff = ns_elab_node(e, x->a)->end;
        while (opoff < x->end && (e->src->text[opoff] == ' ' || e->src->text[opoff] == '\t' || e->src->text[opoff] == '\n' ||
                                  e->src->text[opoff] == '\r' || e->src->text[opoff] == ')'))
            opoff++;
        out->node = b < 0 ? -1 : mk(e, op, a, b, 0, opoff);
        return out->node < 0 ? -1 : 0;
    }
    case AST_LT:
    case AST_LE:
    case AST_GT:
    case AST_GE:
    case AST_EQ:
    case AST_NE: {
        static const ns_ir_op ops[] = {IR_LT, IR_LE, IR_GT, IR_GE, IR_EQ, IR_NE};
        ns_val a, b;
        if (ns_elab_val(e, x->a, &a) || ns_elab_val(e, x->b, &b))
            return -1;
        int eq = x->kind == AST_EQ || x->kind == AST_NE;
        if (!(a.t == V_INT && b.t == V_INT) && !(eq && a.t == V_BOOL && b.t == V_BOOL)) {
            int bad = a.t != V_INT ? x->a : x->b;
            const ns_val *bv = a.t != V_INT ? &a : &b;
            return ns_elab_fail_at(e, ns_elab_node(e, bad)->off, "expected a number in the comparison, found %s '%s'", ns_elab_type_name(bv->t),
                           ns_elab_text_of(e, bad, buf, sizeof buf));
        }
        out->t = V_BOOL;
        out->node = mk(e, ops[x->kind - AST_LT], a.node, b.node, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    case AST_AND:
    case AST_OR: {
        int a = ns_elab_bool(e, x->a);
        int b = a < 0 ? -1 : ns_elab_bool(e, x->b);
        out->t = V_BOOL;
        out->node = b < 0 ? -1 : mk(e, x->kind == AST_AND ? IR_AND : IR_OR, a, b, 0, x->off);
        return out->node < 0 ? -1 : 0;
    }
    case AST_IN:
        return el_in(e, id, out);
    case AST_RANGE: {
        int a = ns_elab_int(e, x->a);
        int b = a < 0 ? -1 : ns_elab_int(e, x->b);
        if (b < 0)
            return -1;
        out->t = V_SET;
        out->range = 1;
        out->lo = a;
        out->hi = b;
        return 0;
    }
    case AST_SET: {
        int base = e->ntmp;
        arg_ctx c = {V_INT};
        for (int i = 0; i < x->nlist; i++)
            if (ns_elab_expand(e, e->ast->lists[x->list + i], arg_item, &c)) {
                e->ntmp = base;
                return -1;
            }
        /* a set holds each constant once: {t mod 3 for t in 1..9} = {0, 1, 2} */
        int kept = base;
        for (int i = base; i < e->ntmp; i++) {
            const ns_ir *xi = &e->prog->ir.n[e->tmp[i]];
            int dup = 0;
            for (int j = base; j < kept && xi->op == IR_CONST && !dup; j++)
                dup = e->prog->ir.n[e->tmp[j]].op == IR_CONST && e->prog->ir.n[e->tmp[j]].v == xi->v;
            if (!dup)
                e->tmp[kept++] = e->tmp[i];
        }
        e->ntmp = kept;
        out->t = V_SET;
        out->range = 0;
        out->list = ns_elab_flush_tmp(e, base, &out->n);
        return out->list < 0 ? -1 : 0;
    }
    case AST_TUPLE:
        return ns_elab_fail_at(e, x->off, "a tuple such as '%s' can only stand on either side of '->'", ns_elab_text_of(e, id, buf, sizeof buf));
    default:
        return ns_elab_fail_at(e, x->off, "a comprehension such as '%s' can only be an argument of min, max, sum, count, all or any, a tuple item or a binding",
                       ns_elab_text_of(e, id, buf, sizeof buf));
    }
}

/* Split a condition at 'and' into tmp. */
int ns_elab_split_and(ns_elab *e, int n)
{
    const ns_ir *x = &e->prog->ir.n[n];
    if (x->op == IR_AND)
        return ns_elab_split_and(e, x->a) || ns_elab_split_and(e, x->b) ? -1 : 0;
    return ns_elab_push_tmp(e, n);
}

/* ---------- functions ---------- */

int ns_elab_defs(ns_elab *e)
{
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        if (st->kind != ST_DEF)
            continue;
        const char *nm = e->src->text + st->name;
        if (is_builtin(e, st->name, st->nlen))
            return ns_elab_fail_at(e, st->name, "'%.*s' is a built-in function: choose another name", (int)st->nlen, nm);
        const ns_stmt *first = find_def(e, st->name, st->nlen);
        if (first != st) {
            char at[32];
            ns_elab_where_of(e, first->name, at, sizeof at);
            return ns_elab_fail_at(e, st->name, "duplicate function '%.*s': already defined at %s", (int)st->nlen, nm, at);
        }
        if (st->nargs > NS_DEF_MAX_ARGS)
            return ns_elab_fail_at(e, st->name, "too many arguments: '%.*s' has %d (at most %d)", (int)st->nlen, nm, st->nargs, NS_DEF_MAX_ARGS);
        for (int i = 0; i < st->nargs; i++) {
            const ns_ast *a = ns_elab_node(e, e->ast->lists[st->args + i]);
            const char *an = e->src->text + a->name;
            if (is_builtin(e, a->name, a->nlen) || find_def(e, a->name, a->nlen))
                return ns_elab_fail_at(e, a->off, "'%.*s' is a function: choose another name for the argument", (int)a->nlen, an);
            for (int j = 0; j < i; j++) {
                const ns_ast *b = ns_elab_node(e, e->ast->lists[st->args + j]);
                if (span_eq(e, a->name, a->nlen, b->name, b->nlen))
                    return ns_elab_fail_at(e, a->off, "duplicate argument '%.*s'", (int)a->nlen, an);
            }
            for (int sj = 0; sj < e->ast->nstmts; sj++) {
                const ns_stmt *p = &e->ast->stmts[sj];
                if (p->kind == ST_PARAM && span_eq(e, p->name, p->nlen, a->name, a->nlen))
                    return ns_elab_fail_at(e, a->off, "argument '%.*s' has the name of a parameter: choose another name", (int)a->nlen, an);
            }
        }
        /* names of parameters and piles are checked when they are declared */
    }
    return 0;
}

/* 'rank lex(...)': the components, pushed on the scratch stack */
static int lex_item(ns_elab *e, int id, void *u)
{
    (void)u;
    int n = ns_elab_int(e, id);
    return n < 0 ? -1 : ns_elab_push_tmp(e, n);
}

int ns_elab_lex(ns_elab *e, int id)
{
    const ns_ast *x = ns_elab_node(e, id);
    int base = e->ntmp;
    for (int i = 0; i < x->nlist; i++)
        if (ns_elab_expand(e, e->ast->lists[x->list + i], lex_item, NULL)) {
            e->ntmp = base;
            return -1;
        }
    int n = e->ntmp - base;
    if (n < 1 || n > NS_MAX_DIM) {
        e->ntmp = base;
        return ns_elab_fail_at(e, x->off, "lex takes 1 to %d components (as in 'rank lex(x, y)'), found %d", NS_MAX_DIM, n);
    }
    e->prog->rank_lex = ns_elab_flush_tmp(e, base, &e->prog->nrank_lex);
    return e->prog->rank_lex < 0 ? -1 : 0;
}

/* non-zero when id is a call of lex(...) */
int ns_elab_is_lex(const ns_elab *e, int id)
{
    const ns_ast *x = ns_elab_node(e, id);
    return x->kind == AST_CALL && span_is(e, x->name, x->nlen, "lex");
}

int ns_elab_index_only(ns_elab *e, int id)
{
    const ns_ast *x = ns_elab_node(e, id);
    switch (x->kind) {
    case AST_NUM:
        return 1;
    case AST_NAME: {
        const ns_sym *s = ns_elab_lookup(e, x->name, x->nlen);
        return s && (s->kind == SYM_INDEX || s->kind == SYM_PARAM);
    }
    case AST_INDEX:
    case AST_COMP:
    case AST_TUPLE:
        return 0;
    case AST_CALL:
        if (span_is(e, x->name, x->nlen, "size"))
            return 0;
        break;
    default:
        break;
    }
    if (x->a >= 0 && !ns_elab_index_only(e, x->a))
        return 0;
    if (x->b >= 0 && !ns_elab_index_only(e, x->b))
        return 0;
    for (int i = 0; i < x->nlist; i++)
        if (!ns_elab_index_only(e, e->ast->lists[x->list + i]))
            return 0;
    return 1;
}
