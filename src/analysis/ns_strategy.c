/* ns_strategy.c - see ns_strategy.h */
#include "analysis/ns_strategy.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_exact.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"

void ns_moves_free(ns_moves *m)
{
    free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
}

static int push(ns_moves *m, int k, const int64_t *from, const int64_t *to)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 8;
        ns_move *v = realloc(m->v, cap * sizeof *v);
        if (!v)
            return -1;
        m->v = v;
        m->cap = cap;
    }
    ns_move *mv = &m->v[m->n++];
    memset(mv, 0, sizeof *mv);
    mv->k = k;
    memcpy(mv->from, from, (size_t)k * sizeof *from);
    memcpy(mv->to, to, (size_t)k * sizeof *to);
    return 0;
}

typedef struct table_ctx {
    const ns_game *g;
    const ns_table *t;
    const int64_t *s;
    int all;
    ns_moves *out;
    ns_error *err;
    int failed;
} table_ctx;

static int table_emit(void *user, const int64_t *o)
{
    table_ctx *c = user;
    if (!ns_table_contains(c->t, o)) {
        c->failed = ns_error_set(c->err, NS_EFORMAT, "an option lies outside the table");
        return -1;
    }
    uint32_t v = ns_table_get(c->t, ns_table_index(c->t, o));
    if (v == ns_table_invalid(c->t)) {
        char a[160];
        ns_format_pos(c->g->k, o, a, sizeof a);
        c->failed = ns_error_set(c->err, NS_EFORMAT, "the option %s is not a position in the table", a);
        return -1;
    }
    if (v != 0)
        return 0;
    if (push(c->out, c->g->k, c->s, o)) {
        c->failed = ns_error_set(c->err, NS_ENOMEM, "out of memory");
        return -1;
    }
    return c->all ? 0 : 1;
}

ns_err ns_strategy_from_table(const ns_game *g, const ns_table *t, const int64_t *s, int all,
                              ns_moves *out, uint32_t *value, ns_error *err)
{
    if (g->k != t->k)
        return ns_error_set(err, NS_EINVAL, "the table has %d dimensions but the game %d piles", t->k, g->k);
    if (!ns_table_contains(t, s) || !ns_game_is_position(g, s)) {
        char a[160];
        ns_format_pos(g->k, s, a, sizeof a);
        return ns_error_set(err, NS_EINVAL, "%s is not a position of the table", a);
    }
    uint32_t v = ns_table_get(t, ns_table_index(t, s));
    if (v == ns_table_invalid(t)) {
        char a[160];
        ns_format_pos(g->k, s, a, sizeof a);
        return ns_error_set(err, NS_EINVAL, "%s is not a position of the game", a);
    }
    if (value)
        *value = v;
    out->n = 0;
    if (v == 0)
        return NS_OK; /* P: no option is P */
    table_ctx c = {g, t, s, all, out, err, 0};
    int rc = ns_game_foreach_option(g, s, table_emit, &c, err);
    if (c.failed)
        return c.failed;
    if (rc < 0)
        return err && err->code ? err->code : NS_EINTERNAL;
    return NS_OK;
}

typedef struct loopy_ctx {
    const ns_game *g;
    const ns_table *t;
    const uint32_t *rem;
    const int64_t *s;
    uint32_t want;   /* the kind of option to collect: 0 P, 1 N (any), 3 D */
    ns_moves *out;
    ns_error *err;
    int failed;
    size_t nbad;     /* options of a kind that contradicts s's value */
} loopy_ctx;

static int loopy_emit(void *user, const int64_t *o)
{
    loopy_ctx *c = user;
    char a[160];
    if (!ns_table_contains(c->t, o)) {
        c->failed = ns_error_set(c->err, NS_EFORMAT, "an option lies outside the table");
        return -1;
    }
    uint64_t i = ns_table_index(c->t, o);
    uint32_t v = ns_table_get(c->t, i);
    if (v == ns_table_invalid(c->t)) {
        ns_format_pos(c->g->k, o, a, sizeof a);
        c->failed = ns_error_set(c->err, NS_EFORMAT, "the option %s is not a position in the table", a);
        return -1;
    }
    if (v != NS_PN_P && v != NS_PN_N && v != NS_PN_DRAW) {
        ns_format_pos(c->g->k, o, a, sizeof a);
        c->failed = ns_error_set(c->err, NS_EFORMAT, "the option %s has the code %" PRIu32 ", expected 0 (P), 1 (N) or 3 (D)", a, v);
        return -1;
    }
    /* an N-position collects P options; a P-position may only have N
     * options; a draw collects D options and may have no P option */
    if (c->want == NS_PN_N ? v != NS_PN_N : c->want == NS_PN_DRAW && v == NS_PN_P)
        c->nbad++;
    if (v != c->want)
        return 0;
    if (v != NS_PN_DRAW && c->rem[i] == UINT32_MAX) {
        ns_format_pos(c->g->k, o, a, sizeof a);
        c->failed = ns_error_set(c->err, NS_EFORMAT, "the option %s is %s but has no remoteness", a, v == 0 ? "P" : "N");
        return -1;
    }
    if (push(c->out, c->g->k, c->s, o)) {
        c->failed = ns_error_set(c->err, NS_ENOMEM, "out of memory");
        return -1;
    }
    c->out->v[c->out->n - 1].rem = c->rem[i];
    return 0;
}

ns_err ns_strategy_loopy(const ns_game *g, const ns_table *t, const uint32_t *rem, const int64_t *s, int all,
                         ns_moves *out, uint32_t *value, size_t *nbest, ns_error *err)
{
    char a[160];
    ns_format_pos(g->k, s, a, sizeof a);
    if (g->k != t->k)
        return ns_error_set(err, NS_EINVAL, "the table has %d dimensions but the game %d piles", t->k, g->k);
    if (!t->pn_only)
        return ns_error_set(err, NS_EINVAL, "a loopy game's move needs its P/N/D table, not a Grundy table");
    if (!ns_table_contains(t, s) || !ns_game_is_position(g, s))
        return ns_error_set(err, NS_EINVAL, "%s is not a position of the table", a);
    uint64_t si = ns_table_index(t, s);
    uint32_t v = ns_table_get(t, si);
    if (v == ns_table_invalid(t))
        return ns_error_set(err, NS_EINVAL, "%s is not a position of the game", a);
    if (v != NS_PN_P && v != NS_PN_N && v != NS_PN_DRAW)
        return ns_error_set(err, NS_EFORMAT, "%s has the code %" PRIu32 ", expected 0 (P), 1 (N) or 3 (D)", a, v);
    if (value)
        *value = v;
    out->n = 0;
    loopy_ctx c = {g, t, rem, s, v == NS_PN_N ? NS_PN_P : v == NS_PN_P ? NS_PN_N : NS_PN_DRAW, out, err, 0, 0};
    int rc = ns_game_foreach_option(g, s, loopy_emit, &c, err);
    if (c.failed)
        return c.failed;
    if (rc < 0)
        return err && err->code ? err->code : NS_EINTERNAL;
    if (c.nbad)
        return ns_error_set(err, NS_EFORMAT, "%s is %s but has %zu option%s that %s", a, v == 0 ? "P" : "D", c.nbad,
                            c.nbad == 1 ? "" : "s", v == 0 ? "are not N (a P-position's options are all N)" : "are P (a draw has no P option)");
    if (v != NS_PN_P && out->n == 0)
        return ns_error_set(err, NS_EFORMAT, "%s is %s but has no %s option", a, v == NS_PN_N ? "N" : "D", v == NS_PN_N ? "P" : "D");
    /* the best: N the smallest remoteness, P the largest, D any */
    size_t best = 0, nb = out->n;
    if (v != NS_PN_DRAW && out->n) {
        for (size_t i = 1; i < out->n; i++)
            if (v == NS_PN_N ? out->v[i].rem < out->v[best].rem : out->v[i].rem > out->v[best].rem)
                best = i;
        nb = 0;
        for (size_t i = 0; i < out->n; i++)
            nb += out->v[i].rem == out->v[best].rem;
        if (rem[si] == UINT32_MAX || out->v[best].rem + 1 != rem[si])
            return ns_error_set(err, NS_EFORMAT, "%s has the remoteness %" PRIu32 " but its best move leads to remoteness %" PRIu32 " (expected one less)",
                                a, rem[si], out->v[best].rem);
    }
    if (nbest)
        *nbest = nb;
    if (!all && out->n) {
        out->v[0] = out->v[best];
        out->n = 1;
    }
    return NS_OK;
}

int ns_nim_moves(int k, const int64_t *p, ns_move *out)
{
    if (k < 1 || k > NS_MAX_DIM)
        return -1;
    int64_t x = 0;
    for (int i = 0; i < k; i++) {
        if (p[i] < 0)
            return -1;
        x ^= p[i];
    }
    int n = 0;
    if (x == 0)
        return 0;
    for (int i = 0; i < k; i++) {
        int64_t q = p[i] ^ x;
        if (q < p[i]) {
            ns_move *m = &out[n++];
            memset(m, 0, sizeof *m);
            m->k = k;
            memcpy(m->from, p, (size_t)k * sizeof *p);
            memcpy(m->to, p, (size_t)k * sizeof *p);
            m->to[i] = q;
        }
    }
    return n;
}

static void set2(ns_move *m, int64_t a, int64_t b, int64_t x, int64_t y)
{
    memset(m, 0, sizeof *m);
    m->k = 2;
    m->from[0] = a;
    m->from[1] = b;
    m->to[0] = x;
    m->to[1] = y;
}

int ns_wythoff_moves(int64_t a, int64_t b, ns_move *out)
{
    if (a < 0 || b < 0 || a > NS_EXACT_MAX || b > NS_EXACT_MAX)
        return -1;
    if (ns_wythoff_is_p(a, b))
        return 0;
    int n = 0;
    /* one pile: a P-position keeping the other pile is (partner, other) */
    int64_t pb = ns_wythoff_partner(b), pa = ns_wythoff_partner(a);
    if (pb < a)
        set2(&out[n++], a, b, pb, b);
    if (pa < b)
        set2(&out[n++], a, b, a, pa);
    /* both piles: the difference stays, so the target is the P-position
     * with that difference d: (0,0) for d = 0, else (a_d, a_d + d) */
    int64_t lo = a < b ? a : b, d = a < b ? b - a : a - b;
    int64_t ad = ns_floor_phi(d);
    if (ad < lo) {
        int64_t t = lo - ad;
        set2(&out[n++], a, b, a - t, b - t);
    }
    return n;
}

int64_t ns_staircase_xor(int64_t k, const int64_t *c)
{
    int64_t x = 0;
    for (int64_t i = 0; i < k; i += 2)
        x ^= c[i];
    return x;
}

int ns_staircase_move_at(int64_t k, const int64_t *c, int64_t i, int64_t *t)
{
    if (i < 0 || i >= k)
        return 0;
    int64_t x = ns_staircase_xor(k, c);
    if (x == 0)
        return 0;
    /* coins from step i+1 go to step i (index i-1), or off the stairs:
     * an odd step (even index) shrinks to c_i xor x; an even step grows
     * its lower odd neighbour to c_{i-1} xor x, by at most c_i */
    if (i % 2 == 0) {
        int64_t q = c[i] ^ x;
        if (q >= c[i])
            return 0;
        *t = c[i] - q;
        return 1;
    }
    int64_t q = c[i - 1] ^ x;
    if (q <= c[i - 1] || q - c[i - 1] > c[i])
        return 0;
    *t = q - c[i - 1];
    return 1;
}

int ns_staircase_moves(int k, const int64_t *c, ns_move *out)
{
    if (k < 1 || k > NS_MAX_DIM)
        return -1;
    for (int i = 0; i < k; i++)
        if (c[i] < 0)
            return -1;
    int n = 0;
    for (int i = 0; i < k; i++) {
        int64_t t;
        if (!ns_staircase_move_at(k, c, i, &t))
            continue;
        ns_move *m = &out[n++];
        memset(m, 0, sizeof *m);
        m->k = k;
        memcpy(m->from, c, (size_t)k * sizeof *c);
        memcpy(m->to, c, (size_t)k * sizeof *c);
        m->to[i] -= t;
        if (i > 0)
            m->to[i - 1] += t;
    }
    return n;
}

ns_err ns_staircase_by_table(int k, const int64_t *c, uint64_t max_cells, int threads, ns_moves *out,
                             int *is_p, ns_error *err)
{
    if (k < 1 || k > NS_MAX_DIM)
        return ns_error_set(err, NS_ERANGE, "staircase with %d steps: the engine holds 1 to %d", k, NS_MAX_DIM);
    int64_t bounds[NS_MAX_DIM];
    int64_t suffix = 0;
    uint64_t cells = 1;
    for (int i = k - 1; i >= 0; i--) {
        if (c[i] < 0 || c[i] > ((int64_t)1 << 40))
            return ns_error_set(err, NS_ERANGE, "staircase: step %d holds %" PRId64 " coins", i + 1, c[i]);
        suffix += c[i];
        bounds[i] = suffix + 1;
    }
    for (int i = 0; i < k; i++) {
        if (cells > max_cells / (uint64_t)bounds[i])
            return ns_error_set(err, NS_ERANGE, "staircase table would have more than %" PRIu64 " cells", max_cells);
        cells *= (uint64_t)bounds[i];
    }
    ns_params ps = {0};
    int64_t kk = k;
    ns_err rc = ns_params_set(&ps, "piles", &kk, 1, err);
    if (rc)
        return rc;
    ns_table *t = NULL;
    ns_game *g = ns_preset_build("staircase", &ps, k, err);
    if (!g)
        return err && err->code ? err->code : NS_ENOMEM;
    rc = ns_game_set_bounds(g, bounds, err);
    if (rc)
        goto fail;
    t = ns_engine_table_new(g, 1, err);
    if (!t) {
        rc = err && err->code ? err->code : NS_ENOMEM;
        goto fail;
    }
    ns_engine_opts opts = {.threads = threads, .pn_only = 1};
    rc = ns_engine_run(g, t, &opts, err);
    if (rc)
        goto fail;
    uint32_t v = 0;
    rc = ns_strategy_from_table(g, t, c, 1, out, &v, err);
    if (!rc)
        *is_p = v == 0;
fail:
    ns_table_free(t);
    ns_game_free(g);
    return rc;
}
