/* ns_rules.c - compile a rule text into an ns_game (ns_rules.h).
 *
 * parse (ns_rules_parse) -> elaborate (ns_rules_elab) -> classify each
 * family (ns_rules_classify) -> rays and finite sets go to the engine as
 * such, the rest as general families served by ns_rules_run. */
#include "game/ns_rules.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_rules_classify.h"
#include "game/ns_rules_heap.h"
#include "game/ns_rules_info.h"
#include "game/ns_rules_lex.h"
#include "game/ns_rules_parse.h"
#include "game/ns_rules_run.h"

#define MAX_FILE ((size_t)1 << 20)

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void ns_rules_info_free(ns_rules_info *info)
{
    if (!info)
        return;
    free(info->fam);
    free(info);
}

/* "x + y", or the rank statement */
static void rank_text(const ns_src *src, const ns_rules_prog *p, char *buf, size_t len)
{
    if (p->rank >= 0 || p->nrank_lex) {
        ns_src_excerpt(src, p->rank_off, p->rank_end, buf, len);
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->k && used < len; i++) {
        int r = snprintf(buf + used, len - used, "%s%s", i ? " + " : "", p->pile_names[i]);
        if (r < 0)
            break;
        used += (size_t)r;
    }
}

static int64_t dot(int k, const int64_t *a, const int64_t *b)
{
    int64_t r = 0;
    for (int i = 0; i < k; i++)
        r += a[i] * b[i];
    return r;
}

/* An order of the positions: a weighted sum w . s, or the tuple
 * (a_0 . s, ..., a_{m-1} . s) compared lexicographically. Weights and
 * coefficients are at most 65536 and the vectors tested at most 2^40 (see
 * vec_small), so the dot products fit. */
typedef struct order {
    int lex, m;
    int64_t w[NS_MAX_DIM];
    int64_t a[NS_MAX_DIM][NS_MAX_DIM];
} order;

/* Does the step v lower the order? */
static int lowers(const order *o, int k, const int64_t *v)
{
    if (!o->lex)
        return dot(k, o->w, v) < 0;
    for (int c = 0; c < o->m; c++) {
        int64_t d = dot(k, o->a[c], v);
        if (d)
            return d < 0;
    }
    return 0;
}

/* Does every option e + t*d (t = 0, 1, ...) of a ray lower the order, even
 * when d itself does not (a lexicographic order: (x - 1, y + t))? */
static int ray_lowers(const order *o, int k, const int64_t *d, const int64_t *e)
{
    if (!lowers(o, k, e))
        return 0;
    if (!o->lex)
        return lowers(o, k, d);
    for (int c = 0; c < o->m; c++) {
        int64_t de = dot(k, o->a[c], e), dd = dot(k, o->a[c], d);
        if (de || dd)
            return de <= 0 && dd <= 0;
    }
    return 0;
}

/* How the families of a program fare under an order. */
enum { FAM_OK = 0, FAM_GENERAL = 1, FAM_FAILS = 2 };
typedef struct order_fail {
    int fam;                /* the first family that fails */
    const int64_t *v;       /* its step */
    const char *what;       /* "its direction", ... */
} order_fail;

/* FAM_OK: every ray and offset lowers the order; FAM_GENERAL: a ray whose
 * direction does not but whose options all do must run as a general family
 * (the sieve reads a ray along levels of decreasing rank); FAM_FAILS.
 * relaxed: a ray of a linear rank whose first option lowers it but whose
 * direction does not is FAM_GENERAL too: its later options may or may not
 * lower the rank (that depends on the box), and a general family checks
 * each option as it is made. */
static int fam_under(const order *o, int k, const ns_rclass *cl, const int64_t **bad, const char **what, int relaxed)
{
    int res = FAM_OK;
    if (cl->kind == NS_FAM_RAY) {
        for (int r = 0; r < cl->nrays; r++) {
            const int64_t *d = cl->dir + (size_t)r * (size_t)k, *e = cl->base + (size_t)r * (size_t)k;
            if (lowers(o, k, d) && lowers(o, k, e))
                continue;
            if (ray_lowers(o, k, d, e) || (relaxed && !o->lex && lowers(o, k, e))) {
                res = FAM_GENERAL;
                continue;
            }
            *bad = !lowers(o, k, d) ? d : e;
            *what = !lowers(o, k, d) ? "its direction" : "its first step";
            return FAM_FAILS;
        }
    } else if (cl->kind == NS_FAM_FINITE) {
        for (size_t j = 0; j < cl->noff; j++)
            if (!lowers(o, k, cl->off + j * (size_t)k)) {
                *bad = cl->off + j * (size_t)k;
                *what = "the step";
                return FAM_FAILS;
            }
    }
    return res;
}

/* Check every family; 0 when the order works (fails == NULL: quietly).
 * strict: every ray must run as a ray (FAM_OK); else general families as in
 * fam_under(relaxed). */
static int order_works(const order *o, int k, const ns_rclass *cls, int nfam, order_fail *fails, int strict,
                       int relaxed)
{
    for (int fi = 0; fi < nfam; fi++) {
        const int64_t *v = NULL;
        const char *what = NULL;
        const int r = fam_under(o, k, &cls[fi], &v, &what, relaxed);
        if (r == FAM_GENERAL && strict && !v) {
            /* the direction is what fails a ray */
            for (int j = 0; j < cls[fi].nrays && !v; j++)
                if (!lowers(o, k, cls[fi].dir + (size_t)j * (size_t)k))
                    v = cls[fi].dir + (size_t)j * (size_t)k, what = "its direction";
            if (!v)
                v = cls[fi].dir, what = "its direction";
        }
        if (r == FAM_FAILS || (strict && r == FAM_GENERAL)) {
            if (fails) {
                fails->fam = fi;
                fails->v = v;
                fails->what = what;
            }
            return -1;
        }
    }
    return 0;
}

/* "the move does not strictly decrease the rank ...", at the move */
static ns_err order_error(const ns_src *src, const order *o, int k, const ns_rfam *f, const char *rank, const order_fail *fl,
                          const char *tail, ns_error *err)
{
    char pos[160];
    ns_format_pos(k, fl->v, pos, sizeof pos);
    if (!o->lex)
        return ns_src_error(err, NS_EGAME, src, f->off,
                            "the move does not strictly decrease the rank %s: %s %s changes it by %+" PRId64 " (a cycle is possible)%s%s%s%s", rank,
                            fl->what, pos, dot(k, o->w, fl->v), f->idx[0] ? " (" : "", f->idx, f->idx[0] ? ")" : "", tail);
    int64_t c[NS_MAX_DIM];
    for (int i = 0; i < o->m; i++)
        c[i] = dot(k, o->a[i], fl->v);
    char comp[160];
    ns_format_pos(o->m, c, comp, sizeof comp);
    return ns_src_error(err, NS_EGAME, src, f->off,
                        "the move does not lower the order %s: %s %s changes its components by %s (a cycle is possible)%s%s%s%s", rank, fl->what,
                        pos, comp, f->idx[0] ? " (" : "", f->idx, f->idx[0] ? ")" : "", tail);
}

/* Why a file without a rank statement is loopy: the family f (class cl)
 * whose step fl->v keeps or raises the rank w (the sum of the piles), with
 * an example move, into buf. */
static void loopy_reason(const ns_src *src, int k, const ns_rfam *f, const ns_rclass *cl, const order_fail *fl,
                         const char *rank, const int64_t *w, char *buf, size_t len)
{
    int64_t v[NS_MAX_DIM], a[NS_MAX_DIM], b[NS_MAX_DIM];
    memcpy(v, fl->v, (size_t)k * sizeof *v);
    if (cl->kind == NS_FAM_RAY && strcmp(fl->what, "its direction") == 0) {
        /* the second option s + e + d of that ray */
        for (int r = 0; r < cl->nrays; r++)
            if (memcmp(cl->dir + (size_t)r * (size_t)k, fl->v, (size_t)k * sizeof *v) == 0) {
                for (int i = 0; i < k; i++)
                    v[i] = cl->base[(size_t)r * (size_t)k + i] + fl->v[i];
                break;
            }
    }
    for (int i = 0; i < k; i++) {
        a[i] = v[i] < 0 ? -v[i] : 0;
        b[i] = a[i] + v[i];
    }
    char from[160], to[160], step[160];
    ns_format_pos(k, a, from, sizeof from);
    ns_format_pos(k, b, to, sizeof to);
    ns_format_pos(k, fl->v, step, sizeof step);
    int line, col;
    ns_src_linecol(src, f->off, &line, &col);
    snprintf(buf, len, "line %d%s%.48s%s: %.20s %.60s changes the rank %.40s by %+" PRId64 " (example move %.60s -> %.60s, %+" PRId64 "); no order tried (weights 1..4 on the piles, lexicographic orders) lowers every move",
             line, f->idx[0] ? " [" : "", f->idx, f->idx[0] ? "]" : "", fl->what, step, rank, dot(k, w, fl->v), from, to,
             dot(k, w, v));
}

typedef struct probe_ctx {
    const ns_game *g;
    int64_t rank;
    int found;
    int64_t opt[NS_MAX_DIM];
    uint64_t *left;         /* options the probe may still look at */
} probe_ctx;

static int probe_emit(void *u, const int64_t *o)
{
    probe_ctx *c = u;
    if (*c->left == 0)
        return 1;
    --*c->left;
    if (ns_game_rank(c->g, o) < c->rank)
        return 0;
    c->found = 1;
    memcpy(c->opt, o, (size_t)c->g->k * sizeof *o);
    return 1;
}

/* A file without a rank statement whose general or prefix families make
 * a move that keeps or raises the order (found on the cells of a small
 * box, side at most 16 and at most 256 cells, looking at 2^16 options at
 * most) is loopy: g->loopy and g->loopy_why with the line and that move.
 * The probe stops at the first family that fails there otherwise (an
 * option outside the box, too much work): the solve reports it. A move
 * that keeps the rank only in larger boxes is found when solving (the
 * error names it). Bounds are unset again afterwards. */
static void probe_general(ns_game *g, const char *rank)
{
    const int k = g->k;
    int any = 0;
    for (int f = 0; f < g->nfam; f++)
        any |= g->fam[f].kind == NS_FAM_GENERAL || g->fam[f].kind == NS_FAM_PREFIX;
    if (!any)
        return;
    int64_t side = 2;
    for (int64_t t = 3; t <= 16; t++) {
        int64_t c = 1;
        for (int i = 0; i < k && c <= 256; i++)
            c *= t;
        if (c > 256)
            break;
        side = t;
    }
    uint64_t left = (uint64_t)1 << 16;
    int64_t b[NS_MAX_DIM], s[NS_MAX_DIM] = {0}, w[NS_MAX_DIM];
    for (int i = 0; i < k; i++)
        b[i] = side;
    memcpy(w, g->rank_w, sizeof w);
    g->loopy = 1; /* no rank checks while probing */
    ns_error perr = {0};
    ns_err rc = ns_game_set_bounds(g, b, &perr);
    int found = 0, failed = 0;
    for (int done = 0; !rc && !done && !found && !failed && left;) {
        if (ns_game_is_position(g, s)) {
            for (int f = 0; f < g->nfam && !found; f++) {
                const ns_family *fm = &g->fam[f];
                if (fm->kind != NS_FAM_GENERAL && fm->kind != NS_FAM_PREFIX)
                    continue;
                probe_ctx c = {g, ns_game_rank(g, s), 0, {0}, &left};
                if (fm->kind == NS_FAM_GENERAL) {
                    failed = ns_game_family_options(g, fm, s, probe_emit, &c, &perr) < 0;
                } else {
                    int64_t q[NS_MAX_DIM];
                    memcpy(q, s, sizeof q);
                    for (q[fm->axis] = 0; q[fm->axis] <= s[fm->axis] && !c.found && !failed; q[fm->axis]++)
                        failed = ns_game_family_options(g, fm, q, probe_emit, &c, &perr) < 0;
                }
                if (failed)
                    break;
                if (c.found) {
                    found = 1;
                    char a[160], o[160];
                    ns_format_pos(k, s, a, sizeof a);
                    ns_format_pos(k, c.opt, o, sizeof o);
                    /* the family's label starts "line N" (or "line N [i=2]") */
                    const int head = (int)strcspn(fm->label, ":") > 40 ? 40 : (int)strcspn(fm->label, ":");
                    snprintf(g->loopy_why, sizeof g->loopy_why,
                             "%.*s: the move %.60s -> %.60s changes the rank %.40s by %+" PRId64 " (found in the box of side %" PRId64 ")",
                             head, fm->label, a, o, rank, ns_game_rank(g, c.opt) - ns_game_rank(g, s), side);
                }
            }
        }
        int d = k - 1;
        while (d >= 0 && ++s[d] >= b[d])
            s[d--] = 0;
        done = d < 0;
    }
    g->loopy = found;
    memset(g->bounds, 0, sizeof g->bounds);
    memcpy(g->rank_w, w, sizeof w);
}

/* No rank statement and the sum of the piles fails: look for an order that
 * works for every ray and finite family (general families are checked as
 * they run). First weight vectors in 1..4 (the smallest sum, then the
 * first in lexicographic order), then lexicographic orders of the piles
 * (permutations in lexicographic order). Returns 0 and *o, or -1. */
static int find_order(int k, const ns_rclass *cls, int nfam, order *o, int strict)
{
    order c;
    memset(&c, 0, sizeof c);
    int64_t best = INT64_MAX;
    int digits[NS_MAX_DIM];
    for (int i = 0; i < k; i++)
        digits[i] = 1;
    for (;;) {
        int64_t sum = 0;
        for (int i = 0; i < k; i++)
            sum += c.w[i] = digits[i];
        if (sum < best && order_works(&c, k, cls, nfam, NULL, strict, 0) == 0) {
            *o = c;
            best = sum;
        }
        int i = k - 1;
        while (i >= 0 && digits[i] == 4)
            digits[i--] = 1;
        if (i < 0)
            break;
        digits[i]++;
    }
    if (best != INT64_MAX)
        return 0;
    /* permutations in lexicographic order (next permutation) */
    int perm[NS_MAX_DIM];
    for (int i = 0; i < k; i++)
        perm[i] = i;
    memset(&c, 0, sizeof c);
    c.lex = 1;
    c.m = k;
    for (;;) {
        memset(c.a, 0, sizeof c.a);
        for (int i = 0; i < k; i++)
            c.a[i][perm[i]] = 1;
        if (order_works(&c, k, cls, nfam, NULL, strict, 0) == 0) {
            *o = c;
            return 0;
        }
        int i = k - 2;
        while (i >= 0 && perm[i] > perm[i + 1])
            i--;
        if (i < 0)
            return -1;
        int j = k - 1;
        while (perm[j] < perm[i])
            j--;
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        for (int a = i + 1, b = k - 1; a < b; a++, b--) {
            t = perm[a];
            perm[a] = perm[b];
            perm[b] = t;
        }
    }
}

/* "x + 2*y" or "lex(y, x)" for an order the compiler found */
static void order_text(const order *o, const ns_rules_prog *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (o->lex) {
        used += (size_t)snprintf(buf, len, "lex(");
        for (int c = 0; c < o->m && used < len; c++)
            for (int i = 0; i < p->k && used < len; i++)
                if (o->a[c][i])
                    used += (size_t)snprintf(buf + used, len - used, "%s%s", c ? ", " : "", p->pile_names[i]);
        if (used < len)
            snprintf(buf + used, len - used, ")");
        return;
    }
    for (int i = 0; i < p->k && used < len; i++) {
        if (o->w[i] == 1)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " + " : "", p->pile_names[i]);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%" PRId64 "*%s", i ? " + " : "", o->w[i], p->pile_names[i]);
    }
}

static int vec_small(int k, const int64_t *v)
{
    for (int i = 0; i < k; i++)
        if (v[i] > ((int64_t)1 << 40) || v[i] < -((int64_t)1 << 40))
            return 0;
    return 1;
}

/* ---------- the check of 'symmetric' ---------- */

typedef struct sym_opt {
    int64_t c[NS_MAX_DIM];
    int fam;
} sym_opt;

typedef struct sym_list {
    sym_opt *o;
    size_t n, cap;
    int k, fam, swap_a, swap_b;  /* swap_a >= 0: store the options with piles a, b exchanged */
    int oom;
} sym_list;

static int sym_collect(void *u, const int64_t *opt)
{
    sym_list *l = u;
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        sym_opt *o = realloc(l->o, nc * sizeof *o);
        if (!o) {
            l->oom = 1;
            return 1;
        }
        l->o = o;
        l->cap = nc;
    }
    sym_opt *x = &l->o[l->n++];
    memset(x, 0, sizeof *x);
    memcpy(x->c, opt, (size_t)l->k * sizeof *opt);
    if (l->swap_a >= 0) {
        int64_t t = x->c[l->swap_a];
        x->c[l->swap_a] = x->c[l->swap_b];
        x->c[l->swap_b] = t;
    }
    x->fam = l->fam;
    return 0;
}

static int sym_cmp(const void *a, const void *b)
{
    const sym_opt *x = a, *y = b;
    for (int i = 0; i < NS_MAX_DIM; i++)
        if (x->c[i] != y->c[i])
            return x->c[i] < y->c[i] ? -1 : 1;
    return 0;
}

/* Every option of s, family by family, into l (sorted): 0, 1 when a move
 * failed at s (an error of its own, reported when solving), -1 no memory. */
static int sym_options(const ns_game *g, const int64_t *s, sym_list *l)
{
    l->n = 0;
    for (int f = 0; f < g->nfam; f++) {
        ns_error e;
        ns_error_clear(&e);
        l->fam = f;
        int rc = ns_game_family_options(g, &g->fam[f], s, sym_collect, l, &e);
        if (l->oom)
            return -1;
        if (rc)
            return 1;
    }
    if (l->n > 1)
        qsort(l->o, l->n, sizeof *l->o, sym_cmp);
    return 0;
}

/* The first option of a (sorted) that b lacks, or NULL. */
static const sym_opt *sym_missing(const sym_list *a, const sym_list *b)
{
    size_t j = 0;
    for (size_t i = 0; i < a->n; i++) {
        while (j < b->n && sym_cmp(&b->o[j], &a->o[i]) < 0)
            j++;
        if (j == b->n || sym_cmp(&b->o[j], &a->o[i]) != 0)
            return &a->o[i];
    }
    return NULL;
}

/* 'symmetric' promises that exchanging two of its piles changes nothing:
 * checked on every cell of a small box (side 32 for two piles, at most 1024
 * cells, at least side 2): the domain holds at s exactly when it holds at
 * the mirrored cell s', and the options of s' are those of s mirrored. A
 * move that breaks it is named. The families must all be general ones (the
 * game's g->fam[j] is the program's family j). */
static ns_err check_symmetry(const ns_src *src, ns_game *g, const ns_rules_prog *p, ns_error *err)
{
    const int k = g->k;
    int64_t side = 2;
    for (int64_t t = 3; t <= 64; t++) {
        int64_t c = 1;
        for (int i = 0; i < k && c <= 1024; i++)
            c *= t;
        if (c > 1024)
            break;
        side = t;
    }
    int64_t b[NS_MAX_DIM], s[NS_MAX_DIM], m[NS_MAX_DIM];
    for (int i = 0; i < k; i++) {
        b[i] = side;
        s[i] = 0;
    }
    memcpy(g->bounds, b, sizeof b);
    g->sym_whole = 1;
    sym_list A = {.k = k, .swap_a = -1}, B = {.k = k};
    ns_err rc = NS_OK;
    /* pass 0: the domain on every cell, pass 1: the moves (the odometer
     * over the cells ends where it started, at 0) */
    for (int pass = 0, done = 0; pass < 2 && !rc; pass += done, done = 0) {
        for (int q = 0; q + 1 < p->nsym && !rc; q++) {
            const int a = p->sym[q], c = p->sym[q + 1];
            if (s[a] == s[c])
                continue;
            memcpy(m, s, sizeof m);
            m[a] = s[c];
            m[c] = s[a];
            char ps[160], pm[160];
            ns_format_pos(k, s, ps, sizeof ps);
            ns_format_pos(k, m, pm, sizeof pm);
            int vs = g->valid(g->valid_ctx, k, s), vm = g->valid(g->valid_ctx, k, m);
            if (vs != vm) {
                rc = ns_src_error(err, NS_EGAME, src, p->domain_off,
                                  "the domain is not symmetric in %s and %s, as 'symmetric' requires: %s is a position but %s is not",
                                  p->pile_names[a], p->pile_names[c], vs ? ps : pm, vs ? pm : ps);
                break;
            }
            if (!vs || pass == 0)
                continue;
            B.swap_a = a;
            B.swap_b = c;
            int ra = sym_options(g, s, &A), rb = ra ? ra : sym_options(g, m, &B);
            if (ra < 0 || rb < 0) {
                rc = ns_error_set(err, NS_ENOMEM, "out of memory");
                break;
            }
            if (ra || rb)
                continue;
            const sym_opt *x = sym_missing(&A, &B);
            int from_s = x != NULL;
            if (!x)
                x = sym_missing(&B, &A);
            if (!x)
                continue;
            int64_t o[NS_MAX_DIM];
            memcpy(o, x->c, sizeof o);
            if (!from_s) {
                /* x is an option of m, stored mirrored: show it as it is */
                int64_t t = o[a];
                o[a] = o[c];
                o[c] = t;
            }
            int64_t mo[NS_MAX_DIM];
            memcpy(mo, o, sizeof mo);
            mo[a] = o[c];
            mo[c] = o[a];
            char po[160], pmo[160];
            ns_format_pos(k, o, po, sizeof po);
            ns_format_pos(k, mo, pmo, sizeof pmo);
            const ns_rfam *f = &p->fam[x->fam];
            rc = ns_src_error(err, NS_EGAME, src, f->off,
                              "the moves are not symmetric in %s and %s, as 'symmetric' requires: this move leads from %s to %s, but no move leads from %s to %s%s%s%s",
                              p->pile_names[a], p->pile_names[c], from_s ? ps : pm, po, from_s ? pm : ps, pmo,
                              f->idx[0] ? " (" : "", f->idx, f->idx[0] ? ")" : "");
        }
        if (rc)
            break;
        int i = 0;
        while (i < k && ++s[i] == side)
            s[i++] = 0;
        done = i == k;
    }
    free(A.o);
    free(B.o);
    memset(g->bounds, 0, sizeof g->bounds);
    g->sym_whole = 0;
    return rc;
}

static ns_err compile(const char *text, const char *fname, const ns_params *ps, int k_hint, ns_game **out,
                      ns_rules_info **infop, ns_error *err)
{
    ns_ast_prog ast;
    ns_rules_prog prog;
    ns_game *g = NULL;
    ns_rules_info *info = NULL;
    ns_lin *dom = NULL;
    ns_rclass *cls = NULL;
    int ncls = 0;
    ns_err rc;
    *out = NULL;
    if (infop)
        *infop = NULL;
    if (!fname)
        fname = "(rules)";
    if (!text)
        return ns_error_set(err, NS_EINVAL, "%s: no rule text", fname);
    ns_src src = {text, strlen(text), fname};
    if ((rc = ns_rules_parse(&src, &ast, err)))
        return rc;
    rc = ns_rules_elaborate(&src, &ast, ps, k_hint, &prog, err);
    if (rc) {
        ns_ast_prog_free(&ast);
        return rc;
    }
    if (prog.heap) { /* a take-and-break heap game: ns_rules_heap.c */
        ns_ast_prog_free(&ast);
        info = infop ? calloc(1, sizeof *info) : NULL;
        if (infop && !info) {
            ns_rules_prog_free(&prog);
            return ns_error_set(err, NS_ENOMEM, "out of memory");
        }
        if ((rc = ns_rules_heap_build(&src, &prog, out, info, err))) {
            ns_rules_info_free(info);
            return rc;
        }
        if (infop)
            *infop = info;
        return NS_OK;
    }
    /* the name the file declares ("game NAME"), else "rules"; that it is a
     * rule file is said by rules_text, never by the name */
    g = ns_game_new(prog.title[0] ? prog.title : "rules", prog.k);
    char *copy = dup_str(text);
    info = infop ? calloc(1, sizeof *info) : NULL;
    if (!g || !copy || (infop && !info)) {
        free(copy);
        ns_rules_prog_free(&prog);
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    g->rules_text = copy;
    g->params = prog.params;
    g->play = prog.misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    g->outside_forbid = prog.outside_forbid;
    for (int i = 0; i < prog.k; i++)
        snprintf(g->coord_names[i], sizeof g->coord_names[i], "%.15s", prog.pile_names[i]);
    if (info) {
        snprintf(info->title, sizeof info->title, "%s", prog.title);
        info->nparams = prog.params.n;
        memcpy(info->param, prog.pinfo, sizeof info->param);
        info->ndropped = prog.ndropped;
        size_t used = 0;
        for (int i = 0; i < ast.nstmts && used < sizeof info->domain; i++) {
            const ns_stmt *st = &ast.stmts[i];
            if (st->kind != ST_DOMAIN)
                continue;
            info->has_filter |= st->filter;
            char buf[200];
            ns_src_excerpt(&src, st->off + 6, st->end, buf, sizeof buf);
            int r = snprintf(info->domain + used, sizeof info->domain - used, "%s%s", used ? "; " : "", buf);
            if (r < 0)
                break;
            used += (size_t)r;
        }
    }
    ns_rules_rt *rt = ns_rules_rt_new(&prog, fname);
    if (!rt) {
        ns_rules_prog_free(&prog);
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    if ((rc = ns_game_own(g, rt, ns_rules_rt_free, err)))
        goto fail;
    ns_rules_rt_attach(rt, g);
    ns_rules_prog *p = ns_rules_rt_prog(rt);
    const int k = p->k;
    src.text = g->rules_text;
    /* rank: a fixed non-negative weighting of the piles, or lex(...) of
     * such weightings */
    order ord;
    memset(&ord, 0, sizeof ord);
    for (int i = 0; i < k; i++)
        ord.w[i] = 1;
    if (p->rank >= 0 || p->nrank_lex) {
        const int m = p->rank >= 0 ? 1 : p->nrank_lex;
        ord.lex = p->rank < 0;
        ord.m = ord.lex ? m : 0;
        for (int c = 0; c < m; c++) {
            const int id = p->rank >= 0 ? p->rank : p->lists[p->rank_lex + c];
            ns_lin l;
            int ok = ns_lin_of(p->ir.n, id, k, NULL, 0, -1, &l) == 0;
            for (int i = 0; ok && i < k; i++)
                ok = l.p[i] >= 0 && l.p[i] <= 65536 && l.n[i] == 0;
            if (!ok) {
                char buf[96];
                ns_src_excerpt(&src, p->rank_off, p->rank_end, buf, sizeof buf);
                rc = ns_src_error(err, NS_EINVAL, &src, p->rank_off,
                                  ord.lex ? "each component of lex(...) must be a sum of piles with constant weights in 0..65536 (as in 'rank lex(x, y)'), found '%s'"
                                          : "the rank must be a sum of piles with constant weights in 0..65536 (as in 'rank 2*x + y'), found '%s'",
                                  buf);
                goto fail;
            }
            memcpy(ord.lex ? ord.a[c] : ord.w, l.p, (size_t)k * sizeof *l.p);
        }
    }
    char rank[200];
    rank_text(&src, p, rank, sizeof rank);
    if (info)
        snprintf(info->rank, sizeof info->rank, "%s", p->rank >= 0 || p->nrank_lex ? rank : "");
    /* domain: linear atoms for the proofs, those of the plain domain
     * statements (which moves must keep) first; a condition that is not
     * linear gives none */
    int dom_linear = 1, ndom = 0, nkeep = 0;
    if (p->ndomain || p->nsym) {
        g->valid = ns_rules_rt_valid;
        g->valid_ctx = rt;
    }
    if (p->ndomain) {
        dom = malloc(256 * sizeof *dom);
        if (!dom) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
        for (int i = 0; i < p->ndomain; i++) {
            int never = 0, before = ndom;
            if (ns_lin_atoms(p->ir.n, p->lists[p->domain + i], k, NULL, 0, -1, dom, &ndom, 256, &never)) {
                ndom = before;
                if (i < p->nstrict)
                    dom_linear = 0;
            }
            if (i + 1 == p->nstrict)
                nkeep = ndom;
        }
    }
    if (info) {
        info->fam = calloc((size_t)(p->nfam ? p->nfam : 1), sizeof *info->fam);
        if (!info->fam) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
        info->nfam = p->nfam;
    }
    char symtext[NS_MAX_DIM * 34] = "";
    for (int i = 0, used = 0; i < p->nsym && used < (int)sizeof symtext; i++) {
        int r = snprintf(symtext + used, sizeof symtext - (size_t)used, "%s%s", i ? ", " : "", p->pile_names[p->sym[i]]);
        if (r < 0)
            break;
        used += r;
    }
    if (info)
        snprintf(info->symmetric, sizeof info->symmetric, "%s", symtext);
    /* classify every family, then settle the order, then add them */
    cls = calloc((size_t)(p->nfam ? p->nfam : 1), sizeof *cls);
    if (!cls) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    ncls = p->nfam;
    for (int fi = 0; fi < p->nfam; fi++) {
        if (p->nsym) {
            /* options are sorted before they are looked up: per position */
            cls[fi].kind = NS_FAM_GENERAL;
            snprintf(cls[fi].why, sizeof cls[fi].why,
                     "the game is symmetric: every option is sorted along %.80s before it is looked up", symtext);
        } else if ((rc = ns_rules_classify(p, &p->fam[fi], k, p->nstrict > 0, dom_linear, dom, ndom, nkeep, &cls[fi],
                                           err))) {
            goto fail;
        }
        const ns_rclass *cl = &cls[fi];
        const int64_t *vs = cl->kind == NS_FAM_RAY ? cl->dir : cl->off;
        size_t nv = cl->kind == NS_FAM_RAY ? (size_t)cl->nrays : cl->kind == NS_FAM_FINITE ? cl->noff : 0;
        for (size_t j = 0; j < nv; j++)
            if (!vec_small(k, vs + j * (size_t)k) || (cl->kind == NS_FAM_RAY && !vec_small(k, cl->base + j * (size_t)k))) {
                rc = ns_src_error(err, NS_ERANGE, &src, p->fam[fi].off, "the move's step is too large (over 2^40)");
                goto fail;
            }
    }
    order_fail fl;
    /* In turn: the given (or default) order with every ray a ray; with no
     * rank given, an order found under which every ray is one; the given
     * order with rays whose options all lower it run as general families;
     * with no rank given, an order found with such families; the given
     * order with rays whose first option lowers it, their later options
     * checked as they are made (general families). */
    if (order_works(&ord, k, cls, p->nfam, &fl, 1, 0)) {
        order found;
        char tail[200] = "";
        const int free_order = p->rank < 0 && !p->nrank_lex;
        int got = free_order && find_order(k, cls, p->nfam, &found, 1) == 0;
        if (!got && order_works(&ord, k, cls, p->nfam, NULL, 0, 0) == 0)
            goto settled;
        if (!got)
            got = free_order && find_order(k, cls, p->nfam, &found, 0) == 0;
        if (!got && order_works(&ord, k, cls, p->nfam, &fl, 0, 1) == 0)
            goto settled;
        if (free_order) {
            if (got) {
                char ftext[200], why[400], pos[160];
                order_text(&found, p, ftext, sizeof ftext);
                ns_format_pos(k, fl.v, pos, sizeof pos);
                int line, col;
                ns_src_linecol(&src, p->fam[fl.fam].off, &line, &col);
                snprintf(why, sizeof why, "the sum of the piles fails (line %d: %s %.80s changes it by %+" PRId64 "); %.100s lowers every ray and finite move%s",
                         line, fl.what, pos, dot(k, ord.w, fl.v), ftext, found.lex ? "" : " (weights tried: 1..4)");
                if (info) {
                    snprintf(info->rank, sizeof info->rank, "%s", ftext);
                    snprintf(info->order, sizeof info->order, "%s", why);
                }
                snprintf(rank, sizeof rank, "%s", ftext);
                ord = found;
                goto settled;
            }
            /* no order: a loopy game, solved by retrograde analysis */
            loopy_reason(&src, k, &p->fam[fl.fam], &cls[fl.fam], &fl, rank, ord.w, g->loopy_why, sizeof g->loopy_why);
            g->loopy = 1;
            goto settled;
        }
        rc = order_error(&src, &ord, k, &p->fam[fl.fam], rank, &fl, tail, err);
        goto fail;
    }
settled:
    if (ord.lex) {
        g->rank_nlex = ord.m;
        memcpy(g->rank_lex, ord.a, sizeof ord.a);
    } else {
        memcpy(g->rank_w, ord.w, (size_t)k * sizeof *ord.w);
    }
    /* symmetric piles: equal weights in the rank (in each component of a
     * lexicographic one), so sorting keeps it */
    if (p->nsym) {
        for (int c = 0; c < (ord.lex ? ord.m : 1); c++)
            for (int i = 1; i < p->nsym; i++) {
                const int64_t *w = ord.lex ? ord.a[c] : ord.w;
                if (w[p->sym[i]] != w[p->sym[0]]) {
                    rc = ns_src_error(err, NS_EINVAL, &src, p->sym_off,
                                      "the piles of 'symmetric' must have equal weights in the rank: %s weighs %" PRId64 ", %s %" PRId64,
                                      p->pile_names[p->sym[0]], w[p->sym[0]], p->pile_names[p->sym[i]], w[p->sym[i]]);
                    goto fail;
                }
            }
        g->nsym = p->nsym;
        memcpy(g->sym, p->sym, sizeof g->sym);
    }
    for (int fi = 0; fi < p->nfam; fi++) {
        const ns_rfam *f = &p->fam[fi];
        const ns_rclass *cl = &cls[fi];
        char label[NS_NAME_LEN], stmt[200];
        int line, col;
        ns_src_linecol(&src, f->off, &line, &col);
        ns_src_excerpt(&src, f->off + 4, f->end, stmt, sizeof stmt);
        char full[300];
        if (f->idx[0])
            snprintf(full, sizeof full, "line %d [%s]: %s", line, f->idx, stmt);
        else
            snprintf(full, sizeof full, "line %d: %s", line, stmt);
        size_t fl_len = strlen(full);
        if (fl_len < sizeof label) {
            memcpy(label, full, fl_len + 1);
        } else {
            memcpy(label, full, sizeof label - 4);
            memcpy(label + sizeof label - 4, "...", 4);
        }
        int first = g->nfam;
        const int64_t *bad;
        const char *what;
        int under = fam_under(&ord, k, cl, &bad, &what, 1);
        ns_fam_kind kind = under == FAM_GENERAL && !g->loopy ? NS_FAM_GENERAL : cl->kind;
        if (kind == NS_FAM_RAY) {
            for (int r = 0; r < cl->nrays; r++) {
                const int64_t *d = cl->dir + (size_t)r * (size_t)k, *e = cl->base + (size_t)r * (size_t)k;
                if ((rc = ns_game_add_ray(g, label, d, e, err)))
                    goto fail;
            }
        } else if (kind == NS_FAM_FINITE) {
            if (cl->noff && (rc = ns_game_add_finite(g, label, cl->off, cl->noff, err)))
                goto fail;
        } else if ((rc = ns_rules_rt_add_general(rt, g, fi, label, err))) {
            goto fail;
        }
        f = &p->fam[fi];
        /* a subsets family (Moore's Nim_k): the general engine runs it as
         * running sets; the compiled callback still lists its options */
        uint32_t sub_piles = 0;
        int sub_k = 0;
        uint64_t sub_pat[4] = {0};
        const int is_sub = kind == NS_FAM_GENERAL && cl->kind == NS_FAM_GENERAL && !p->ndomain && !p->nsym &&
                           !g->loopy && g->nfam == first + 1 &&
                           ns_rules_subsets_of(p, f, k, &sub_piles, &sub_k, sub_pat);
        if (is_sub) {
            g->fam[first].sub_k = sub_k;
            g->fam[first].sub_piles = sub_piles;
            if (!sub_k)
                memcpy(g->fam[first].sub_pat, sub_pat, sizeof sub_pat);
        }
        if (info) {
            ns_rules_fam_info *fo = &info->fam[fi];
            fo->line = line;
            fo->col = col;
            snprintf(fo->idx, sizeof fo->idx, "%s", f->idx);
            snprintf(fo->text, sizeof fo->text, "%s", stmt);
            fo->kind = g->nfam > first ? g->fam[first].kind : kind;
            fo->first = first;
            fo->count = g->nfam - first;
            if (under == FAM_GENERAL && !g->loopy)
                snprintf(fo->why, sizeof fo->why, "its direction does not lower the order %.30s, its first option does: a general family, each option checked as made", rank);
            else if (is_sub)
                snprintf(fo->why, sizeof fo->why,
                         "recognised as a %s family: ranges 0..pile or 1..pile, new piles pile - variable, "
                         "conditions that read only which variables are positive",
                         sub_k ? "subsets" : "patterns");
            else
                snprintf(fo->why, sizeof fo->why, "%s", cl->why);
        }
    }
    if ((rc = ns_rules_rt_finish(rt, err)))
        goto fail;
    if (p->nsym && (rc = check_symmetry(&src, g, p, err)))
        goto fail;
    if (!g->loopy && p->rank < 0 && !p->nrank_lex)
        probe_general(g, rank);
    for (int i = 0; i < ncls; i++)
        ns_rclass_free(&cls[i]);
    free(cls);
    free(dom);
    ns_ast_prog_free(&ast);
    *out = g;
    if (infop)
        *infop = info;
    return NS_OK;
fail:
    for (int i = 0; i < ncls; i++)
        ns_rclass_free(&cls[i]);
    free(cls);
    free(dom);
    ns_ast_prog_free(&ast);
    ns_game_free(g);
    ns_rules_info_free(info);
    return rc;
}

ns_err ns_rules_compile(const char *text, const char *fname, const ns_params *ps, int k_hint, ns_game **out,
                        ns_error *err)
{
    return compile(text, fname, ps, k_hint, out, NULL, err);
}

ns_err ns_rules_compile_info(const char *text, const char *fname, const ns_params *ps, int k_hint, ns_game **out,
                             ns_rules_info **info, ns_error *err)
{
    return compile(text, fname, ps, k_hint, out, info, err);
}

ns_err ns_rules_read_file(const char *path, char **text, ns_error *err)
{
    *text = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return ns_error_set(err, NS_EIO, "cannot open rule file '%s': %s", path, strerror(errno));
    char *buf = malloc(MAX_FILE + 2);
    if (!buf) {
        fclose(fp);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    size_t n = fread(buf, 1, MAX_FILE + 1, fp);
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return ns_error_set(err, NS_EIO, "cannot read rule file '%s'", path);
    }
    if (n > MAX_FILE) {
        free(buf);
        return ns_error_set(err, NS_EINVAL, "%s: the rule file is larger than 1 MiB", path);
    }
    buf[n] = '\0';
    const char *nul = memchr(buf, '\0', n);
    if (nul) {
        ns_src src = {buf, (size_t)(nul - buf), path};
        ns_err rc = ns_src_error(err, NS_EINVAL, &src, (size_t)(nul - buf), "unexpected NUL byte: expected a text file");
        free(buf);
        return rc;
    }
    *text = buf;
    return NS_OK;
}

ns_err ns_rules_compile_file(const char *path, const ns_params *ps, int k_hint, ns_game **out, ns_error *err)
{
    char *text;
    *out = NULL;
    ns_err rc = ns_rules_read_file(path, &text, err);
    if (rc)
        return rc;
    rc = ns_rules_compile(text, path, ps, k_hint, out, err);
    free(text);
    return rc;
}
