/* ns_rules_heap.c - rule files of take-and-break heap games (see
 * ns_rules_heap.h).
 *
 * A family's options at a heap of n are walked variable by variable, as the
 * general families of ns_rules_run.c are: each 'where' condition is tested
 * as soon as the variables it reads are bound, then the next variable's
 * range is evaluated. Each option's heaps are checked (every heap in
 * [0, n), at most n tokens in all, not the heap unchanged); the empty
 * heaps are dropped and the others sorted before they are handed on. A
 * failed check or evaluation is an error naming the line, the heap and the
 * bound values. */
#include "game/ns_rules_heap.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_octal.h"

typedef struct heap_fam {
    int lvl_start[NS_RULES_MAX_VARS + 2]; /* conditions of level L: conj[lvl_start[L] .. lvl_start[L + 1]) */
    int *conj;                            /* owned: IR node ids */
} heap_fam;

typedef struct heap_rt {
    ns_rules_prog prog;     /* owned */
    char *fname;            /* owned */
    const char *text;       /* borrowed from the game */
    heap_fam *fam;          /* owned: prog.nfam of them */
} heap_rt;

static void heap_rt_free(void *p)
{
    heap_rt *rt = p;
    if (!rt)
        return;
    for (int i = 0; rt->fam && i < rt->prog.nfam; i++)
        free(rt->fam[i].conj);
    free(rt->fam);
    ns_rules_prog_free(&rt->prog);
    free(rt->fname);
    free(rt);
}

typedef struct walk {
    const heap_rt *rt;
    const ns_rfam *f;
    const heap_fam *hf;
    int64_t n;
    int64_t var[NS_RULES_MAX_VARS];
    ns_ir_env env;
    ns_heap_opt_fn fn;
    void *user;
    ns_error *err;
} walk;

/* "t = 2, a = 0" */
static void bound_text(const walk *w, int nbound, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < nbound && used < len; j++) {
        int r = snprintf(buf + used, len - used, "%s%s = %" PRId64, j ? ", " : "", w->f->var[j].name, w->var[j]);
        if (r < 0)
            return;
        used += (size_t)r;
    }
}

static int fail_at(walk *w, uint32_t off, int nbound, const char *what)
{
    ns_src src = {w->rt->text, strlen(w->rt->text), w->rt->fname};
    char b[200];
    bound_text(w, nbound, b, sizeof b);
    ns_src_error(w->err, NS_EINVAL, &src, off, "%s at heap %" PRId64 "%s%s%s", what, w->n, b[0] ? " (" : "", b,
                 b[0] ? ")" : "");
    return -1;
}

static int eval(walk *w, int id, int nbound, int64_t *out)
{
    ns_ir_fault f = {0, 0};
    if (ns_ir_eval(w->rt->prog.ir.n, id, &w->env, out, &f) != NS_IR_OK)
        return fail_at(w, f.off, nbound, ns_ir_fault_text(f.code));
    return 0;
}

static int emit(walk *w)
{
    const ns_rfam *f = w->f;
    int64_t parts[NS_HEAP_MAX_PARTS];
    int np = 0;
    int64_t sum = 0;
    char what[200];
    for (int i = 0; i < f->nout; i++) {
        int64_t v;
        if (eval(w, f->out_expr[i], f->nvars, &v))
            return -1;
        if (v < 0 || v >= w->n) {
            snprintf(what, sizeof what, "the move leaves a heap of %" PRId64 ": every heap a move leaves must be "
                     "smaller than the heap it came from (0 to %" PRId64 "; 0 is no heap)", v, w->n - 1);
            return fail_at(w, w->rt->prog.ir.n[f->out_expr[i]].off, f->nvars, what);
        }
        sum += v;
        if (v > 0) { /* insert in increasing order */
            int j = np++;
            while (j > 0 && parts[j - 1] > v) {
                parts[j] = parts[j - 1];
                j--;
            }
            parts[j] = v;
        }
    }
    if (sum > w->n) {
        snprintf(what, sizeof what, "the move leaves %" PRId64 " tokens, more than the heap's %" PRId64
                 " (a move may take tokens, not add them)", sum, w->n);
        return fail_at(w, f->off, f->nvars, what);
    }
    return w->fn(w->user, w->n - sum, parts, np) ? 1 : 0;
}

/* Bind variables level .. nvars-1; conditions of a level are tested once
 * its variables are bound. Returns 0, 1 (stopped) or -1 (error). */
static int walk_level(walk *w, int level)
{
    const ns_rfam *f = w->f;
    const ns_rules_prog *p = &w->rt->prog;
    for (int i = w->hf->lvl_start[level]; i < w->hf->lvl_start[level + 1]; i++) {
        int64_t c;
        if (eval(w, w->hf->conj[i], level, &c))
            return -1;
        if (!c)
            return 0;
    }
    if (level == f->nvars)
        return emit(w);
    const ns_rvar *v = &f->var[level];
    if (v->kind == RV_LIST) {
        for (int i = 0; i < v->n; i++) {
            if (eval(w, p->lists[v->list + i], level, &w->var[level]))
                return -1;
            int r = walk_level(w, level + 1);
            if (r)
                return r;
        }
        return 0;
    }
    int64_t lo, hi;
    if (eval(w, v->lo, level, &lo) || eval(w, v->hi, level, &hi))
        return -1;
    for (int64_t x = lo; x <= hi; x++) {
        w->var[level] = x;
        int r = walk_level(w, level + 1);
        if (r || x == INT64_MAX)
            return r;
    }
    return 0;
}

static int heap_options(const void *rule, int64_t n, ns_heap_opt_fn fn, void *user, ns_error *err)
{
    const heap_rt *rt = rule;
    const int64_t s[1] = {n};
    const int64_t size[1] = {n + 1};
    for (int i = 0; i < rt->prog.nfam; i++) {
        walk w = {.rt = rt, .f = &rt->prog.fam[i], .hf = &rt->fam[i], .n = n, .fn = fn, .user = user, .err = err};
        w.env = (ns_ir_env){s, size, w.var};
        int r = walk_level(&w, 0);
        if (r)
            return r;
    }
    return 0;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    const uint64_t cap = UINT64_MAX / 4;
    if (a == 0 || b == 0)
        return 0;
    return a > cap / b ? cap : a * b;
}

/* A bound on the options of a heap below n: per family, the product of its
 * variables' ranges by interval arithmetic over heaps 0..n-1. */
static uint64_t heap_max_options(const void *rule, int64_t n)
{
    const heap_rt *rt = rule;
    const ns_rules_prog *p = &rt->prog;
    const ns_iv s[1] = {{0, n > 0 ? n - 1 : 0}};
    const ns_iv size[1] = {{1, n > 0 ? n : 1}};
    uint64_t sum = 0;
    for (int i = 0; i < p->nfam; i++) {
        const ns_rfam *f = &p->fam[i];
        ns_iv var[NS_RULES_MAX_VARS];
        uint64_t prod = 1;
        for (int j = 0; j < f->nvars; j++) {
            const ns_rvar *v = &f->var[j];
            uint64_t cnt;
            if (v->kind == RV_LIST) {
                cnt = (uint64_t)v->n;
                var[j] = (ns_iv){INT64_MIN, INT64_MAX};
            } else {
                ns_iv lo = ns_ir_interval(p->ir.n, v->lo, s, size, var);
                ns_iv hi = ns_ir_interval(p->ir.n, v->hi, s, size, var);
                var[j] = (ns_iv){lo.lo, hi.hi};
                if (hi.hi < lo.lo)
                    cnt = 0;
                else if (lo.lo == INT64_MIN || hi.hi == INT64_MAX || (uint64_t)hi.hi - (uint64_t)lo.lo >= UINT64_MAX / 4)
                    cnt = UINT64_MAX / 4;
                else
                    cnt = (uint64_t)hi.hi - (uint64_t)lo.lo + 1;
            }
            prod = sat_mul(prod, cnt);
        }
        sum = sum > UINT64_MAX / 4 - prod ? UINT64_MAX / 4 : sum + prod;
    }
    return sum;
}

/* Statements a heap game does not take: the first one, as an error. */
static ns_err refuse(const ns_src *src, const ns_rules_prog *p, ns_error *err)
{
    if (p->rank >= 0 || p->nrank_lex)
        return ns_src_error(err, NS_EINVAL, src, p->rank_off, "a heap game has no 'rank': every move leaves smaller heaps");
    if (p->nsym)
        return ns_src_error(err, NS_EINVAL, src, p->sym_off, "a heap game has no 'symmetric' (its one heap has no "
                            "other to exchange with)");
    if (p->ndomain)
        return ns_src_error(err, NS_EINVAL, src, p->domain_off, "a heap game has no 'domain': write the condition "
                            "in the moves' 'where'");
    if (p->misere)
        return ns_src_error(err, NS_EINVAL, src, p->heap_off, "a heap game is solved in normal play only ('play "
                            "misere': the misere value of a sum of heaps is not the XOR of the heaps' values)");
    return NS_OK;
}

ns_err ns_rules_heap_build(const ns_src *src, ns_rules_prog *prog, ns_game **out, ns_rules_info *info,
                           ns_error *err)
{
    ns_game *g = NULL;
    ns_err rc;
    *out = NULL;
    if ((rc = refuse(src, prog, err))) {
        ns_rules_prog_free(prog);
        return rc;
    }
    heap_rt *rt = calloc(1, sizeof *rt);
    if (!rt) {
        ns_rules_prog_free(prog);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    rt->prog = *prog;
    memset(prog, 0, sizeof *prog);
    const ns_rules_prog *p = &rt->prog;
    rt->fname = malloc(strlen(src->fname) + 1);
    rt->fam = calloc((size_t)(p->nfam ? p->nfam : 1), sizeof *rt->fam);
    if (!rt->fname || !rt->fam) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    strcpy(rt->fname, src->fname);
    int max_parts = 0;
    for (int i = 0; i < p->nfam; i++) {
        const ns_rfam *f = &p->fam[i];
        heap_fam *hf = &rt->fam[i];
        int count[NS_RULES_MAX_VARS + 1] = {0}, lv[256];
        if (f->nconj > 256) {
            rc = ns_src_error(err, NS_EINVAL, src, f->off, "too many conditions in one move: at most 256");
            goto fail;
        }
        hf->conj = malloc((size_t)(f->nconj ? f->nconj : 1) * sizeof *hf->conj);
        if (!hf->conj) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
        for (int c = 0; c < f->nconj; c++) { /* level: 1 + the last variable it reads */
            ns_ir_deps d = {0, 0, 0};
            ns_ir_deps_of(p->ir.n, p->lists[f->conj + c], &d);
            lv[c] = 0;
            for (int j = 0; j < f->nvars; j++)
                if (d.vars >> j & 1)
                    lv[c] = j + 1;
            count[lv[c]]++;
        }
        hf->lvl_start[0] = 0;
        for (int l = 0; l <= f->nvars; l++)
            hf->lvl_start[l + 1] = hf->lvl_start[l] + count[l];
        int at[NS_RULES_MAX_VARS + 1];
        memcpy(at, hf->lvl_start, sizeof at);
        for (int c = 0; c < f->nconj; c++)
            hf->conj[at[lv[c]]++] = p->lists[f->conj + c];
        max_parts = f->nout > max_parts ? f->nout : max_parts;
    }
    ns_octal o;
    memset(&o, 0, sizeof o);
    o.kind = NS_TB_RULE;
    snprintf(o.code, sizeof o.code, "rules");
    o.max_heaps = max_parts;
    o.rule = rt;
    o.rule_options = heap_options;
    o.rule_max_options = heap_max_options;
    /* named as the file declares ("game NAME"), else "rules", as for piles */
    if (!(g = ns_octal_game_new(p->title[0] ? p->title : "rules", &o, err))) {
        rc = err->code ? err->code : NS_ENOMEM;
        goto fail;
    }
    if ((rc = ns_game_own(g, rt, heap_rt_free, err))) {
        rt = NULL; /* the game frees what it was handed, also on failure */
        goto fail;
    }
    heap_rt *own = rt;
    rt = NULL;
    if (!(g->rules_text = malloc(src->len + 1))) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    memcpy(g->rules_text, src->text, src->len + 1);
    own->text = g->rules_text;
    g->params = own->prog.params;
    snprintf(g->coord_names[0], sizeof g->coord_names[0], "%.15s", own->prog.pile_names[0]);
    if (info) {
        snprintf(info->title, sizeof info->title, "%s", own->prog.title);
        info->nparams = own->prog.params.n;
        memcpy(info->param, own->prog.pinfo, sizeof info->param);
        info->ndropped = own->prog.ndropped;
        info->heap = 1;
        info->fam = calloc((size_t)(own->prog.nfam ? own->prog.nfam : 1), sizeof *info->fam);
        if (!info->fam) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
        info->nfam = own->prog.nfam;
        for (int i = 0; i < own->prog.nfam; i++) {
            const ns_rfam *f = &own->prog.fam[i];
            ns_rules_fam_info *fi = &info->fam[i];
            ns_src_linecol(src, f->off, &fi->line, &fi->col);
            snprintf(fi->idx, sizeof fi->idx, "%s", f->idx);
            ns_src_excerpt(src, f->off + 4, f->end, fi->text, sizeof fi->text);
            fi->kind = NS_FAM_GENERAL;
            fi->parts = f->nout;
            snprintf(fi->why, sizeof fi->why, "split: leaves up to %d heap%s, options enumerated per heap size",
                     f->nout, f->nout == 1 ? "" : "s");
        }
    }
    *out = g;
    return NS_OK;
fail:
    heap_rt_free(rt);
    ns_game_free(g);
    return rc;
}
