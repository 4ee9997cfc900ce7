/* ns_sieve.c - the level-by-level sieve (see ns_sieve.h).
 *
 * Order. Every move strictly decreases the rank w . s, so the levels of
 * equal rank are processed in increasing order: when a cell is computed,
 * all its options are known. Two cells of one level never lie on one line
 * along a move direction d (their ranks would differ by a multiple of
 * w . d != 0), so a level is computed in parallel without locks.
 *
 * Lines. A ray family "s + e + t*d, t >= 0" reaches exactly the cells of the
 * line through s + e that have rank <= rank(s) + w . e. For each distinct
 * pair (direction d, lag L) the sieve keeps, per line of the table, the set
 * of values of the line's cells with rank <= r - L while level r is
 * computed (a bitset truncated at the value cap, and the set's own mex as a
 * lower bound for the scan). The lag of a family is -w . e, reduced to the
 * smallest lag selecting the same cells (the ranks on one line step by
 * |w . d|). Plain rays have lag |w . d| reduced to 1.
 *
 * Values. A cell's value is the mex of the union of its ray sets and its
 * finite/general options (enumerated). Values are capped at C = bound + 1,
 * where bound >= any possible mex, so truncating the sets at C is exact. A
 * P/N solve is the same computation with C = 1: the sets then only record
 * whether a P-position was seen, and the "mex" is 0 (P) or 1 (N). Misere
 * play: a position without options gets 1, others the mex (Conway's
 * misere Grundy value, 0 exactly at misere P-positions). */
#include "ns_sieve.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ns_omp.h"
#include "ns_rows_pn.h"
#include "ns_tiles2d.h"

typedef struct lineset {
    int64_t dir[NS_MAX_DIM];
    int64_t lag;
    int pivot;                  /* coordinate with dir < 0 used to canonicalise */
    int64_t lo[NS_MAX_DIM];     /* range of canonical coordinates */
    int64_t span[NS_MAX_DIM];
    uint64_t nlines;
    uint64_t *bits;             /* nlines * words */
    uint32_t *mex;              /* own mex of each line's set */
    uint8_t *any;               /* line has at least one cell in the set */
} lineset;

typedef struct sieve {
    const ns_game *g;
    ns_table *t;
    int k;
    int pn_only;
    uint32_t cap;               /* C: values stored in line sets are < cap */
    uint64_t words;             /* 64-bit words per line bitset */
    int nsets;
    lineset *sets;
    int *fam_set;               /* family -> lineset index, or -1 */
    int has_local;              /* any finite or general family */
    const ns_game *local;       /* the game without its rays: per-cell options */
    int64_t max_rank;
    int64_t max_lag;
    /* the last nring levels' cell lists, slot r % nring holds level r */
    int nring;
    struct level_list {
        int64_t r;              /* level held, or -1 */
        int64_t *cells;         /* n * k coordinates */
        uint64_t n, cap;
    } *ring;
    /* failure inside the parallel region */
    volatile int failed;
    ns_error perr;
} sieve;

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static int64_t dot(int k, const int64_t *a, const int64_t *b)
{
    int64_t r = 0;
    for (int i = 0; i < k; i++)
        r += a[i] * b[i];
    return r;
}

/* ---------- lines ---------- */

static void lineset_shape(lineset *ls, const ns_game *g)
{
    const int k = g->k;
    int p = -1;
    for (int i = 0; i < k; i++)
        if (ls->dir[i] < 0 && g->rank_w[i] > 0 && (p < 0 || -ls->dir[i] > -ls->dir[p]))
            p = i;
    if (p < 0) /* rank decrease guarantees one; fall back to any negative */
        for (int i = 0; i < k; i++)
            if (ls->dir[i] < 0)
                p = i;
    ls->pivot = p;
    const int64_t a = -ls->dir[p];
    const int64_t T = (g->bounds[p] - 1) / a;
    uint64_t n = (uint64_t)a;
    for (int j = 0; j < k; j++) {
        if (j == p) {
            ls->lo[j] = 0;
            ls->span[j] = 1;
            continue;
        }
        int64_t dj = ls->dir[j];
        ls->lo[j] = dj < 0 ? T * dj : 0;
        ls->span[j] = g->bounds[j] + T * (dj < 0 ? -dj : dj);
        n *= (uint64_t)ls->span[j];
    }
    ls->nlines = n;
}

/* Index of the line through s (any integer point), or UINT64_MAX when that
 * line does not meet the box. */
static inline uint64_t line_id(const lineset *ls, int k, const int64_t *s)
{
    const int p = ls->pivot;
    const int64_t a = -ls->dir[p];
    const int64_t t = a == 1 ? s[p] : floor_div(s[p], a);
    uint64_t id = (uint64_t)(s[p] - t * a);
    uint64_t mul = (uint64_t)a;
    for (int j = 0; j < k; j++) {
        if (j == p)
            continue;
        int64_t c = s[j] + t * ls->dir[j] - ls->lo[j];
        if (c < 0 || c >= ls->span[j])
            return UINT64_MAX;
        id += (uint64_t)c * mul;
        mul *= (uint64_t)ls->span[j];
    }
    return id;
}

/* ---------- planning ---------- */

static int64_t family_lag(const ns_game *g, const ns_family *f)
{
    const int64_t m = -dot(g->k, g->rank_w, f->dir);
    const int64_t lag = -dot(g->k, g->rank_w, f->base);
    int64_t r = lag - m + 1;
    return r < 1 ? 1 : r;
}

/* Distinct (direction, lag) groups; fam_set (may be NULL) gets each ray
 * family's group. Returns the number of groups; sets (may be NULL) are
 * filled with dir and lag. */
static int plan_groups(const ns_game *g, lineset *sets, int *fam_set)
{
    int n = 0;
    lineset tmp[64];
    lineset *out = sets ? sets : tmp;
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        if (fam_set)
            fam_set[f] = -1;
        if (fm->kind != NS_FAM_RAY)
            continue;
        int64_t lag = family_lag(g, fm);
        int found = -1;
        for (int i = 0; i < n; i++)
            if (out[i].lag == lag && memcmp(out[i].dir, fm->dir, (size_t)g->k * sizeof(int64_t)) == 0)
                found = i;
        if (found < 0) {
            if (!sets && n >= 64)
                continue; /* counting only: the exact count is not needed beyond this */
            found = n++;
            memset(&out[found], 0, sizeof out[found]);
            memcpy(out[found].dir, fm->dir, (size_t)g->k * sizeof(int64_t));
            out[found].lag = lag;
        }
        if (fam_set)
            fam_set[f] = found;
    }
    return n;
}

static uint64_t value_bound(const ns_game *g, int pn_only)
{
    if (pn_only)
        return 1;
    uint64_t b = ns_game_max_options(g);
    return b < 1 ? 1 : b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return (a && b > UINT64_MAX / a) ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

ns_err ns_sieve_plan_for(const ns_game *g, int pn_only, ns_sieve_plan *plan, ns_error *err)
{
    memset(plan, 0, sizeof *plan);
    if (g->bounds[0] < 1)
        return ns_error_set(err, NS_EINTERNAL, "the game's bounds are not set");
    plan->cells = ns_game_cells(g);
    plan->max_value = value_bound(g, pn_only);
    plan->elem = ns_table_elem_for(plan->max_value);
    if (plan->elem == 0)
        return ns_error_set(err, NS_ERANGE, "values up to %" PRIu64 " do not fit 32-bit cells", plan->max_value);
    plan->table_bytes = ns_table_bytes(g->k, g->bounds, plan->elem);
    int nfam = g->nfam;
    int *fam_set = calloc((size_t)(nfam ? nfam : 1), sizeof *fam_set);
    lineset *sets = calloc((size_t)(nfam ? nfam : 1), sizeof *sets);
    if (!fam_set || !sets) {
        free(fam_set);
        free(sets);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    plan->nlinesets = plan_groups(g, sets, fam_set);
    uint64_t cap = plan->max_value + 1;
    uint64_t words = (cap + 63) / 64;
    for (int i = 0; i < plan->nlinesets; i++) {
        lineset_shape(&sets[i], g);
        uint64_t per = sat_add(sat_mul(words, 8), 5);
        plan->line_bytes = sat_add(plan->line_bytes, sat_mul(sets[i].nlines, per));
    }
    plan->levels = ns_game_rank(g, g->bounds) - dot(g->k, g->rank_w, (int64_t[NS_MAX_DIM]){1, 1, 1, 1, 1, 1, 1, 1}) + 1;
    free(fam_set);
    free(sets);
    return NS_OK;
}

ns_table *ns_sieve_table_new(const ns_game *g, int pn_only, ns_error *err)
{
    ns_sieve_plan plan;
    if (ns_sieve_plan_for(g, pn_only, &plan, err))
        return NULL;
    return ns_table_new(g->k, g->bounds, plan.elem, pn_only, err);
}

/* ---------- levels ---------- */

/* Fill L with all cells of rank r (coordinates, lexicographic). */
static ns_err level_fill(sieve *sv, struct level_list *L, int64_t r, ns_error *err)
{
    const ns_game *g = sv->g;
    const int k = sv->k;
    L->n = 0;
    L->r = r;
    /* maxrest[j] = largest rank the coordinates j+1..k-1 can add */
    int64_t maxrest[NS_MAX_DIM + 1];
    maxrest[k] = 0;
    for (int j = k - 1; j >= 0; j--)
        maxrest[j] = (j + 1 < k ? maxrest[j + 1] + g->rank_w[j + 1] * (g->bounds[j + 1] - 1) : 0);
    int64_t s[NS_MAX_DIM], hi[NS_MAX_DIM], part[NS_MAX_DIM + 1];
    int j = 0;
    part[0] = 0;
    /* depth-first odometer with pruned ranges */
    int64_t lo_j;
    for (;;) {
        /* enter coordinate j: compute its range given part[j] */
        const int64_t w = g->rank_w[j], rem = r - part[j];
        if (j == k - 1) {
            /* solve the last coordinate */
            int64_t a0, a1;
            if (w == 0) {
                a0 = rem == 0 ? 0 : 1;
                a1 = rem == 0 ? g->bounds[j] - 1 : 0;
            } else if (rem < 0 || rem % w != 0 || rem / w >= g->bounds[j]) {
                a0 = 1;
                a1 = 0;
            } else {
                a0 = a1 = rem / w;
            }
            for (int64_t v = a0; v <= a1; v++) {
                if (L->n == L->cap) {
                    uint64_t nc = L->cap ? L->cap * 2 : 1024;
                    int64_t *c = realloc(L->cells, (size_t)nc * (size_t)k * sizeof *c);
                    if (!c)
                        return ns_error_set(err, NS_ENOMEM, "out of memory for a level's cell list");
                    L->cells = c;
                    L->cap = nc;
                }
                s[j] = v;
                int64_t *dst = L->cells + L->n * (uint64_t)k;
                for (int i = 0; i < k; i++)
                    dst[i] = s[i];
                L->n++;
            }
        } else {
            if (w == 0) {
                lo_j = 0;
                hi[j] = g->bounds[j] - 1;
            } else {
                int64_t need = rem - maxrest[j];  /* w*s_j >= need */
                lo_j = need <= 0 ? 0 : (need + w - 1) / w;
                hi[j] = rem < 0 ? -1 : rem / w;
                if (hi[j] > g->bounds[j] - 1)
                    hi[j] = g->bounds[j] - 1;
            }
            if (lo_j <= hi[j]) {
                s[j] = lo_j;
                part[j + 1] = part[j] + w * s[j];
                j++;
                continue;
            }
        }
        /* advance: back up to the nearest coordinate that can step */
        for (;;) {
            j--;
            if (j < 0)
                return NS_OK;
            if (s[j] < hi[j]) {
                s[j]++;
                part[j + 1] = part[j] + g->rank_w[j] * s[j];
                j++;
                break;
            }
        }
    }
}

/* The cell list of level r, from the ring or freshly enumerated. */
static struct level_list *level_get(sieve *sv, int64_t r, ns_error *err)
{
    struct level_list *L = &sv->ring[r % sv->nring];
    if (L->r == r)
        return L;
    if (level_fill(sv, L, r, err))
        return NULL;
    return L;
}

/* ---------- per-cell work ---------- */

/* One per thread; padded so that threads never share its cache line. */
typedef struct local_ctx {
    _Alignas(128) sieve *sv;
    uint64_t *bits;     /* thread-local bitset of words words */
    uint32_t *touched;  /* values set in bits, to clear */
    size_t ntouched, captouched;
    int any;
    int oom;
    char pad[64];
} local_ctx;

static int local_emit(void *u, const int64_t *opt)
{
    local_ctx *lc = u;
    const ns_table *t = lc->sv->t;
    uint32_t v = ns_table_get(t, ns_table_index(t, opt));
    lc->any = 1;
    if (v < lc->sv->cap && !(lc->bits[v >> 6] >> (v & 63) & 1)) {
        if (lc->ntouched == lc->captouched) {
            size_t nc = lc->captouched ? lc->captouched * 2 : 256;
            uint32_t *p = realloc(lc->touched, nc * sizeof *p);
            if (!p) {
                lc->oom = 1;
                return 1;
            }
            lc->touched = p;
            lc->captouched = nc;
        }
        lc->touched[lc->ntouched++] = v;
        lc->bits[v >> 6] |= (uint64_t)1 << (v & 63);
    }
    return 0;
}

static void fail_once(sieve *sv, const ns_error *e, ns_err code, const char *msg)
{
    NS_PRAGMA(omp critical(ns_sieve_fail))
    {
        if (!sv->failed) {
            if (e && e->code) {
                sv->perr = *e;
            } else {
                ns_error_set(&sv->perr, code, "%s", msg);
            }
            sv->failed = 1;
        }
    }
}

static void compute_cell(sieve *sv, const int64_t *s, local_ctx *lc)
{
    const ns_game *g = sv->g;
    const int k = sv->k;
    ns_table *t = sv->t;
    const uint64_t idx = ns_table_index(t, s);
    if (g->valid && !g->valid(g->valid_ctx, k, s)) {
        ns_table_set(t, idx, ns_table_invalid(t));
        return;
    }
    const uint64_t *ptr[64];
    int np = 0;
    uint64_t lo = 0;
    int any = 0;
    int64_t q[NS_MAX_DIM];
    for (int f = 0; f < g->nfam; f++) {
        int gi = sv->fam_set[f];
        if (gi < 0)
            continue;
        const lineset *ls = &sv->sets[gi];
        const ns_family *fm = &g->fam[f];
        for (int i = 0; i < k; i++)
            q[i] = s[i] + fm->base[i];
        uint64_t id = line_id(ls, k, q);
        if (id == UINT64_MAX || !ls->any[id])
            continue;
        any = 1;
        if (ls->mex[id] > lo)
            lo = ls->mex[id];
        if (np < 64)
            ptr[np++] = ls->bits + id * sv->words;
    }
    lc->any = 0;
    if (sv->has_local) {
        ns_error e;
        ns_error_clear(&e);
        int rc = ns_game_foreach_option(sv->local, s, local_emit, lc, &e);
        if (lc->oom)
            fail_once(sv, NULL, NS_ENOMEM, "out of memory");
        else if (rc < 0)
            fail_once(sv, &e, NS_EGAME, "a move family failed");
        any |= lc->any;
    }
    uint64_t m = sv->cap;
    if (lo < sv->cap) {
        for (uint64_t w = lo >> 6; w < sv->words; w++) {
            uint64_t x = lc->bits[w];
            for (int i = 0; i < np; i++)
                x |= ptr[i][w];
            if (w == lo >> 6 && (lo & 63))
                x |= ((uint64_t)1 << (lo & 63)) - 1;
            if (~x) {
                m = (w << 6) + (uint64_t)__builtin_ctzll(~x);
                break;
            }
        }
        if (m > sv->cap)
            m = sv->cap;
    }
    for (size_t i = 0; i < lc->ntouched; i++)
        lc->bits[lc->touched[i] >> 6] = 0;
    lc->ntouched = 0;
    if (g->play == NS_PLAY_MISERE && !any)
        m = 1;
    if (!sv->pn_only && m >= sv->cap)
        fail_once(sv, NULL, NS_EINTERNAL, "a value reached the value bound; the game's option bound is wrong");
    ns_table_set(t, idx, (uint32_t)m);
}

/* The ray families only: does this cell's computation have work beyond its
 * line sets? (finite or general families) */
static int needs_local(const ns_game *g)
{
    for (int f = 0; f < g->nfam; f++)
        if (g->fam[f].kind != NS_FAM_RAY)
            return 1;
    return 0;
}

static void insert_cell(sieve *sv, lineset *ls, const int64_t *s)
{
    const ns_table *t = sv->t;
    uint32_t v = ns_table_get(t, ns_table_index(t, s));
    if (v == ns_table_invalid(t))
        return;
    uint64_t id = line_id(ls, sv->k, s);
    if (id == UINT64_MAX)
        return;
    uint64_t *b = ls->bits + id * sv->words;
    ls->any[id] = 1;
    if (v < sv->cap) {
        b[v >> 6] |= (uint64_t)1 << (v & 63);
        uint32_t m = ls->mex[id];
        while (m < sv->cap && (b[m >> 6] >> (m & 63) & 1))
            m++;
        ls->mex[id] = m;
    }
}

static void sieve_free(sieve *sv)
{
    for (int i = 0; i < sv->nsets; i++) {
        free(sv->sets[i].bits);
        free(sv->sets[i].mex);
        free(sv->sets[i].any);
    }
    free(sv->sets);
    free(sv->fam_set);
    for (int i = 0; i < sv->nring; i++)
        free(sv->ring[i].cells);
    free(sv->ring);
}

/* The general level-by-level sieve; ns_sieve_run may pick a faster kernel. */
ns_err ns_sieve_run_general(const ns_game *game, ns_table *t, const ns_sieve_opts *opts, ns_error *err)
{
    ns_sieve_plan plan;
    ns_err rc = ns_sieve_plan_for(game, opts->pn_only, &plan, err);
    if (rc)
        return rc;
    if (t->k != game->k || t->pn_only != opts->pn_only || t->elem != plan.elem)
        return ns_error_set(err, NS_EINTERNAL, "table does not match the game's plan");
    for (int i = 0; i < game->k; i++)
        if (t->bounds[i] != game->bounds[i])
            return ns_error_set(err, NS_EINTERNAL, "table bounds do not match the game's");

    /* The local game: same game, rays removed (they are handled per line). */
    ns_game local = *game;
    ns_family *lf = calloc((size_t)(game->nfam ? game->nfam : 1), sizeof *lf);
    if (!lf)
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    local.nfam = 0;
    for (int f = 0; f < game->nfam; f++)
        if (game->fam[f].kind != NS_FAM_RAY)
            lf[local.nfam++] = game->fam[f];
    local.fam = lf;
    local.capfam = game->nfam ? game->nfam : 1;

    sieve sv;
    memset(&sv, 0, sizeof sv);
    sv.g = game;
    sv.t = t;
    sv.k = game->k;
    sv.pn_only = opts->pn_only;
    sv.cap = opts->pn_only ? 1 : (uint32_t)(plan.max_value + 1);
    sv.words = (sv.cap + 63) / 64;
    sv.has_local = needs_local(game);
    sv.fam_set = calloc((size_t)(game->nfam ? game->nfam : 1), sizeof *sv.fam_set);
    sv.sets = calloc((size_t)(game->nfam ? game->nfam : 1), sizeof *sv.sets);
    const int nthreads = opts->threads > 0 ? opts->threads : ns_omp_max_threads();
    local_ctx *lcs = aligned_alloc(128, (size_t)nthreads * sizeof *lcs);
    if (lcs)
        memset(lcs, 0, (size_t)nthreads * sizeof *lcs);
    if (!sv.fam_set || !sv.sets || !lcs) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    sv.nsets = plan_groups(game, sv.sets, sv.fam_set);
    sv.max_lag = 0;
    for (int i = 0; i < sv.nsets; i++) {
        lineset *ls = &sv.sets[i];
        lineset_shape(ls, game);
        ls->bits = calloc((size_t)ls->nlines, (size_t)sv.words * sizeof *ls->bits);
        ls->mex = calloc((size_t)ls->nlines, sizeof *ls->mex);
        ls->any = calloc((size_t)ls->nlines, sizeof *ls->any);
        if (!ls->bits || !ls->mex || !ls->any) {
            rc = ns_error_set(err, NS_ENOMEM, "cannot allocate %.2f GiB for the line sets",
                              (double)plan.line_bytes / (1 << 30));
            goto fail;
        }
        if (ls->lag > sv.max_lag)
            sv.max_lag = ls->lag;
    }
    sv.nring = (int)sv.max_lag + 1;
    sv.ring = calloc((size_t)sv.nring, sizeof *sv.ring);
    if (!sv.ring) {
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    for (int i = 0; i < sv.nring; i++)
        sv.ring[i].r = -1;
    for (int i = 0; i < nthreads; i++) {
        lcs[i].sv = &sv;
        lcs[i].bits = calloc((size_t)sv.words, sizeof *lcs[i].bits);
        if (!lcs[i].bits) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
    }

    sv.local = &local;
    const int64_t ones[NS_MAX_DIM] = {1, 1, 1, 1, 1, 1, 1, 1};
    const int64_t max_rank = ns_game_rank(game, game->bounds) - dot(game->k, game->rank_w, ones);
    uint64_t done = 0;
    for (int64_t r = 0; r <= max_rank; r++) {
        /* bring each line set up to rank r - lag */
        for (int i = 0; i < sv.nsets; i++) {
            lineset *ls = &sv.sets[i];
            int64_t rr = r - ls->lag;
            if (rr < 0)
                continue;
            struct level_list *L = level_get(&sv, rr, err);
            if (!L) {
                rc = err ? err->code : NS_ENOMEM;
                goto fail;
            }
            const int64_t n = (int64_t)L->n;
            const int64_t *cells = L->cells;
            NS_OMP_FOR_IF(nthreads, n >= 4096)
            for (int64_t c = 0; c < n; c++)
                insert_cell(&sv, ls, cells + c * sv.k);
        }
        struct level_list *L = level_get(&sv, r, err);
        if (!L) {
            rc = err ? err->code : NS_ENOMEM;
            goto fail;
        }
        const int64_t n = (int64_t)L->n;
        const int64_t *cells = L->cells;
        sieve *psv = &sv;
        /* small levels of cheap cells are not worth waking the threads */
        NS_OMP_FOR_DYNAMIC_IF(nthreads, n >= (psv->has_local ? 64 : 1024))
        for (int64_t c = 0; c < n; c++) {
            if (psv->failed)
                continue;
            compute_cell(psv, cells + c * psv->k, &lcs[ns_omp_thread_num()]);
        }
        if (sv.failed) {
            rc = sv.perr.code ? sv.perr.code : NS_EINTERNAL;
            if (err)
                *err = sv.perr;
            goto fail;
        }
        done += (uint64_t)n;
        if (opts->progress && opts->progress(opts->progress_user, (double)done / (double)t->ncells)) {
            rc = ns_error_set(err, NS_EINTR, "interrupted");
            goto fail;
        }
    }
    rc = NS_OK;
fail:
    if (lcs)
        for (int i = 0; i < nthreads; i++) {
            free(lcs[i].bits);
            free(lcs[i].touched);
        }
    free(lcs);
    free(lf);
    sieve_free(&sv);
    return rc;
}

const char *ns_sieve_kernel_name(const ns_game *g, const ns_sieve_opts *opts)
{
    if (ns_rows_pn_eligible(g, opts))
        return "rows-pn";
    if (ns_tiles2d_eligible(g, opts))
        return "tiles2d";
    return "general";
}

ns_err ns_sieve_run(const ns_game *game, ns_table *t, const ns_sieve_opts *opts, ns_error *err)
{
    if (ns_rows_pn_eligible(game, opts)) {
        ns_sieve_plan plan;
        ns_err rc = ns_sieve_plan_for(game, opts->pn_only, &plan, err);
        if (rc)
            return rc;
        if (t->k != 2 || !t->pn_only || t->elem != 1 || t->bounds[0] != game->bounds[0] ||
            t->bounds[1] != game->bounds[1])
            return ns_error_set(err, NS_EINTERNAL, "table does not match the game's plan");
        return ns_rows_pn_run(game, t, opts, err);
    }
    if (ns_tiles2d_eligible(game, opts)) {
        ns_sieve_plan plan;
        ns_err rc = ns_sieve_plan_for(game, opts->pn_only, &plan, err);
        if (rc)
            return rc;
        if (t->k != 2 || t->pn_only || t->elem != plan.elem || t->bounds[0] != game->bounds[0] ||
            t->bounds[1] != game->bounds[1])
            return ns_error_set(err, NS_EINTERNAL, "table does not match the game's plan");
        return ns_tiles2d_run(game, t, plan.max_value, opts, err);
    }
    return ns_sieve_run_general(game, t, opts, err);
}

/* ---------- the naive reference ---------- */

typedef struct naive_ctx {
    const ns_table *t;
    uint32_t *vals;
    size_t n, cap;
    int oom;
} naive_ctx;

static int naive_emit(void *u, const int64_t *opt)
{
    naive_ctx *c = u;
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        uint32_t *p = realloc(c->vals, nc * sizeof *p);
        if (!p) {
            c->oom = 1;
            return 1;
        }
        c->vals = p;
        c->cap = nc;
    }
    c->vals[c->n++] = ns_table_get(c->t, ns_table_index(c->t, opt));
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

ns_err ns_naive_cell(const ns_game *g, const ns_table *t, const int64_t *s, uint32_t *out, ns_error *err)
{
    if (!ns_game_is_position(g, s)) {
        *out = ns_table_invalid(t);
        return NS_OK;
    }
    naive_ctx c = {t, NULL, 0, 0, 0};
    int rc = ns_game_foreach_option(g, s, naive_emit, &c, err);
    if (c.oom) {
        free(c.vals);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    if (rc < 0) {
        free(c.vals);
        return -rc;
    }
    if (c.n > 1)
        qsort(c.vals, c.n, sizeof *c.vals, cmp_u32);
    uint32_t v = 0; /* mex of the sorted values */
    for (size_t i = 0; i < c.n && c.vals[i] <= v; i++)
        if (c.vals[i] == v)
            v++;
    if (t->pn_only)
        v = v > 0; /* 1 (N) when some option is P */
    if (g->play == NS_PLAY_MISERE && c.n == 0)
        v = 1;
    free(c.vals);
    *out = v;
    return NS_OK;
}
