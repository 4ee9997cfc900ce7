/* ns_retro_gsg.c - generalized Sprague-Grundy values of loopy games
 * (Smith 1966; Fraenkel and Yesha), see ns_gsg in ns_engine.h. The retro
 * engine calls ns_gsg_solve after its P/N/draw table when asked
 * (ns_engine_opts.gsg); it works for any game in normal play.
 *
 * The algorithm (Smith's, as Fraenkel states it), for m = 0, 1, 2, ...:
 *   1. as long as some unlabelled position u has no option labelled m, and
 *      every option of u that is unlabelled or labelled infinite has an
 *      option labelled m, label u with m;
 *   2. label infinite every unlabelled position without an option labelled m;
 * until no position is unlabelled. An unlabelled position at stage m has
 * options labelled 0 .. m-1 (it survived step 2 of every earlier stage),
 * so a label m is the mex of the finite labels of its options. Finally the
 * set K of an infinite position is the set of finite labels of its options.
 *
 * Step 1 is a retrograde analysis: within stage m, the positions labelled m
 * play the part of P-positions, the unlabelled and infinite positions with
 * an option labelled m (marked "reaches m") that of N-positions, and the
 * positions labelled below m are left out. Each unlabelled position counts
 * its options that are unlabelled or infinite and do not reach m (base:
 * those not labelled finite, kept from stage to stage); a position whose
 * count drops to zero gets m, which marks its unlabelled and infinite
 * predecessors as reaching m, which decrement their predecessors' counts.
 * An eligible position stays eligible (its unlabelled options reach m, so
 * none of them can take m), so the set labelled m is the closure of the
 * rule, the same in any order: identical values at any thread count.
 *
 * Graph: the options of every position, listed once by the reference
 * enumeration (ns_game_foreach_option) into a forward CSR, and its reverse
 * (the predecessors), both with 32-bit cell indices: 2 x 8 bytes a cell of
 * offsets + 2 x 4 bytes an option, plus 5 arrays of 4 bytes a cell. A
 * move listed twice counts twice on both sides. Parallel: OpenMP over the
 * cells and over each frontier (atomic counters, compare-and-swap on the
 * labels). */
#include "engine/ns_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"

/* labels while the algorithm runs (finite values are below them) */
#define UNL (UINT32_MAX - 2)
#define INF NS_GSG_INF
#define NONE NS_GSG_NONE

/* cells appended to the frontier at once */
#define PUSH_BLOCK 256

typedef struct gsg_run {
    const ns_game *g;
    ns_table shape;         /* coordinates only (no data) */
    uint64_t n;
    uint64_t *fo;           /* forward CSR: options of i at fto[fo[i] .. fo[i+1]) */
    uint32_t *fto;
    uint64_t *ro;           /* reverse CSR: predecessors of i at rfrom[ro[i] .. ro[i+1]) */
    uint32_t *rfrom;
    uint32_t *lab;          /* the labels: finite, UNL, INF, NONE */
    uint32_t *base;         /* options not labelled finite (unlabelled positions) */
    uint32_t *cnt;          /* this stage's count */
    uint32_t *reach;        /* m + 1: reaches m in stage m */
    uint32_t *queue;        /* this stage's frontiers */
    uint64_t qtail;         /* atomic */
    int failed;             /* atomic */
    ns_error fail_err;
} gsg_run;

typedef struct fill_ctx {
    gsg_run *R;
    uint64_t n;
    uint32_t *to;           /* NULL: count only */
} fill_ctx;

static int fill_emit(void *u, const int64_t *o)
{
    fill_ctx *c = u;
    if (c->to)
        c->to[c->n] = (uint32_t)ns_table_index(&c->R->shape, o);
    c->n++;
    return 0;
}

typedef struct est_ctx {
    uint64_t n;
} est_ctx;

static int est_emit(void *u, const int64_t *o)
{
    (void)o;
    ((est_ctx *)u)->n++;
    return 0;
}

/* splitmix64: a fixed sequence of sample cells */
static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t ns_gsg_estimate(const ns_game *g, uint64_t *options, ns_error *err)
{
    uint64_t n = 1;
    for (int d = 0; d < g->k; d++)
        n *= (uint64_t)g->bounds[d];
    const int all = n <= NS_GSG_SAMPLE;
    const uint64_t m = all ? n : NS_GSG_SAMPLE;
    uint64_t seed = 0x6E696D7369657665ull, sum = 0;
    *options = 0;
    for (uint64_t j = 0; j < m; j++) {
        uint64_t i = all ? j : mix(&seed) % n;
        int64_t s[NS_MAX_DIM];
        for (int d = g->k - 1; d >= 0; d--) {
            s[d] = (int64_t)(i % (uint64_t)g->bounds[d]);
            i /= (uint64_t)g->bounds[d];
        }
        if (!ns_game_is_position(g, s))
            continue;
        est_ctx c = {0};
        if (ns_game_foreach_option(g, s, est_emit, &c, err) < 0)
            return 0;
        sum += c.n;
    }
    *options = all ? sum : (uint64_t)((double)sum / (double)m * (double)n + 0.5);
    return n * 36 + *options * 8;
}

/* pass 0: options per cell into fo[i + 1]; pass 1: list them at fto */
static void list_options(gsg_run *R, int threads, int pass)
{
    const int64_t n = (int64_t)R->n;
    NS_OMP_FOR_DYNAMIC(threads)
    for (int64_t i = 0; i < n; i++) {
        if (__atomic_load_n(&R->failed, __ATOMIC_RELAXED))
            continue;
        int64_t s[NS_MAX_DIM];
        ns_table_coords(&R->shape, (uint64_t)i, s);
        if (!ns_game_is_position(R->g, s))
            continue;
        ns_error e = {0};
        fill_ctx c = {R, 0, pass ? R->fto + R->fo[i] : NULL};
        if (ns_game_foreach_option(R->g, s, fill_emit, &c, &e) < 0) {
            if (!__atomic_exchange_n(&R->failed, 1, __ATOMIC_ACQ_REL))
                R->fail_err = e;
            continue;
        }
        if (!pass)
            R->fo[i + 1] = c.n;
    }
}

static void push_block(gsg_run *R, const uint32_t *buf, int n)
{
    const uint64_t at = __atomic_fetch_add(&R->qtail, (uint64_t)n, __ATOMIC_RELAXED);
    memcpy(R->queue + at, buf, (size_t)n * sizeof *buf);
}

static void push(gsg_run *R, uint32_t v, uint32_t *buf, int *nbuf)
{
    buf[(*nbuf)++] = v;
    if (*nbuf == PUSH_BLOCK) {
        push_block(R, buf, *nbuf);
        *nbuf = 0;
    }
}

/* Label u with m if it is still unlabelled. */
static void label(gsg_run *R, uint32_t u, uint32_t m, uint32_t *buf, int *nbuf)
{
    uint32_t expect = UNL;
    if (__atomic_compare_exchange_n(&R->lab[u], &expect, m, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        push(R, u, buf, nbuf);
}

/* What frontier entry v does to its predecessors in stage m. */
static void visit(gsg_run *R, uint32_t v, uint32_t m, uint32_t *buf, int *nbuf)
{
    const uint32_t mark = m + 1;
    if (__atomic_load_n(&R->lab[v], __ATOMIC_RELAXED) == m) {
        /* labelled m: its unlabelled and infinite predecessors reach m */
        for (uint64_t a = R->ro[v]; a < R->ro[(uint64_t)v + 1]; a++) {
            const uint32_t p = R->rfrom[a];
            const uint32_t lp = __atomic_load_n(&R->lab[p], __ATOMIC_RELAXED);
            if (lp != UNL && lp != INF)
                continue;
            uint32_t old = __atomic_load_n(&R->reach[p], __ATOMIC_RELAXED);
            if (old != mark && __atomic_compare_exchange_n(&R->reach[p], &old, mark, 0, __ATOMIC_RELAXED,
                                                           __ATOMIC_RELAXED))
                push(R, p, buf, nbuf);
        }
    } else {
        /* reaches m: one option fewer in the way of each unlabelled predecessor */
        for (uint64_t a = R->ro[v]; a < R->ro[(uint64_t)v + 1]; a++) {
            const uint32_t p = R->rfrom[a];
            if (__atomic_load_n(&R->lab[p], __ATOMIC_RELAXED) != UNL ||
                __atomic_load_n(&R->reach[p], __ATOMIC_RELAXED) == mark)
                continue;
            if (__atomic_sub_fetch(&R->cnt[p], 1, __ATOMIC_RELAXED) == 0)
                label(R, p, m, buf, nbuf);
        }
    }
}

static int cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The set of infinite cell i into out (room for its options): sorted,
 * without repeats; returns its size. */
static uint64_t inf_set(const gsg_run *R, uint64_t i, uint32_t *out)
{
    uint64_t n = 0;
    for (uint64_t a = R->fo[i]; a < R->fo[i + 1]; a++) {
        const uint32_t v = R->lab[R->fto[a]];
        if (v != INF && v != NONE)
            out[n++] = v;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_u32);
    uint64_t w = 0;
    for (uint64_t j = 0; j < n; j++)
        if (w == 0 || out[w - 1] != out[j])
            out[w++] = out[j];
    return w;
}

static void free_run(gsg_run *R)
{
    free(R->fo);
    free(R->fto);
    free(R->ro);
    free(R->rfrom);
    free(R->base);
    free(R->cnt);
    free(R->reach);
    free(R->queue);
}

void ns_gsg_free(ns_gsg *x)
{
    if (!x)
        return;
    free(x->value);
    free(x->inf_off);
    free(x->inf_val);
    free(x);
}

/* The sets of the infinite cells, in cell order, into x. */
static ns_err collect_sets(gsg_run *R, ns_gsg *x, int threads, ns_error *err)
{
    const uint64_t n = R->n;
    uint64_t maxdeg = 0, ninf = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (R->fo[i + 1] - R->fo[i] > maxdeg)
            maxdeg = R->fo[i + 1] - R->fo[i];
        ninf += R->lab[i] == INF;
    }
    x->ninf = ninf;
    x->inf_off = calloc(ninf + 1, sizeof *x->inf_off);
    /* cnt: the rank of each infinite cell among them; base: its set's size */
    if (!x->inf_off)
        return ns_error_set(err, NS_ENOMEM, "generalized Sprague-Grundy values: out of memory for the sets");
    for (uint64_t i = 0, j = 0; i < n; i++)
        if (R->lab[i] == INF)
            R->cnt[i] = (uint32_t)j++;
    int failed = 0;
    for (int pass = 0; pass < 2; pass++) {
        NS_PRAGMA(omp parallel num_threads(threads))
        {
            uint32_t *tmp = malloc((maxdeg ? maxdeg : 1) * sizeof *tmp);
            if (!tmp)
                __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
            NS_PRAGMA(omp for schedule(dynamic, 64))
            for (int64_t i = 0; i < (int64_t)n; i++) {
                if (!tmp || R->lab[i] != INF)
                    continue;
                const uint64_t w = inf_set(R, (uint64_t)i, tmp);
                const uint64_t j = R->cnt[i];
                if (pass == 0)
                    x->inf_off[j + 1] = w;
                else
                    memcpy(x->inf_val + x->inf_off[j], tmp, (size_t)w * sizeof *tmp);
            }
            free(tmp);
        }
        if (failed)
            return ns_error_set(err, NS_ENOMEM, "generalized Sprague-Grundy values: out of memory for the sets");
        if (pass == 0) {
            for (uint64_t j = 0; j < ninf; j++)
                x->inf_off[j + 1] += x->inf_off[j];
            x->inf_val = malloc((x->inf_off[ninf] ? x->inf_off[ninf] : 1) * sizeof *x->inf_val);
            if (!x->inf_val)
                return ns_error_set(err, NS_ENOMEM, "generalized Sprague-Grundy values: out of memory for the sets");
        }
    }
    return NS_OK;
}

ns_err ns_gsg_solve(const ns_game *g, int threads, ns_gsg **out, ns_error *err)
{
    *out = NULL;
    if (g->play != NS_PLAY_NORMAL)
        return ns_error_set(err, NS_EINVAL, "generalized Sprague-Grundy values are defined for normal play only");
    if (g->octal)
        return ns_error_set(err, NS_EINVAL, "generalized Sprague-Grundy values: not for take-and-break heap games");
    if (threads <= 0)
        threads = ns_omp_max_threads();
    ns_err rc = NS_OK;
    gsg_run R = {.g = g};
    ns_gsg *x = calloc(1, sizeof *x);
    R.shape.k = g->k;
    memcpy(R.shape.bounds, g->bounds, sizeof R.shape.bounds);
    R.n = 1;
    for (int d = g->k - 1; d >= 0; d--) {
        R.shape.stride[d] = (int64_t)R.n;
        R.n *= (uint64_t)g->bounds[d];
    }
    R.shape.ncells = R.n;
    const uint64_t n = R.n;
    if (n >= UNL)
        return free(x), ns_error_set(err, NS_ERANGE,
                                     "generalized Sprague-Grundy values: %" PRIu64 " cells, at most 2^32 - 3", n);
    if (x)
        x->ncells = n;
    R.fo = calloc(n + 1, sizeof *R.fo);
    R.ro = calloc(n + 1, sizeof *R.ro);
    R.lab = x ? (x->value = malloc(n * sizeof *R.lab)) : NULL;
    R.base = malloc(n * sizeof *R.base);
    R.cnt = malloc(n * sizeof *R.cnt);
    R.reach = calloc(n, sizeof *R.reach);
    R.queue = malloc(n * sizeof *R.queue);
    if (!x || !R.fo || !R.ro || !R.lab || !R.base || !R.cnt || !R.reach || !R.queue) {
        rc = ns_error_set(err, NS_ENOMEM, "generalized Sprague-Grundy values: out of memory (%" PRIu64 " cells)", n);
        goto fail;
    }

    /* the options of every position, and their reverse */
    list_options(&R, threads, 0);
    if (R.failed) {
        if (err)
            *err = R.fail_err;
        rc = R.fail_err.code ? R.fail_err.code : NS_EGAME;
        goto fail;
    }
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t deg = R.fo[i + 1];
        if (deg >= UNL) {
            rc = ns_error_set(err, NS_ERANGE, "generalized Sprague-Grundy values: a position with 2^32 options or more");
            goto fail;
        }
        R.fo[i + 1] += R.fo[i];
    }
    const uint64_t edges = R.fo[n];
    R.fto = malloc((edges ? edges : 1) * sizeof *R.fto);
    R.rfrom = malloc((edges ? edges : 1) * sizeof *R.rfrom);
    if (!R.fto || !R.rfrom) {
        rc = ns_error_set(err, NS_ENOMEM,
                          "generalized Sprague-Grundy values: out of memory for %" PRIu64 " moves (%.2f GiB)", edges,
                          (double)edges * 8 / (1 << 30));
        goto fail;
    }
    list_options(&R, threads, 1);
    if (R.failed) {
        if (err)
            *err = R.fail_err;
        rc = R.fail_err.code ? R.fail_err.code : NS_EGAME;
        goto fail;
    }
    /* reverse: in-degrees, inclusive prefix sums, filled from the end */
    for (uint64_t a = 0; a < edges; a++)
        R.ro[R.fto[a]]++;
    for (uint64_t i = 0, sum = 0; i < n; i++) {
        sum += R.ro[i];
        R.ro[i] = sum;
    }
    R.ro[n] = edges;
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t a = R.fo[i]; a < R.fo[i + 1]; a++)
            R.rfrom[--R.ro[R.fto[a]]] = (uint32_t)i;

    uint64_t unl = 0;
    for (uint64_t i = 0; i < n; i++) {
        int64_t s[NS_MAX_DIM];
        ns_table_coords(&R.shape, i, s);
        const int pos = ns_game_is_position(g, s);
        R.lab[i] = pos ? UNL : NONE;
        R.base[i] = (uint32_t)(R.fo[i + 1] - R.fo[i]);
        unl += pos;
    }
    x->nfinite = 0;
    for (uint32_t m = 0; unl > 0; m++) {
        if (m >= UNL) {
            rc = ns_error_set(err, NS_ERANGE, "generalized Sprague-Grundy values: a value above 2^32 - 4");
            goto fail;
        }
        /* frontier 0: unlabelled positions whose options are all labelled below m */
        R.qtail = 0;
        NS_PRAGMA(omp parallel num_threads(threads))
        {
            uint32_t buf[PUSH_BLOCK];
            int nbuf = 0;
            NS_PRAGMA(omp for schedule(static))
            for (int64_t i = 0; i < (int64_t)n; i++) {
                if (R.lab[i] != UNL)
                    continue;
                R.cnt[i] = R.base[i];
                if (R.cnt[i] == 0) {
                    R.lab[i] = m;
                    push(&R, (uint32_t)i, buf, &nbuf);
                }
            }
            if (nbuf)
                push_block(&R, buf, nbuf);
        }
        for (uint64_t head = 0; head < R.qtail;) {
            const uint64_t end = R.qtail;
            NS_PRAGMA(omp parallel num_threads(threads))
            {
                uint32_t buf[PUSH_BLOCK];
                int nbuf = 0;
                NS_PRAGMA(omp for schedule(dynamic, 64))
                for (int64_t j = (int64_t)head; j < (int64_t)end; j++)
                    visit(&R, R.queue[j], m, buf, &nbuf);
                if (nbuf)
                    push_block(&R, buf, nbuf);
            }
            head = end;
        }
        /* step 2, and the options labelled m leave the base counts */
        uint64_t left = 0, labelled = 0;
        NS_PRAGMA(omp parallel for schedule(static) num_threads(threads) reduction(+ : left))
        for (int64_t i = 0; i < (int64_t)n; i++) {
            if (R.lab[i] != UNL)
                continue;
            if (R.reach[i] != m + 1)
                R.lab[i] = INF;
            else
                left++;
        }
        NS_PRAGMA(omp parallel for schedule(dynamic, 64) num_threads(threads) reduction(+ : labelled))
        for (int64_t j = 0; j < (int64_t)R.qtail; j++) {
            const uint32_t v = R.queue[j];
            if (R.lab[v] != m)
                continue;
            labelled++;
            for (uint64_t a = R.ro[v]; a < R.ro[(uint64_t)v + 1]; a++) {
                const uint32_t p = R.rfrom[a];
                if (__atomic_load_n(&R.lab[p], __ATOMIC_RELAXED) == UNL)
                    __atomic_sub_fetch(&R.base[p], 1, __ATOMIC_RELAXED);
            }
        }
        if (labelled)
            x->max_finite = m;
        x->nfinite += labelled;
        x->stages = (uint64_t)m + 1;
        unl = left;
    }
    if ((rc = collect_sets(&R, x, threads, err)))
        goto fail;
    free_run(&R);
    *out = x;
    return NS_OK;

fail:
    free_run(&R);
    ns_gsg_free(x);
    return rc;
}

int ns_gsg_outcome(uint32_t v, const uint32_t *k, uint64_t nk)
{
    if (v == NS_GSG_NONE)
        return NS_PN_INVALID;
    if (v != NS_GSG_INF)
        return v == 0 ? NS_PN_P : NS_PN_N;
    return nk > 0 && k[0] == 0 ? NS_PN_N : NS_PN_DRAW;
}

const uint32_t *ns_gsg_set(const ns_gsg *x, uint64_t i, uint64_t *n)
{
    *n = 0;
    if (i >= x->ncells || x->value[i] != NS_GSG_INF)
        return NULL;
    uint64_t j = 0;
    for (uint64_t c = 0; c < i; c++)
        j += x->value[c] == NS_GSG_INF;
    *n = x->inf_off[j + 1] - x->inf_off[j];
    return x->inf_val + x->inf_off[j];
}

ns_err ns_gsg_check_outcomes(const ns_gsg *x, const ns_table *t, ns_error *err)
{
    if (t->ncells != x->ncells || !t->pn_only)
        return ns_error_set(err, NS_EINTERNAL, "generalized Sprague-Grundy values: not the shape of the P/N table");
    for (uint64_t i = 0, j = 0; i < x->ncells; i++) {
        const uint32_t v = x->value[i];
        const uint32_t *k = v == NS_GSG_INF ? x->inf_val + x->inf_off[j] : NULL;
        const uint64_t nk = v == NS_GSG_INF ? x->inf_off[j + 1] - x->inf_off[j] : 0;
        j += v == NS_GSG_INF;
        const int want = ns_table_pn(t, i);
        if (ns_gsg_outcome(v, k, nk) != want) {
            int64_t s[NS_MAX_DIM];
            ns_table_coords(t, i, s);
            return ns_error_set(err, NS_EINTERNAL,
                                "generalized Sprague-Grundy values: cell %" PRIu64 " has outcome %d by its value, %d in "
                                "the P/N/draw table",
                                i, ns_gsg_outcome(v, k, nk), want);
        }
    }
    return NS_OK;
}

ns_err ns_gsg_solve_for(const ns_game *g, const ns_table *t, int threads, ns_gsg **out, ns_error *err)
{
    ns_err rc = ns_gsg_solve(g, threads, out, err);
    if (!rc && (rc = ns_gsg_check_outcomes(*out, t, err))) {
        ns_gsg_free(*out);
        *out = NULL;
    }
    return rc;
}
