/* ns_rules_run.c - general and prefix families, domain and option bounds
 * at run time (ns_rules_run.h).
 *
 * A general family is walked variable by variable: each 'where' condition is
 * tested as soon as the variables it uses are bound (so `where x >= 1`
 * guards a later range 1..y/x), then the next variable's range is
 * evaluated. Every option is checked before it is passed on: inside the
 * box, inside the domain, of smaller rank; a failure names the position,
 * the option and the bound values. An option outside a 'domain filter'
 * (and inside the plain domains) is not a move: it is dropped. For a
 * symmetric game (ns_game.h: nsym) each option is then sorted along the
 * symmetric piles, the one cell of its class that the table holds.
 *
 * A prefix family (ns_rules_prefix_of) is the same walk with the range of
 * its variable t cut to the moves added at s: t = s_a only (at s_a = 0:
 * every t of the range up to 0). */
#include "game/ns_rules_run.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_rules_classify.h"
#include "game/ns_rules_lex.h"

typedef struct rt_fam {
    const ns_rules_rt *rt;
    int fam;                                /* index in rt->prog.fam */
    uint64_t cost;                          /* work charged per binding */
    int lvl_start[NS_RULES_MAX_VARS + 2];   /* conditions of level L: lvl_conj[lvl_start[L] ..] */
    int *lvl_conj;                          /* owned */
    int prefix;                             /* runs as NS_FAM_PREFIX along pre.axis */
    int quick;                              /* prefix with t its only variable: see pre_options */
    ns_rprefix pre;
    int nkeep;                              /* piles the family leaves alone: keep[0 .. nkeep) */
    int keep[NS_MAX_DIM];
} rt_fam;

struct ns_rules_rt {
    ns_rules_prog prog;     /* owned */
    char *fname;            /* owned */
    ns_src src;             /* text borrowed from the game */
    const ns_game *g;       /* borrowed: the game owns this runtime */
    rt_fam **gen;           /* owned */
    int ngen;
    ns_ir_code code;        /* owned: bytecode of the expressions evaluated at run time */
    int *code_of;           /* owned: node id -> code start, or -1 (evaluate the tree) */
    int ncode_of;
};

/* Evaluate node id: a leaf directly, else its bytecode when it has one,
 * else the tree. */
static inline int rt_eval(const ns_rules_rt *rt, int id, const ns_ir_env *env, int64_t *out, ns_ir_fault *f)
{
    const ns_ir *x = &rt->prog.ir.n[id];
    switch ((ns_ir_op)x->op) {
    case IR_CONST: *out = x->v; return NS_IR_OK;
    case IR_PILE: *out = env->s[x->a]; return NS_IR_OK;
    case IR_SIZE: *out = env->size[x->a]; return NS_IR_OK;
    case IR_VAR: *out = env->var[x->a]; return NS_IR_OK;
    default: break;
    }
    if (id < rt->ncode_of && rt->code_of[id] >= 0)
        return ns_ir_run(rt->code.ins, rt->code_of[id], env, out, f);
    return ns_ir_eval(rt->prog.ir.n, id, env, out, f);
}

ns_rules_rt *ns_rules_rt_new(ns_rules_prog *prog, const char *fname)
{
    ns_rules_rt *rt = calloc(1, sizeof *rt);
    if (!rt)
        return NULL;
    rt->fname = malloc(strlen(fname) + 1);
    if (!rt->fname) {
        free(rt);
        return NULL;
    }
    strcpy(rt->fname, fname);
    rt->prog = *prog;
    memset(prog, 0, sizeof *prog);
    rt->src.text = "";
    rt->src.fname = rt->fname;
    return rt;
}

void ns_rules_rt_free(void *p)
{
    ns_rules_rt *rt = p;
    if (!rt)
        return;
    for (int i = 0; i < rt->ngen; i++) {
        free(rt->gen[i]->lvl_conj);
        free(rt->gen[i]);
    }
    free(rt->gen);
    ns_ir_code_free(&rt->code);
    free(rt->code_of);
    ns_rules_prog_free(&rt->prog);
    free(rt->fname);
    free(rt);
}

ns_rules_prog *ns_rules_rt_prog(ns_rules_rt *rt)
{
    return &rt->prog;
}

void ns_rules_rt_attach(ns_rules_rt *rt, const ns_game *g)
{
    rt->g = g;
    if (g->rules_text) {
        rt->src.text = g->rules_text;
        rt->src.len = strlen(g->rules_text);
    }
}

/* ---------- the walk over a general family ---------- */

typedef struct walk {
    const rt_fam *F;
    const ns_rules_rt *rt;
    const ns_rfam *f;
    const ns_ir *n;
    const int64_t *s;
    int64_t var[NS_RULES_MAX_VARS];
    ns_ir_env env;
    ns_emit_fn emit;
    void *user;
    ns_error *err;
    uint64_t budget;    /* work left for this position (see charge()) */
    int budget_set;     /* budget computed */
    int64_t rank;
} walk;

/* " (t = 2, d = -1; i=2)": the first nb bound values and the forall
 * assignment, or "" */
static void bindings(const walk *w, int nb, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < nb && used < len; j++) {
        int r = snprintf(buf + used, len - used, "%s%s = %" PRId64, j ? ", " : " (", w->f->var[j].name, w->var[j]);
        if (r < 0)
            return;
        used += (size_t)r;
    }
    if (w->f->idx[0] && used < len) {
        int r = snprintf(buf + used, len - used, "%s%s", nb ? "; " : " (", w->f->idx);
        if (r < 0)
            return;
        used += (size_t)r;
    }
    if (used && used < len)
        snprintf(buf + used, len - used, ")");
}

/* Report "FILE:L:C: <message><bindings>"; returns -code. */
static int fail(walk *w, ns_err code, uint32_t off, int nb, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail(walk *w, ns_err code, uint32_t off, int nb, const char *fmt, ...)
{
    char msg[360], b[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bindings(w, nb, b, sizeof b);
    ns_src_error(w->err, code, &w->rt->src, off, "%s%s", msg, b);
    return -code;
}

static int fault(walk *w, const ns_ir_fault *fl, int nb)
{
    char pos[160];
    ns_format_pos(w->rt->g->k, w->s, pos, sizeof pos);
    return fail(w, NS_EINVAL, fl->off, nb, "%s at position %s", ns_ir_fault_text(fl->code), pos);
}

/* Non-zero when s satisfies the domain conditions i0 .. i1 - 1 (a condition
 * that cannot be evaluated, an overflow, does not hold). */
static int domain_has(const ns_rules_rt *rt, const int64_t *s, int i0, int i1)
{
    const ns_rules_prog *p = &rt->prog;
    ns_ir_env env = {s, rt->g->bounds, NULL};
    for (int i = i0; i < i1; i++) {
        int64_t v;
        ns_ir_fault fl;
        if (rt_eval(rt, p->lists[p->domain + i], &env, &v, &fl) || !v)
            return 0;
    }
    return 1;
}

/* Sort s along the game's symmetric piles (insertion sort: at most 8). */
static void sym_sort(const ns_game *g, int64_t *s)
{
    for (int i = 1; i < g->nsym; i++) {
        int64_t v = s[g->sym[i]];
        int j = i;
        for (; j > 0 && s[g->sym[j - 1]] > v; j--)
            s[g->sym[j]] = s[g->sym[j - 1]];
        s[g->sym[j]] = v;
    }
}

static int emit_option(walk *w)
{
    const ns_game *g = w->rt->g;
    const ns_rfam *f = w->f;
    int64_t o[NS_MAX_DIM];
    ns_ir_fault fl;
    for (int i = 0; i < g->k; i++)
        o[i] = w->s[i];
    for (int i = 0; i < f->nout; i++)
        if (rt_eval(w->rt, f->out_expr[i], &w->env, &o[f->out_slot[i]], &fl))
            return fault(w, &fl, f->nvars);
    char a[160], from[160], box[200];
    int bad = !ns_game_in_box(g, o) ? 1 : !domain_has(w->rt, o, 0, w->rt->prog.ndomain) ? 2 : !g->loopy && ns_game_rank(g, o) >= w->rank ? 3 : 0;
    if (bad == 2 && domain_has(w->rt, o, 0, w->rt->prog.nstrict))
        return 0; /* outside a 'domain filter' only: not a move */
    if (bad == 1 && g->outside_forbid)
        return 0; /* 'outside forbid': not a move */
    if (!bad) {
        if (g->nsym && !g->sym_whole)
            sym_sort(g, o);
        return w->emit(w->user, o);
    }
    ns_format_pos(g->k, o, a, sizeof a);
    ns_format_pos(g->k, w->s, from, sizeof from);
    if (bad == 1) {
        size_t used = 0;
        box[0] = '\0';
        for (int i = 0; i < g->k && used < sizeof box; i++) {
            int r = snprintf(box + used, sizeof box - used, "%s[0,%" PRId64 ")", i ? " x " : "", g->bounds[i]);
            if (r < 0)
                break;
            used += (size_t)r;
        }
        return fail(w, NS_EGAME, f->off, f->nvars, "the move from %s leads to %s, outside the box %s", from, a, box);
    }
    if (bad == 2)
        return fail(w, NS_EGAME, f->off, f->nvars, "the move from %s leads to %s, outside the domain", from, a);
    return fail(w, NS_EGAME, f->off, f->nvars, "the move from %s leads to %s, which does not strictly decrease the rank (a cycle is possible)",
                from, a);
}

static int too_much(walk *w, const ns_rvar *rv, int j)
{
    char pos[160];
    ns_format_pos(w->rt->g->k, w->s, pos, sizeof pos);
    return fail(w, NS_EGAME, rv->off, j, "the move needs too much work at position %s: the values of %s are far too many for the box",
                pos, rv->name);
}

/* Take the cost of one binding from the budget: at most max(2^26,
 * 64 * cells) units of work per position (a binding costs the size of the
 * expressions it evaluates). More can only come from ranges far wider than
 * the box, a solve that would not end; the guard turns it into an error
 * instead of a hang. The budget is set on first need (most positions
 * never need it). Returns 0, or -1 when the budget is spent. */
static inline int charge(walk *w)
{
    const uint64_t cost = w->F->cost;
    if (w->budget < cost) {
        if (w->budget_set)
            return -1;
        w->budget_set = 1;
        uint64_t cells = ns_game_cells(w->rt->g);
        w->budget = cells > (UINT64_MAX >> 7) ? UINT64_MAX : cells * 64;
        if (w->budget < ((uint64_t)1 << 26))
            w->budget = (uint64_t)1 << 26;
        if (w->budget < cost)
            return -1;
    }
    w->budget -= cost;
    return 0;
}

static int step(walk *w, int j)
{
    const rt_fam *F = w->F;
    const ns_rfam *f = w->f;
    ns_ir_fault fl;
    int64_t v;
    int rc;
    for (int i = F->lvl_start[j]; i < F->lvl_start[j + 1]; i++) {
        if (rt_eval(w->rt, F->lvl_conj[i], &w->env, &v, &fl))
            return fault(w, &fl, j);
        if (!v)
            return 0;
    }
    if (j == f->nvars)
        return emit_option(w);
    const ns_rvar *rv = &f->var[j];
    if (rv->kind == RV_LIST) {
        for (int i = 0; i < rv->n; i++) {
            if (rt_eval(w->rt, w->rt->prog.lists[rv->list + i], &w->env, &v, &fl))
                return fault(w, &fl, j);
            if (charge(w))
                return too_much(w, rv, j);
            w->var[j] = v;
            if ((rc = step(w, j + 1)))
                return rc;
        }
        return 0;
    }
    int64_t lo, hi;
    const int cut = F->prefix && j == F->pre.var;
    if (rt_eval(w->rt, rv->lo, &w->env, &lo, &fl) || (!cut && rt_eval(w->rt, rv->hi, &w->env, &hi, &fl)))
        return fault(w, &fl, j);
    if (cut) {
        /* hi = min(s_a, the other leaves); the moves added at s have
         * t = s_a, or t <= 0 at s_a = 0 */
        const int64_t sa = w->s[F->pre.axis];
        hi = sa;
        for (int i = 0; i < F->pre.nhi; i++) {
            if (rt_eval(w->rt, F->pre.hi_leaf[i], &w->env, &v, &fl))
                return fault(w, &fl, j);
            hi = v < hi ? v : hi;
        }
        if (sa > 0 && lo < sa)
            lo = sa;
    }
    if (hi < lo)
        return 0;
    for (int64_t t = lo;; t++) {
        if (charge(w))
            return too_much(w, rv, j);
        w->var[j] = t;
        if ((rc = step(w, j + 1)))
            return rc;
        if (t == hi)
            break;
    }
    return 0;
}

static int gen_options(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    const rt_fam *F = ctx;
    const ns_rules_rt *rt = F->rt;
    const ns_game *g = rt->g;
    walk w;
    w.F = F;
    w.rt = rt;
    w.f = &rt->prog.fam[F->fam];
    w.n = rt->prog.ir.n;
    w.s = s;
    w.env.s = s;
    w.env.size = g->bounds;
    w.env.var = w.var;
    w.emit = emit;
    w.user = user;
    w.err = err;
    w.budget = 0;
    w.budget_set = 0;
    w.rank = ns_game_rank(g, s);
    return step(&w, 0);
}

/* The moves a prefix family adds at s. A cell outside the domain adds
 * none: along the axis the domain's cells come first (ns_rules_prefix_of),
 * so no position inherits from it.
 *
 * With t the only variable and s_a > 0 the one candidate t = s_a is tried
 * straight away (quick), evaluating what the walk would evaluate in the
 * same order, so that it gives up silently exactly where the walk would.
 * Anything unusual (a fault, an option the walk would reject) goes to the
 * walk, which reports it as a general family would; evaluation has no side
 * effects. */
static int pre_options(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    const rt_fam *F = ctx;
    const ns_rules_rt *rt = F->rt;
    const ns_game *g = rt->g;
    const int k = g->k;
    if (g->valid && !g->valid(g->valid_ctx, k, s))
        return 0;
    const int64_t sa = s[F->pre.axis];
    if (!F->quick || sa <= 0)
        return gen_options(ctx, s, emit, user, err);
    const ns_rfam *f = &rt->prog.fam[F->fam];
    int64_t t = sa, v, lo, hi = sa, o[NS_MAX_DIM];
    ns_ir_env env = {s, g->bounds, &t};
    ns_ir_fault fl;
    for (int i = F->lvl_start[0]; i < F->lvl_start[1]; i++) {
        if (rt_eval(rt, F->lvl_conj[i], &env, &v, &fl))
            goto walk;
        if (!v)
            return 0;
    }
    if (rt_eval(rt, f->var[0].lo, &env, &lo, &fl))
        goto walk;
    for (int i = 0; i < F->pre.nhi; i++) {
        if (rt_eval(rt, F->pre.hi_leaf[i], &env, &v, &fl))
            goto walk;
        hi = v < hi ? v : hi;
    }
    if (lo > sa || hi < sa)
        return 0;
    for (int i = F->lvl_start[1]; i < F->lvl_start[2]; i++) {
        if (rt_eval(rt, F->lvl_conj[i], &env, &v, &fl))
            goto walk;
        if (!v)
            return 0;
    }
    for (int i = 0; i < F->nkeep; i++)
        o[F->keep[i]] = s[F->keep[i]];
    for (int i = 0; i < f->nout; i++)
        if (rt_eval(rt, f->out_expr[i], &env, &o[f->out_slot[i]], &fl))
            goto walk;
    if (!ns_game_in_box(g, o) || (g->valid && !g->valid(g->valid_ctx, k, o)) ||
        (!g->loopy && ns_game_rank(g, o) >= ns_game_rank(g, s)))
        goto walk;
    return emit(user, o);
walk:
    return gen_options(ctx, s, emit, user, err);
}

/* ---------- bounds on the number of options ---------- */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t gen_maxopt(const void *ctx, int k, const int64_t *b)
{
    const rt_fam *F = ctx;
    const ns_rules_prog *p = &F->rt->prog;
    const ns_rfam *f = &p->fam[F->fam];
    ns_iv s[NS_MAX_DIM], size[NS_MAX_DIM], var[NS_RULES_MAX_VARS];
    for (int i = 0; i < k; i++) {
        s[i] = (ns_iv){0, b[i] - 1};
        size[i] = (ns_iv){b[i], b[i]};
    }
    uint64_t prod = 1;
    for (int j = 0; j < f->nvars; j++) {
        const ns_rvar *v = &f->var[j];
        uint64_t cnt;
        if (v->kind == RV_LIST) {
            cnt = (uint64_t)v->n;
            for (int i = 0; i < v->n; i++) {
                ns_iv e = ns_ir_interval(p->ir.n, p->lists[v->list + i], s, size, var);
                if (i == 0) {
                    var[j] = e;
                } else {
                    var[j].lo = e.lo < var[j].lo ? e.lo : var[j].lo;
                    var[j].hi = e.hi > var[j].hi ? e.hi : var[j].hi;
                }
            }
            if (v->n == 0)
                var[j] = (ns_iv){0, 0};
        } else {
            ns_iv lo = ns_ir_interval(p->ir.n, v->lo, s, size, var);
            ns_iv hi = ns_ir_interval(p->ir.n, v->hi, s, size, var);
            if (hi.hi < lo.lo)
                return 0;
            var[j] = (ns_iv){lo.lo, hi.hi};
            if (lo.lo == INT64_MIN || hi.hi == INT64_MAX)
                cnt = UINT64_MAX;
            else
                cnt = (uint64_t)hi.hi - (uint64_t)lo.lo == UINT64_MAX ? UINT64_MAX : (uint64_t)hi.hi - (uint64_t)lo.lo + 1;
        }
        prod = sat_mul(prod, cnt);
    }
    return prod;
}

/* ---------- registration ---------- */

ns_err ns_rules_rt_add_general(ns_rules_rt *rt, ns_game *g, int fam, const char *label, ns_error *err)
{
    const ns_rules_prog *p = &rt->prog;
    const ns_rfam *f = &p->fam[fam];
    rt_fam *F = calloc(1, sizeof *F);
    rt_fam **list = F ? realloc(rt->gen, (size_t)(rt->ngen + 1) * sizeof *list) : NULL;
    if (!list) {
        free(F);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    rt->gen = list;
    rt->gen[rt->ngen++] = F;
    F->rt = rt;
    F->fam = fam;
    F->lvl_conj = malloc((size_t)(f->nconj ? f->nconj : 1) * sizeof *F->lvl_conj);
    if (!F->lvl_conj)
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    /* level of a condition: 1 + the highest variable it uses (0: none) */
    int level[NS_RULES_MAX_VARS + 1] = {0};
    int *lv = malloc((size_t)(f->nconj ? f->nconj : 1) * sizeof *lv);
    if (!lv)
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    for (int i = 0; i < f->nconj; i++) {
        ns_ir_deps d = {0, 0, 0};
        ns_ir_deps_of(p->ir.n, p->lists[f->conj + i], &d);
        int l = 0;
        for (int j = 0; j < f->nvars; j++)
            if (d.vars >> j & 1)
                l = j + 1;
        lv[i] = l;
        level[l]++;
    }
    /* the work of one binding: every expression it may evaluate */
    uint64_t cost = 1;
    for (int i = 0; i < f->nconj; i++)
        cost += p->ir.n[p->lists[f->conj + i]].tsize;
    for (int i = 0; i < f->nout; i++)
        cost += p->ir.n[f->out_expr[i]].tsize;
    for (int j = 0; j < f->nvars; j++) {
        const ns_rvar *v = &f->var[j];
        if (v->kind == RV_RANGE)
            cost += p->ir.n[v->lo].tsize + p->ir.n[v->hi].tsize;
        else
            for (int i = 0; i < v->n; i++)
                cost += p->ir.n[p->lists[v->list + i]].tsize;
    }
    F->cost = cost;
    F->lvl_start[0] = 0;
    for (int l = 0; l <= f->nvars; l++)
        F->lvl_start[l + 1] = F->lvl_start[l] + level[l];
    int fill[NS_RULES_MAX_VARS + 2];
    memcpy(fill, F->lvl_start, sizeof fill);
    for (int i = 0; i < f->nconj; i++)
        F->lvl_conj[fill[lv[i]]++] = p->lists[f->conj + i];
    free(lv);
    /* gen_maxopt bounds all the options of a position: right for both */
    F->prefix = !g->nsym && ns_rules_prefix_of(p, f, g->k, &F->pre);
    /* one binding never exhausts the walk's budget (>= 2^26) */
    F->quick = F->prefix && f->nvars == 1 && F->pre.var == 0 && cost <= ((uint64_t)1 << 26);
    for (int i = 0; i < g->k; i++) {
        int set = 0;
        for (int j = 0; j < f->nout; j++)
            set |= f->out_slot[j] == i;
        if (!set)
            F->keep[F->nkeep++] = i;
    }
    if (F->prefix)
        return ns_game_add_prefix(g, label, F->pre.axis, pre_options, gen_maxopt, F, err);
    return ns_game_add_general(g, label, gen_options, gen_maxopt, F, err);
}

int ns_rules_rt_valid(const void *ctx, int k, const int64_t *s)
{
    (void)k;
    const ns_rules_rt *rt = ctx;
    const ns_game *g = rt->g;
    if (g->nsym && !g->sym_whole)
        for (int i = 1; i < g->nsym; i++)
            if (s[g->sym[i - 1]] > s[g->sym[i]])
                return 0;
    return domain_has(rt, s, 0, rt->prog.ndomain);
}

/* ---------- bytecode for the run-time expressions ---------- */

static void compile_root(ns_rules_rt *rt, int id)
{
    if (rt->code_of[id] >= 0)
        return;
    int c = ns_ir_compile(rt->prog.ir.n, id, &rt->code);
    if (c >= 0)
        rt->code_of[id] = c;
}

ns_err ns_rules_rt_finish(ns_rules_rt *rt, ns_error *err)
{
    const ns_rules_prog *p = &rt->prog;
    free(rt->code_of);
    rt->code_of = malloc((size_t)(p->ir.nn ? p->ir.nn : 1) * sizeof *rt->code_of);
    if (!rt->code_of) {
        rt->ncode_of = 0;
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    rt->ncode_of = p->ir.nn;
    for (int i = 0; i < p->ir.nn; i++)
        rt->code_of[i] = -1;
    rt->code.limit = 1 << 20;
    for (int g = 0; g < rt->ngen; g++) {
        const rt_fam *F = rt->gen[g];
        const ns_rfam *f = &p->fam[F->fam];
        for (int i = 0; F->prefix && i < F->pre.nhi; i++)
            compile_root(rt, F->pre.hi_leaf[i]);
        for (int i = 0; i < f->nconj; i++)
            compile_root(rt, p->lists[f->conj + i]);
        for (int i = 0; i < f->nout; i++)
            compile_root(rt, f->out_expr[i]);
        for (int j = 0; j < f->nvars; j++) {
            const ns_rvar *v = &f->var[j];
            if (v->kind == RV_RANGE) {
                compile_root(rt, v->lo);
                compile_root(rt, v->hi);
            } else {
                for (int i = 0; i < v->n; i++)
                    compile_root(rt, p->lists[v->list + i]);
            }
        }
    }
    for (int i = 0; i < p->ndomain; i++)
        compile_root(rt, p->lists[p->domain + i]);
    return NS_OK;
}
