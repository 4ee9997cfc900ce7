/* ns_game.c - see ns_game.h */
#include "game/ns_game.h"
#include "game/ns_octal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ns_game *ns_game_new(const char *name, int k)
{
    if (k < 1 || k > NS_MAX_DIM)
        return NULL;
    ns_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    snprintf(g->name, sizeof g->name, "%s", name ? name : "game");
    g->k = k;
    for (int i = 0; i < k; i++) {
        g->rank_w[i] = 1;
        snprintf(g->coord_names[i], sizeof g->coord_names[i], "p%d", i + 1);
    }
    return g;
}

void ns_game_free(ns_game *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nfam; i++)
        free(g->fam[i].offsets);
    free(g->fam);
    for (int i = 0; i < g->nowned; i++)
        if (g->owned_free[i])
            g->owned_free[i](g->owned[i]);
    free(g->owned);
    free(g->owned_free);
    free(g->rules_text);
    free(g);
}

ns_err ns_game_own(ns_game *g, void *block, void (*free_fn)(void *), ns_error *err)
{
    void **o = realloc(g->owned, (size_t)(g->nowned + 1) * sizeof *o);
    if (!o) {
        if (free_fn)
            free_fn(block);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    g->owned = o;
    void (**f)(void *) = realloc(g->owned_free, (size_t)(g->nowned + 1) * sizeof *f);
    if (!f) {
        if (free_fn)
            free_fn(block);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    g->owned_free = f;
    g->owned[g->nowned] = block;
    g->owned_free[g->nowned] = free_fn;
    g->nowned++;
    return NS_OK;
}

static ns_family *new_family(ns_game *g, ns_fam_kind kind, const char *label, ns_error *err)
{
    if (g->nfam == g->capfam) { /* grow geometrically: rule files may add thousands */
        int cap = g->capfam ? 2 * g->capfam : 8;
        ns_family *f = realloc(g->fam, (size_t)cap * sizeof *f);
        if (!f) {
            ns_error_set(err, NS_ENOMEM, "out of memory");
            return NULL;
        }
        g->fam = f;
        g->capfam = cap;
    }
    ns_family *nf = &g->fam[g->nfam++];
    memset(nf, 0, sizeof *nf);
    nf->kind = kind;
    snprintf(nf->label, sizeof nf->label, "%s", label ? label : "moves");
    return nf;
}

ns_err ns_game_add_ray(ns_game *g, const char *label, const int64_t *dir,
                       const int64_t *base, ns_error *err)
{
    int nz = 0;
    for (int i = 0; i < g->k; i++)
        nz |= dir[i] != 0;
    if (!nz)
        return ns_error_set(err, NS_EGAME, "move family '%s': direction is the zero vector", label);
    ns_family *f = new_family(g, NS_FAM_RAY, label, err);
    if (!f)
        return NS_ENOMEM;
    memcpy(f->dir, dir, (size_t)g->k * sizeof *dir);
    memcpy(f->base, base ? base : dir, (size_t)g->k * sizeof *dir);
    return NS_OK;
}

ns_err ns_game_add_finite(ns_game *g, const char *label, const int64_t *offsets,
                          size_t noffsets, ns_error *err)
{
    int64_t *copy = NULL;
    if (noffsets) {
        copy = malloc(noffsets * (size_t)g->k * sizeof *copy);
        if (!copy)
            return ns_error_set(err, NS_ENOMEM, "out of memory");
        memcpy(copy, offsets, noffsets * (size_t)g->k * sizeof *copy);
    }
    ns_family *f = new_family(g, NS_FAM_FINITE, label, err);
    if (!f) {
        free(copy);
        return NS_ENOMEM;
    }
    f->offsets = copy;
    f->noffsets = noffsets;
    return NS_OK;
}

ns_err ns_game_add_general(ns_game *g, const char *label, ns_options_fn fn,
                           ns_maxopt_fn maxopt, const void *ctx, ns_error *err)
{
    if (!fn)
        return ns_error_set(err, NS_EINTERNAL, "move family '%s': no options callback", label);
    ns_family *f = new_family(g, NS_FAM_GENERAL, label, err);
    if (!f)
        return NS_ENOMEM;
    f->options = fn;
    f->max_options = maxopt;
    f->ctx = ctx;
    return NS_OK;
}

/* ---- subsets families: lower 1..kmax of the piles in a set ---- */
typedef struct subsets_ctx {
    int n;              /* coordinates of the game */
    uint32_t piles;     /* bit i: pile i may be lowered */
    int kmax;
} subsets_ctx;

/* Piles i.. of s: pile i kept, or (when in the set and fewer than kmax
 * chosen) lowered by 1..s_i; o holds the option being built. */
static int subsets_rec(const subsets_ctx *c, const int64_t *s, int64_t *o, int i, int chosen, ns_emit_fn emit,
                       void *user)
{
    if (i == c->n)
        return chosen ? emit(user, o) : 0;
    int rc = subsets_rec(c, s, o, i + 1, chosen, emit, user);
    if (rc || chosen == c->kmax || !(c->piles >> i & 1))
        return rc;
    for (int64_t t = 1; t <= s[i]; t++) {
        o[i] = s[i] - t;
        rc = subsets_rec(c, s, o, i + 1, chosen + 1, emit, user);
        if (rc)
            break;
    }
    o[i] = s[i];
    return rc;
}

static int subsets_options(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)err;
    const subsets_ctx *c = ctx;
    int64_t o[NS_MAX_DIM];
    memcpy(o, s, (size_t)c->n * sizeof *o);
    return subsets_rec(c, s, o, 0, 0, emit, user);
}

/* The number of options of the top cell: the sum over sets T of 1..kmax
 * piles of the set of prod_{i in T} (N_i - 1), by dynamic programming on
 * (piles seen, piles chosen), saturating. */
static uint64_t subsets_maxopt(const void *ctx, int k, const int64_t *b)
{
    const subsets_ctx *c = ctx;
    uint64_t dp[NS_MAX_DIM + 1] = {1};
    for (int i = 0; i < k; i++) {
        if (!(c->piles >> i & 1))
            continue;
        for (int j = c->kmax; j >= 1; j--) {
            uint64_t m = (uint64_t)(b[i] - 1);
            uint64_t add = (m && dp[j - 1] > UINT64_MAX / m) ? UINT64_MAX : dp[j - 1] * m;
            dp[j] = dp[j] > UINT64_MAX - add ? UINT64_MAX : dp[j] + add;
        }
    }
    uint64_t sum = 0;
    for (int j = 1; j <= c->kmax; j++)
        sum = sum > UINT64_MAX - dp[j] ? UINT64_MAX : sum + dp[j];
    return sum;
}

ns_err ns_game_add_subsets(ns_game *g, const char *label, uint32_t piles, int kmax, ns_error *err)
{
    const int np = __builtin_popcount(piles);
    if (np == 0 || (g->k < 32 && piles >> g->k) || kmax < 1)
        return ns_error_set(err, NS_EINTERNAL, "move family '%s': bad pile set 0x%x or k = %d for %d piles", label,
                            (unsigned)piles, kmax, g->k);
    subsets_ctx *c = malloc(sizeof *c);
    if (!c)
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    c->n = g->k;
    c->piles = piles;
    c->kmax = kmax < np ? kmax : np;
    ns_err rc = ns_game_own(g, c, free, err);
    if (rc)
        return rc;
    if ((rc = ns_game_add_general(g, label, subsets_options, subsets_maxopt, c, err)))
        return rc;
    g->fam[g->nfam - 1].sub_k = c->kmax;
    g->fam[g->nfam - 1].sub_piles = piles;
    return NS_OK;
}

int ns_family_has_patterns(const ns_family *f)
{
    return f->kind == NS_FAM_GENERAL && f->sub_k == 0 && f->sub_piles &&
           (f->sub_pat[0] | f->sub_pat[1] | f->sub_pat[2] | f->sub_pat[3]);
}

int ns_family_pattern_sets(const ns_family *f, uint32_t *out, int cap)
{
    if (!ns_family_has_patterns(f))
        return 0;
    int n = 0;
    for (uint32_t T = 1; T < 256; T++) {
        if (!(f->sub_pat[T >> 6] >> (T & 63) & 1) || (T & ~f->sub_piles))
            continue;
        /* T, then T less its highest pile, ... down to one pile */
        for (uint32_t u = T; u; u &= ~((uint32_t)1 << (31 - __builtin_clz(u)))) {
            int seen = 0;
            for (int i = 0; i < n && i < cap; i++)
                seen |= out[i] == u;
            if (seen)
                break; /* and so are the smaller ones of its chain */
            if (n < cap)
                out[n] = u;
            n++;
        }
    }
    return n;
}

ns_err ns_game_add_prefix(ns_game *g, const char *label, int axis, ns_options_fn fn,
                          ns_maxopt_fn maxopt, const void *ctx, ns_error *err)
{
    if (!fn)
        return ns_error_set(err, NS_EINTERNAL, "move family '%s': no options callback", label);
    if (axis < 0 || axis >= g->k)
        return ns_error_set(err, NS_EINTERNAL, "move family '%s': axis %d, expected 0..%d", label, axis, g->k - 1);
    ns_family *f = new_family(g, NS_FAM_PREFIX, label, err);
    if (!f)
        return NS_ENOMEM;
    f->options = fn;
    f->max_options = maxopt;
    f->ctx = ctx;
    f->axis = axis;
    return NS_OK;
}

void ns_format_pos(int k, const int64_t *s, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < k && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%" PRId64, i ? ", " : "(", s[i]);
        if (w < 0)
            return;
        used += (size_t)w;
    }
    if (used < len)
        snprintf(buf + used, len - used, ")");
}

static int64_t dot(int k, const int64_t *a, const int64_t *b)
{
    int64_t r = 0;
    for (int i = 0; i < k; i++)
        r += a[i] * b[i];
    return r;
}

/* w . v fits easily in 64 bits (|w . v| <= 2^62, term by term too): the
 * engine computes it without checks. Weights of a lexicographic rank are
 * large, so a step far outside the box could overflow. */
static int dot_fits(int k, const int64_t *w, const int64_t *v)
{
    __extension__ typedef __int128 wide;
    const wide lim = (wide)1 << 62;
    wide r = 0;
    for (int i = 0; i < k; i++) {
        wide t = (wide)w[i] * v[i];
        if (t > lim || t < -lim)
            return 0;
        r += t;
    }
    return r <= lim && r >= -lim;
}

ns_err ns_game_set_bounds(ns_game *g, const int64_t *bounds, ns_error *err)
{
    const uint64_t limit = (uint64_t)1 << 62;
    uint64_t cells = 1;
    for (int i = 0; i < g->k; i++) {
        if (bounds[i] < 1)
            return ns_error_set(err, NS_EINVAL, "bound %d is %" PRId64 ": expected a positive size", i + 1, bounds[i]);
        if (bounds[i] > (int64_t)(limit / cells))
            return ns_error_set(err, NS_ERANGE, "the box has more than 2^62 cells: the sizes overflow");
        cells *= (uint64_t)bounds[i];
        if (cells > limit)
            return ns_error_set(err, NS_ERANGE, "the box has more than 2^62 cells: the sizes overflow");
    }
    if (g->rank_nlex > 0) {
        /* W_{m-1} = 1, W_i = W_{i+1} * (1 + max c_{i+1}); all below 2^62 */
        int64_t W[NS_MAX_DIM], w[NS_MAX_DIM] = {0};
        int64_t levels = 1;
        for (int c = g->rank_nlex - 1; c >= 0; c--) {
            int64_t top = 0, t;
            W[c] = levels;
            for (int i = 0; i < g->k; i++)
                if (__builtin_mul_overflow(g->rank_lex[c][i], bounds[i] - 1, &t) || __builtin_add_overflow(top, t, &top))
                    return ns_error_set(err, NS_ERANGE, "the lexicographic rank has more than 2^62 levels in this box");
            if (__builtin_mul_overflow(levels, top + 1, &levels) || levels > ((int64_t)1 << 62))
                return ns_error_set(err, NS_ERANGE, "the lexicographic rank has more than 2^62 levels in this box");
        }
        for (int c = 0; c < g->rank_nlex; c++)
            for (int i = 0; i < g->k; i++) {
                int64_t t;
                if (bounds[i] == 1) /* s_i = 0: any weight will do */
                    continue;
                if (__builtin_mul_overflow(W[c], g->rank_lex[c][i], &t) || __builtin_add_overflow(w[i], t, &w[i]))
                    return ns_error_set(err, NS_ERANGE, "the lexicographic rank has more than 2^62 levels in this box");
            }
        memcpy(g->rank_w, w, sizeof w);
    }
    for (int i = 1; i < g->nsym; i++)
        if (bounds[g->sym[i]] != bounds[g->sym[0]])
            return ns_error_set(err, NS_EINVAL,
                                "piles %s and %s are symmetric, so their sizes must be equal: found %" PRId64 " and %" PRId64,
                                g->coord_names[g->sym[0]], g->coord_names[g->sym[i]], bounds[g->sym[0]], bounds[g->sym[i]]);
    for (int f = 0; f < g->nfam && !g->loopy; f++) {
        const ns_family *fm = &g->fam[f];
        if (fm->kind == NS_FAM_RAY) {
            if (!dot_fits(g->k, g->rank_w, fm->dir) || !dot_fits(g->k, g->rank_w, fm->base))
                return ns_error_set(err, NS_ERANGE, "move family '%s': its step is too large for the rank weights of this box", fm->label);
            if (dot(g->k, g->rank_w, fm->dir) >= 0 || dot(g->k, g->rank_w, fm->base) >= 0)
                return ns_error_set(err, NS_EGAME, "move family '%s' does not strictly decrease the rank", fm->label);
        } else if (fm->kind == NS_FAM_FINITE) {
            for (size_t j = 0; j < fm->noffsets; j++)
                if (!dot_fits(g->k, g->rank_w, fm->offsets + j * (size_t)g->k))
                    return ns_error_set(err, NS_ERANGE, "move family '%s': a step is too large for the rank weights of this box", fm->label);
                else if (dot(g->k, g->rank_w, fm->offsets + j * (size_t)g->k) >= 0) {
                    char b[160];
                    ns_format_pos(g->k, fm->offsets + j * (size_t)g->k, b, sizeof b);
                    return ns_error_set(err, NS_EGAME, "move family '%s': offset %s does not strictly decrease the rank", fm->label, b);
                }
        }
    }
    memcpy(g->bounds, bounds, (size_t)g->k * sizeof *bounds);
    return NS_OK;
}

uint64_t ns_game_cells(const ns_game *g)
{
    uint64_t c = 1;
    for (int i = 0; i < g->k; i++)
        c *= (uint64_t)g->bounds[i];
    return c;
}

/* Longest run of a ray inside the box: the cells s + t*d (t >= 0) that stay in
 * [0,N) along every coordinate that moves. */
static uint64_t ray_len_bound(const ns_game *g, const int64_t *d)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < g->k; i++) {
        if (d[i] == 0)
            continue;
        int64_t a = d[i] < 0 ? -d[i] : d[i];
        uint64_t len = (uint64_t)((g->bounds[i] + a - 1) / a);
        if (len < best)
            best = len;
    }
    return best;
}

uint64_t ns_game_max_options(const ns_game *g)
{
    if (g->octal) /* a sum of heaps: the count of a heap's options, not capped by the cells */
        return ns_octal_max_options(g->octal, g->bounds[0]);
    uint64_t cells = ns_game_cells(g);
    uint64_t sum = 0;
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        uint64_t b;
        if (fm->kind == NS_FAM_RAY)
            b = ray_len_bound(g, fm->dir);
        else if (fm->kind == NS_FAM_FINITE)
            b = fm->noffsets;
        else
            b = fm->max_options ? fm->max_options(fm->ctx, g->k, g->bounds) : cells;
        if (b > cells)
            b = cells;
        sum += b;
        if (sum > cells)
            return cells;
    }
    return sum;
}

/* Wraps the user's emit for general families: checks the box, the domain and
 * the rank of each option before passing it on. */
typedef struct check_ctx {
    const ns_game *g;
    const ns_family *fam;
    const int64_t *s;
    int64_t rank;
    ns_emit_fn emit;
    void *user;
    ns_error *err;
    int failed;
} check_ctx;

static int check_emit(void *u, const int64_t *opt)
{
    check_ctx *c = u;
    const ns_game *g = c->g;
    if (g->outside_forbid && !ns_game_in_box(g, opt))
        return 0; /* 'outside forbid': not a move */
    if (!ns_game_in_box(g, opt) || (g->valid && !g->valid(g->valid_ctx, g->k, opt))) {
        char a[160], b[160];
        ns_format_pos(g->k, c->s, a, sizeof a);
        ns_format_pos(g->k, opt, b, sizeof b);
        ns_error_set(c->err, NS_EGAME, "move family '%s' leads from %s to %s, which is %s", c->fam->label, a, b,
                     ns_game_in_box(g, opt) ? "outside the game's domain" : "outside the box");
        c->failed = 1;
        return -NS_EGAME;
    }
    if (!g->loopy && ns_game_rank(g, opt) >= c->rank) {
        char a[160], b[160];
        ns_format_pos(g->k, c->s, a, sizeof a);
        ns_format_pos(g->k, opt, b, sizeof b);
        ns_error_set(c->err, NS_EGAME, "move family '%s' leads from %s to %s, which does not decrease the rank (a cycle is possible)", c->fam->label, a, b);
        c->failed = 1;
        return -NS_EGAME;
    }
    return c->emit(c->user, opt);
}

/* One family's options at s (for a prefix family: its additions at s). */
static int family_options(const ns_game *g, const ns_family *fm, const int64_t *s, ns_emit_fn emit,
                          void *user, ns_error *err)
{
    const int k = g->k;
    int64_t o[NS_MAX_DIM];
    int rc = 0;
    if (fm->kind == NS_FAM_RAY) {
        for (int i = 0; i < k; i++)
            o[i] = s[i] + fm->base[i];
        /* Walk while at least one step more could land in the box. */
        for (uint64_t t = 0;; t++) {
            int in = ns_game_in_box(g, o);
            if (in && (!g->valid || g->valid(g->valid_ctx, k, o))) {
                rc = emit(user, o);
                if (rc)
                    return rc;
            }
            if (!in) {
                /* Stop once a coordinate has left the box in the
                 * direction it keeps moving. */
                int gone = 0;
                for (int i = 0; i < k; i++)
                    if ((o[i] < 0 && fm->dir[i] <= 0) || (o[i] >= g->bounds[i] && fm->dir[i] >= 0))
                        gone = 1;
                if (gone)
                    break;
            }
            for (int i = 0; i < k; i++)
                o[i] += fm->dir[i];
        }
    } else if (fm->kind == NS_FAM_FINITE) {
        for (size_t j = 0; j < fm->noffsets; j++) {
            const int64_t *off = fm->offsets + j * (size_t)k;
            for (int i = 0; i < k; i++)
                o[i] = s[i] + off[i];
            if (!ns_game_is_position(g, o))
                continue;
            rc = emit(user, o);
            if (rc)
                return rc;
        }
    } else {
        check_ctx c = {g, fm, s, ns_game_rank(g, s), emit, user, err, 0};
        rc = fm->options(fm->ctx, s, check_emit, &c, err);
        if (c.failed)
            return -NS_EGAME;
        return rc;
    }
    return 0;
}

int ns_game_family_options(const ns_game *g, const ns_family *f, const int64_t *s, ns_emit_fn emit,
                           void *user, ns_error *err)
{
    return family_options(g, f, s, emit, user, err);
}

int ns_game_foreach_option(const ns_game *g, const int64_t *s, ns_emit_fn emit,
                           void *user, ns_error *err)
{
    if (g->octal)
        return -(int)ns_error_set(err, NS_EINVAL, "%s is a take-and-break game: its options are sums of heaps, not "
                                  "single positions (its value is read from the sequence)", g->name);
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        int rc = 0;
        if (fm->kind == NS_FAM_PREFIX) {
            /* the additions at s_a = 0, 1, ..., s_a: the options of
             * s - e_a first, then those s adds */
            int64_t c[NS_MAX_DIM];
            memcpy(c, s, (size_t)g->k * sizeof *c);
            for (c[fm->axis] = 0; c[fm->axis] <= s[fm->axis] && !rc; c[fm->axis]++)
                rc = family_options(g, fm, c, emit, user, err);
        } else {
            rc = family_options(g, fm, s, emit, user, err);
        }
        if (rc)
            return rc;
    }
    return 0;
}
