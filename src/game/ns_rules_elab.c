/* ns_rules_elab.c - the statements: parameters, requirements, piles, play,
 * rank, domain and moves, with forall expansion (ns_rules_elab.h; the
 * expressions are in ns_rules_expr.c).
 *
 * Statements are taken in phases, so their order in the file matters only
 * within a kind: parameters (each default may use earlier parameters),
 * requirements, piles, play and title, rank, domain, moves. */
#include "game/ns_rules_elab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_rules_expr.h"

/* ---------- parameters ---------- */

static int el_params(ns_elab *e, const ns_params *ps)
{
    ns_rules_prog *p = e->prog;
    e->piles_ok = 0;
    e->sizes_ok = 0;
    e->ctx = "a parameter's default";
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        if (st->kind != ST_PARAM)
            continue;
        if (st->nlen >= NS_PARAM_NAME_LEN)
            return ns_elab_fail_at(e, st->name, "parameter name '%.*s...' is too long: expected at most %d characters", 31,
                           e->src->text + st->name, NS_PARAM_NAME_LEN - 1);
        if (p->params.n >= NS_PARAMS_MAX)
            return ns_elab_fail_at(e, st->off, "too many parameters: expected at most %d", NS_PARAMS_MAX);
        ns_val v;
        if (ns_elab_val(e, st->a, &v))
            return -1;
        int64_t vals[NS_PARAM_MAX_VALUES];
        int n = 0, is_set = 0;
        char buf[64];
        if (v.t == V_INT) {
            vals[0] = p->ir.n[v.node].v;
            n = 1;
        } else if (v.t == V_SET) {
            int64_t *cv;
            is_set = 1;
            if (ns_elab_const_values(e, st->a, "a set parameter", &cv, &n, NS_PARAM_MAX_VALUES))
                return -1;
            if (n)
                memcpy(vals, cv, (size_t)n * sizeof *vals);
            free(cv);
            if (n == 0)
                return ns_elab_fail_at(e, ns_elab_node(e, st->a)->off, "the set parameter '%.*s' is empty: expected at least one value", (int)st->nlen,
                               e->src->text + st->name);
        } else {
            return ns_elab_fail_at(e, ns_elab_node(e, st->a)->off, "expected a number or a set of numbers as the default, found %s '%s'",
                           ns_elab_type_name(v.t), ns_elab_text_of(e, st->a, buf, sizeof buf));
        }
        char name[NS_PARAM_NAME_LEN];
        memcpy(name, e->src->text + st->name, st->nlen);
        name[st->nlen] = '\0';
        int overridden = 0;
        const ns_param *o = ps ? ns_params_get(ps, name) : NULL;
        if (o) {
            if (o->n == 0)
                return ns_elab_fail_at(e, st->name, "parameter '%s' takes %s but -D gave the code '%s'", name,
                                       is_set ? "integers" : "an integer", o->text);
            if (!is_set && o->n != 1)
                return ns_elab_fail_at(e, st->name, "parameter '%s' is a single integer but -D gave a list of %d values", name, o->n);
            memcpy(vals, o->v, (size_t)o->n * sizeof *vals);
            n = o->n;
            overridden = 1;
        }
        ns_sym s = {.kind = SYM_PARAM, .name = st->name, .nlen = st->nlen, .off = st->name, .param = p->params.n};
        if (ns_elab_declare(e, &s))
            return -1;
        ns_error perr = {0};
        if (ns_params_set(&p->params, name, vals, n, &perr))
            return ns_elab_fail_at(e, st->name, "%s", perr.msg);
        ns_rparam *ri = &p->pinfo[p->params.n - 1];
        snprintf(ri->name, sizeof ri->name, "%s", name);
        ri->off = st->name;
        ri->is_set = is_set;
        ri->overridden = overridden;
    }
    /* every -D must name a declared parameter */
    for (int i = 0; ps && i < ps->n; i++) {
        if (ns_params_get(&p->params, ps->p[i].name))
            continue;
        char known[256] = "";
        size_t used = 0;
        for (int j = 0; j < p->params.n && used < sizeof known; j++) {
            int w = snprintf(known + used, sizeof known - used, "%s%s", j ? ", " : "", p->params.p[j].name);
            if (w > 0)
                used += (size_t)w;
        }
        if (e->rc)
            return -1;
        e->rc = ns_error_set(e->err, NS_EINVAL, "%s: -D %s: the rules declare no parameter '%s' (%s%s)", e->src->fname, ps->p[i].name,
                             ps->p[i].name, p->params.n ? "declared: " : "they declare none", known);
        return -1;
    }
    return 0;
}

static int el_requires(ns_elab *e)
{
    e->piles_ok = 0;
    e->sizes_ok = 0;
    e->ctx = "'require' (it may only use parameters)";
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        if (st->kind != ST_REQUIRE)
            continue;
        int c = ns_elab_bool(e, st->a);
        if (c < 0)
            return -1;
        if (e->prog->ir.n[c].v == 0) {
            char buf[96], ps[256];
            ns_params_format(&e->prog->params, ps, sizeof ps);
            return ns_elab_fail_at(e, ns_elab_node(e, st->a)->off, "requirement '%s' does not hold (parameters: %s)", ns_elab_text_of(e, st->a, buf, sizeof buf),
                           ps[0] ? ps : "none");
        }
    }
    return 0;
}

/* ---------- piles ---------- */

static int el_piles(ns_elab *e, int k_hint)
{
    ns_rules_prog *p = e->prog;
    const ns_stmt *pst = NULL;
    e->piles_ok = 0;
    e->sizes_ok = 0;
    e->ctx = "the declaration of the piles";
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        if (st->kind != ST_PILES && st->kind != ST_HEAP)
            continue;
        if (pst) {
            char at[32];
            ns_elab_where_of(e, pst->off, at, sizeof at);
            return ns_elab_fail_at(e, st->off, "a second '%s' statement: the %s declared at %s",
                                   st->kind == ST_HEAP ? "heap" : "piles",
                                   pst->kind == ST_HEAP ? "heap was" : "piles were", at);
        }
        pst = st;
    }
    if (pst && pst->kind == ST_HEAP) { /* one heap: a name */
        const ns_ast *x = pst->npiles == 1 ? ns_elab_node(e, e->ast->lists[pst->piles]) : NULL;
        if (!x || x->kind != AST_NAME)
            return ns_elab_fail_at(e, pst->off, "'heap' declares one heap by its name, as in 'heap n'");
        p->heap = 1;
        p->heap_off = pst->off;
    }
    if (!pst)
        return ns_elab_fail_at(e, (uint32_t)e->src->len, "no 'piles' statement: expected one, as in 'piles x y' or 'piles p[1..k]'");
    int k = 0;
    int groups = 0, retry_group = -1;
    for (int i = 0; i < pst->npiles; i++) {
        int id = e->ast->lists[pst->piles + i];
        const ns_ast *x = ns_elab_node(e, id);
        if (x->kind == AST_NAME) {
            if (k >= NS_MAX_DIM)
                return ns_elab_fail_at(e, x->off, "too many piles: more than %d", NS_MAX_DIM);
            ns_sym s = {.kind = SYM_PILE, .name = x->name, .nlen = x->nlen, .off = x->off, .slot = k};
            if (ns_elab_declare(e, &s))
                return -1;
            snprintf(p->pile_names[k], sizeof p->pile_names[k], "%.*s", (int)(x->nlen > 31 ? 31 : x->nlen), e->src->text + x->name);
            k++;
            continue;
        }
        const ns_ast *r = ns_elab_node(e, x->a);
        if (r->kind != AST_RANGE) {
            char buf[64];
            return ns_elab_fail_at(e, r->off, "expected the index range of the group (as in p[1..k]), found '%s'", ns_elab_text_of(e, x->a, buf, sizeof buf));
        }
        int64_t lo, hi;
        if (ns_elab_const(e, r->a, "the first index of a pile group", &lo) || ns_elab_const(e, r->b, "the last index of a pile group", &hi))
            return -1;
        groups++;
        if (ns_elab_node(e, r->b)->kind == AST_NAME) {
            const ns_sym *ps = ns_elab_lookup(e, ns_elab_node(e, r->b)->name, ns_elab_node(e, r->b)->nlen);
            if (ps && ps->kind == SYM_PARAM && !p->pinfo[ps->param].overridden && !p->pinfo[ps->param].is_set)
                retry_group = ps->param;
        }
        if (hi < lo)
            return ns_elab_fail_at(e, x->off, "the pile group '%.*s[%" PRId64 "..%" PRId64 "]' is empty: expected at least one pile", (int)x->nlen,
                           e->src->text + x->name, lo, hi);
        uint64_t cnt = (uint64_t)hi - (uint64_t)lo + 1;
        if (cnt == 0 || cnt > (uint64_t)(NS_MAX_DIM - k))
            return ns_elab_fail_at(e, x->off, "too many piles: '%.*s[%" PRId64 "..%" PRId64 "]' makes %s%" PRIu64 " (at most %d)", (int)x->nlen,
                           e->src->text + x->name, lo, hi, k ? "more than " : "", k ? cnt : cnt, NS_MAX_DIM);
        ns_sym s = {.kind = SYM_GROUP, .name = x->name, .nlen = x->nlen, .off = x->off, .slot = k, .glo = lo, .ghi = hi};
        if (ns_elab_declare(e, &s))
            return -1;
        for (uint64_t j = 0; j < cnt; j++) {
            snprintf(p->pile_names[k], sizeof p->pile_names[k], "%.*s[%" PRId64 "]", (int)(x->nlen > 20 ? 20 : x->nlen), e->src->text + x->name,
                     lo + (int64_t)j);
            k++;
        }
    }
    p->k = k;
    if (k_hint > 0 && k != k_hint) {
        if (groups == 1 && retry_group >= 0 && e->retry_param == -2) {
            /* the pile count is a parameter left to the bounds: ask for a retry */
            e->retry_param = retry_group;
            e->retry_value = p->params.p[retry_group].v[0] + (k_hint - k);
            return -1;
        }
        return ns_elab_fail_at(e, pst->off, "the rules declare %d pile%s but %d bounds were given", k, k == 1 ? "" : "s", k_hint);
    }
    return 0;
}

/* ---------- game, play, rank ---------- */

static int el_heading(ns_elab *e)
{
    ns_rules_prog *p = e->prog;
    const ns_stmt *seen_game = NULL, *seen_play = NULL, *seen_rank = NULL;
    p->rank = -1;
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        if (st->kind == ST_OUTSIDE) {
            p->outside_forbid = 1;
            continue;
        }
        const ns_stmt **seen = st->kind == ST_GAME ? &seen_game : st->kind == ST_PLAY ? &seen_play : st->kind == ST_RANK ? &seen_rank : NULL;
        if (!seen)
            continue;
        if (*seen) {
            char at[32];
            ns_elab_where_of(e, (*seen)->off, at, sizeof at);
            return ns_elab_fail_at(e, st->off, "a second '%s' statement: the first one is at %s",
                           st->kind == ST_GAME ? "game" : st->kind == ST_PLAY ? "play" : "rank", at);
        }
        *seen = st;
        if (st->kind == ST_GAME) {
            snprintf(p->title, sizeof p->title, "%.*s", (int)(st->nlen > NS_NAME_LEN - 1 ? NS_NAME_LEN - 1 : st->nlen), e->src->text + st->name);
        } else if (st->kind == ST_PLAY) {
            p->misere = st->misere;
        } else {
            e->piles_ok = 1;
            e->sizes_ok = 0;
            e->ctx = "the rank (it must be a fixed weighted sum of the piles)";
            if (ns_elab_is_lex(e, st->a)) {
                if (ns_elab_lex(e, st->a))
                    return -1;
            } else if ((p->rank = ns_elab_int(e, st->a)) < 0) {
                return -1;
            }
            p->rank_off = ns_elab_node(e, st->a)->off;
            p->rank_end = ns_elab_node(e, st->a)->end;
        }
    }
    return 0;
}

/* ---------- forall ---------- */

typedef int (*body_fn)(ns_elab *e, const ns_stmt *st, const char *label);

/* The filter of a forall: 1 when it rejects the current assignment of the
 * indices, 0 when it keeps it, -1 on error. A domain's 'where' must read
 * only indices and parameters; a move's 'where' conditions that do are its
 * filter (the others are conditions on the moves, see move_body). */
static int filtered_out(ns_elab *e, const ns_stmt *st)
{
    const int piles_ok = e->piles_ok, sizes_ok = e->sizes_ok;
    const char *ctx = e->ctx;
    int out = 0;
    for (int i = 0; i < st->nwheres && !out; i++) {
        int w = e->ast->lists[st->wheres + i];
        if (st->kind != ST_DOMAIN && !ns_elab_index_only(e, w))
            continue;
        e->piles_ok = e->sizes_ok = 0;
        e->ctx = "the filter of 'forall' (it may use the indices and the parameters)";
        int c = ns_elab_bool(e, w);
        e->piles_ok = piles_ok;
        e->sizes_ok = sizes_ok;
        e->ctx = ctx;
        if (c < 0)
            return -1;
        if (!ns_ir_is_const(&e->prog->ir, c)) {
            char buf[64];
            return ns_elab_fail_at(e, ns_elab_node(e, w)->off, "the filter of 'forall' must be a constant condition on its indices, found '%s'",
                                   ns_elab_text_of(e, w, buf, sizeof buf));
        }
        out = e->prog->ir.n[c].v == 0;
    }
    return out;
}

static int forall_rec(ns_elab *e, const ns_stmt *st, int i, char *label, size_t llen, body_fn body)
{
    if (i == st->nforalls) {
        int out = filtered_out(e, st);
        if (out < 0)
            return -1;
        if (out) {
            e->prog->ndropped += st->kind == ST_MOVE;
            return 0;
        }
        return body(e, st, label);
    }
    int id = e->ast->lists[st->foralls + i];
    const ns_ast *x = ns_elab_node(e, id);
    char buf[64];
    if (x->kind != AST_IN || ns_elab_node(e, x->a)->kind != AST_NAME)
        return ns_elab_fail_at(e, x->off, "expected 'name in range' after 'forall' (as in 'forall i in 1..k'), found '%s'", ns_elab_text_of(e, id, buf, sizeof buf));
    const ns_ast *nm = ns_elab_node(e, x->a);
    int64_t *vals;
    int n;
    e->piles_ok = 0;
    e->ctx = "the range of a 'forall' index";
    if (ns_elab_const_values(e, x->b, "the range of a 'forall' index", &vals, &n, NS_RULES_MAX_EXPAND))
        return -1;
    int mark = e->nsyms;
    size_t used = strlen(label);
    int rc = 0;
    for (int j = 0; j < n && !rc; j++) {
        ns_sym s = {.kind = SYM_INDEX, .name = nm->name, .nlen = nm->nlen, .off = nm->off, .value = vals[j]};
        snprintf(label + used, llen - used, "%s%.*s=%" PRId64, used ? ", " : "", (int)(nm->nlen > 12 ? 12 : nm->nlen),
                 e->src->text + nm->name, vals[j]);
        rc = ns_elab_declare(e, &s) || forall_rec(e, st, i + 1, label, llen, body);
        e->nsyms = mark;
        label[used] = '\0';
    }
    free(vals);
    return rc ? -1 : 0;
}

/* ---------- domain ---------- */

static int domain_body(ns_elab *e, const ns_stmt *st, const char *label)
{
    (void)label;
    if (st->filter != e->dom_filter)
        return 0; /* plain domains first, then the filters */
    e->piles_ok = 1;
    e->sizes_ok = 1;
    e->ctx = "the domain";
    int c = ns_elab_bool(e, st->a);
    if (c < 0)
        return -1;
    int base = e->ntmp;
    if (ns_elab_split_and(e, c)) {
        e->ntmp = base;
        return -1;
    }
    for (int i = base; i < e->ntmp; i++) {
        const ns_ir *x = &e->prog->ir.n[e->tmp[i]];
        if (x->op == IR_CONST) {
            if (x->v)
                continue;
            char buf[64];
            e->ntmp = base;
            return ns_elab_fail_at(e, ns_elab_node(e, st->a)->off, "the domain condition '%s' is never true: no position would be left", ns_elab_text_of(e, st->a, buf, sizeof buf));
        }
        if (e->ndom == e->capdom) {
            int nc = e->capdom ? e->capdom * 2 : 16;
            int *d = realloc(e->dom, (size_t)nc * sizeof *d);
            if (!d) {
                e->ntmp = base;
                return ns_elab_oom(e);
            }
            e->dom = d;
            e->capdom = nc;
        }
        e->dom[e->ndom++] = e->tmp[i];
    }
    e->ntmp = base;
    return 0;
}

/* ---------- moves ---------- */

static int bind_item(ns_elab *e, int id, void *u)
{
    (void)u;
    ns_rfam *f = e->fam;
    const ns_ast *x = ns_elab_node(e, id);
    char buf[64];
    if (x->kind != AST_IN || (ns_elab_node(e, x->a)->kind != AST_NAME && ns_elab_node(e, x->a)->kind != AST_INDEX))
        return ns_elab_fail_at(e, x->off, "expected a binding 'name in range' (as in 'for t in 1..x'), found '%s'", ns_elab_text_of(e, id, buf, sizeof buf));
    if (f->nvars >= NS_RULES_MAX_VARS)
        return ns_elab_fail_at(e, x->off, "too many bound variables: at most %d per move", NS_RULES_MAX_VARS);
    const ns_ast *t = ns_elab_node(e, x->a);
    ns_sym s = {.kind = SYM_VAR, .name = t->name, .nlen = t->nlen, .off = t->off, .slot = f->nvars};
    if (t->kind == AST_INDEX) {
        s.has_sub = 1;
        if (ns_elab_const(e, t->a, "the index of a bound variable", &s.sub))
            return -1;
    }
    ns_val set;
    e->ctx = "a move";
    if (ns_elab_set(e, x->b, &set))
        return -1;
    ns_rvar *v = &f->var[f->nvars];
    memset(v, 0, sizeof *v);
    v->off = t->off;
    if (s.has_sub)
        snprintf(v->name, sizeof v->name, "%.*s[%" PRId64 "]", (int)(t->nlen > 12 ? 12 : t->nlen), e->src->text + t->name, s.sub);
    else
        snprintf(v->name, sizeof v->name, "%.*s", (int)(t->nlen > 23 ? 23 : t->nlen), e->src->text + t->name);
    if (set.range) {
        v->kind = RV_RANGE;
        v->lo = set.lo;
        v->hi = set.hi;
    } else {
        v->kind = RV_LIST;
        v->list = set.list;
        v->n = set.n;
    }
    if (ns_elab_declare(e, &s))
        return -1;
    f->nvars++;
    return 0;
}

static int lhs_item(ns_elab *e, int id, void *u)
{
    (void)u;
    const ns_ast *x = ns_elab_node(e, id);
    if (x->kind == AST_NAME) {
        const ns_sym *s = ns_elab_lookup(e, x->name, x->nlen);
        if (s && s->kind == SYM_GROUP) {
            for (int64_t i = 0; i <= s->ghi - s->glo; i++)
                if (ns_elab_push_tmp(e, s->slot + (int)i))
                    return -1;
            return 0;
        }
    }
    int slot = ns_elab_pile_slot(e, id, 1);
    if (slot < 0)
        return -1;
    for (int i = 0; i < e->ntmp; i++)
        if (e->tmp[i] == slot)
            return ns_elab_fail_at(e, x->off, "pile '%s' appears twice on the left of '->'", e->prog->pile_names[slot]);
    return ns_elab_push_tmp(e, slot);
}

static int rhs_item(ns_elab *e, int id, void *u)
{
    (void)u;
    int n = ns_elab_int(e, id);
    return n < 0 ? -1 : ns_elab_push_tmp(e, n);
}

static int move_body(ns_elab *e, const ns_stmt *st, const char *label)
{
    ns_rules_prog *p = e->prog;
    ns_rfam f;
    memset(&f, 0, sizeof f);
    f.off = st->off;
    f.end = st->end;
    snprintf(f.idx, sizeof f.idx, "%s", label);
    e->fam = &f;
    e->piles_ok = 1;
    e->sizes_ok = 1;
    e->ctx = "a move";
    int mark = e->nsyms;
    int base = e->ntmp;
    int rc = -1;
    for (int i = 0; i < st->nbinds; i++)
        if (ns_elab_expand(e, e->ast->lists[st->binds + i], bind_item, NULL))
            goto done;
    /* conditions, split at 'and'; constant ones decide at once */
    int dropped = 0;
    for (int i = 0; i < st->nwheres; i++) {
        int c = ns_elab_bool(e, e->ast->lists[st->wheres + i]);
        if (c < 0 || ns_elab_split_and(e, c))
            goto done;
    }
    int nc = 0;
    for (int i = base; i < e->ntmp; i++) {
        const ns_ir *x = &p->ir.n[e->tmp[i]];
        if (x->op == IR_CONST) {
            dropped |= x->v == 0;
            continue;
        }
        e->tmp[base + nc++] = e->tmp[i];
    }
    e->ntmp = base + nc;
    f.conj = ns_elab_flush_tmp(e, base, &f.nconj);
    if (f.conj < 0)
        goto done;
    /* the piles that change, and their new values */
    if (ns_elab_expand(e, st->a, lhs_item, NULL))
        goto done;
    int nl = e->ntmp - base;
    for (int i = 0; i < nl; i++)
        f.out_slot[i] = e->tmp[base + i];
    e->ntmp = base;
    if (ns_elab_expand(e, st->b, rhs_item, NULL))
        goto done;
    int nr = e->ntmp - base;
    if (p->heap && nl == 1 && (nr < 1 || nr > NS_MAX_DIM)) {
        ns_elab_fail_at(e, ns_elab_node(e, st->b)->off, "a move of a heap game leaves 1 to %d heaps, found %d", NS_MAX_DIM, nr);
        goto done;
    }
    if (nr != nl && !p->heap) {
        ns_elab_fail_at(e, ns_elab_node(e, st->b)->off, "wrong arity: %d pile%s on the left of '->' but %d value%s on the right", nl, nl == 1 ? "" : "s", nr,
                nr == 1 ? "" : "s");
        goto done;
    }
    for (int i = 0; i < nr; i++)
        f.out_expr[i] = e->tmp[base + i];
    f.nout = p->heap ? nr : nl;
    if (dropped) {
        p->ndropped++;
        rc = 0;
        goto done;
    }
    if (p->nfam >= NS_RULES_MAX_FAMILIES) {
        ns_elab_fail_at(e, st->off, "too many move families once 'forall' is expanded: expected at most %d", NS_RULES_MAX_FAMILIES);
        goto done;
    }
    if (p->nfam == p->capfam) {
        int cap = p->capfam ? p->capfam * 2 : 8;
        ns_rfam *nf = realloc(p->fam, (size_t)cap * sizeof *nf);
        if (!nf) {
            ns_elab_oom(e);
            goto done;
        }
        p->fam = nf;
        p->capfam = cap;
    }
    p->fam[p->nfam++] = f;
    rc = 0;
done:
    e->ntmp = base;
    e->nsyms = mark;
    e->fam = NULL;
    return rc;
}

static int el_stmts(ns_elab *e, ns_stmt_kind kind, body_fn body)
{
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        if (st->kind != kind)
            continue;
        char label[48] = "";
        if (kind == ST_DOMAIN && !e->prog->domain_off && !e->ndom)
            e->prog->domain_off = st->off;
        if (forall_rec(e, st, 0, label, sizeof label, body))
            return -1;
    }
    return 0;
}

/* ---------- symmetric ---------- */

static int el_symmetric(ns_elab *e)
{
    ns_rules_prog *p = e->prog;
    const ns_stmt *seen = NULL;
    for (int si = 0; si < e->ast->nstmts; si++) {
        const ns_stmt *st = &e->ast->stmts[si];
        if (st->kind != ST_SYMMETRIC)
            continue;
        if (seen) {
            char at[32];
            ns_elab_where_of(e, seen->off, at, sizeof at);
            return ns_elab_fail_at(e, st->off, "a second 'symmetric' statement: the first one is at %s (one group of piles)", at);
        }
        seen = st;
        p->sym_off = st->off;
        e->piles_ok = 1;
        e->sizes_ok = 0;
        e->ctx = "the 'symmetric' statement";
        int base = e->ntmp;
        for (int i = 0; i < st->npiles; i++) {
            int id = e->ast->lists[st->piles + i];
            const ns_ast *x = ns_elab_node(e, id);
            /* a whole group (p), one pile (x, p[2]) or a range of a group (p[1..3]) */
            int64_t lo = 0, hi = -1;
            const ns_sym *g = x->kind != AST_NUM ? ns_elab_lookup(e, x->name, x->nlen) : NULL;
            if (g && g->kind == SYM_GROUP && x->kind == AST_NAME) {
                lo = g->glo;
                hi = g->ghi;
            } else if (g && g->kind == SYM_GROUP && x->kind == AST_INDEX && ns_elab_node(e, x->a)->kind == AST_RANGE) {
                const ns_ast *r = ns_elab_node(e, x->a);
                if (ns_elab_const(e, r->a, "the first index", &lo) || ns_elab_const(e, r->b, "the last index", &hi))
                    return -1;
                if (lo < g->glo || hi > g->ghi || lo > hi)
                    return ns_elab_fail_at(e, x->off, "the piles '%.*s' are not a part of the group %" PRId64 "..%" PRId64,
                                           (int)(x->end - x->off), e->src->text + x->off, g->glo, g->ghi);
            }
            if (hi >= lo) {
                for (int64_t j = lo; j <= hi; j++)
                    if (ns_elab_push_tmp(e, g->slot + (int)(j - g->glo)))
                        return -1;
                continue;
            }
            int slot = ns_elab_pile_slot(e, id, 1);
            if (slot < 0 || ns_elab_push_tmp(e, slot))
                return -1;
        }
        int n = e->ntmp - base;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (e->tmp[base + i] == e->tmp[base + j]) {
                    e->ntmp = base;
                    return ns_elab_fail_at(e, st->off, "pile '%s' is listed twice in 'symmetric'", p->pile_names[e->tmp[base + i]]);
                }
        if (n < 2) {
            e->ntmp = base;
            return ns_elab_fail_at(e, st->off, "'symmetric' needs at least two piles (as in 'symmetric x y')");
        }
        /* slots in increasing order */
        for (int i = 0; i < n; i++) {
            int v = e->tmp[base + i], j = i;
            while (j > 0 && p->sym[j - 1] > v) {
                p->sym[j] = p->sym[j - 1];
                j--;
            }
            p->sym[j] = v;
        }
        p->nsym = n;
        e->ntmp = base;
    }
    return 0;
}

/* ---------- driver ---------- */

void ns_rules_prog_free(ns_rules_prog *p)
{
    if (!p)
        return;
    ns_ir_pool_free(&p->ir);
    free(p->lists);
    free(p->fam);
    memset(p, 0, sizeof *p);
}

static ns_err run(const ns_src *src, const ns_ast_prog *ast, const ns_params *ps, int k_hint, int may_retry,
                  ns_rules_prog *out, ns_error *err, char *retry_name, int64_t *retry_value)
{
    ns_elab e = {.src = src, .ast = ast, .prog = out, .err = err, .retry_param = may_retry ? -2 : -1};
    memset(out, 0, sizeof *out);
    out->rank = -1;
    out->ir.limit = 1 << 20;
    retry_name[0] = '\0';
    int bad = ns_elab_defs(&e) || el_params(&e, ps) || el_requires(&e) || el_piles(&e, k_hint) || el_heading(&e) ||
              el_symmetric(&e) || el_stmts(&e, ST_DOMAIN, domain_body);
    if (!bad) {
        out->nstrict = e.ndom;
        e.dom_filter = 1;
        bad = el_stmts(&e, ST_DOMAIN, domain_body) || el_stmts(&e, ST_MOVE, move_body);
    }
    if (!bad) {
        out->domain = ns_rules_prog_list(out, e.dom, e.ndom);
        out->ndomain = e.ndom;
        if (out->domain < 0)
            bad = ns_elab_oom(&e);
    }
    free(e.syms);
    free(e.tmp);
    free(e.dom);
    if (!bad)
        return NS_OK;
    if (!e.rc && e.retry_param >= 0) {
        snprintf(retry_name, NS_PARAM_NAME_LEN, "%s", out->params.p[e.retry_param].name);
        *retry_value = e.retry_value;
        ns_rules_prog_free(out);
        return NS_EINVAL;
    }
    ns_rules_prog_free(out);
    return e.rc ? e.rc : NS_EINTERNAL;
}

ns_err ns_rules_elaborate(const ns_src *src, const ns_ast_prog *ast, const ns_params *ps, int k_hint,
                          ns_rules_prog *out, ns_error *err)
{
    char name[NS_PARAM_NAME_LEN];
    int64_t value = 0;
    ns_err rc = run(src, ast, ps, k_hint, 1, out, err, name, &value);
    if (rc == NS_OK || !name[0])
        return rc;
    /* The pile count is a parameter the user left to the bounds (as in
     * 'piles p[1..k]' without -D k=...): take it from k_hint and redo. The
     * game records the value used. */
    ns_params ps2;
    memset(&ps2, 0, sizeof ps2);
    if (ps)
        ps2 = *ps;
    ns_error perr = {0};
    if (ns_params_set(&ps2, name, &value, 1, &perr))
        return ns_error_set(err, perr.code, "%s: %s", src->fname, perr.msg);
    return run(src, ast, &ps2, k_hint, 0, out, err, name, &value);
}
