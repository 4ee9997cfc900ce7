/* ns_retro.c - retrograde analysis: P / N / draw tables of loopy games
 * (ns_game.loopy: moves that need not lower the rank), with remoteness
 * (see ns_engine.h).
 *
 * Outcomes. Every position counts its options. Positions without options
 * are decided first (normal play: P, the player to move loses; misere: N),
 * remoteness 0. Then, frontier by frontier: a P position makes every
 * undecided predecessor N; an N position decrements the counter of each
 * undecided predecessor, and one whose counter reaches zero (all its
 * options are N) is P. Positions still undecided when no frontier is left
 * are draws (D): from them neither player can force a win.
 *
 * Remoteness. Frontier r holds exactly the positions of remoteness r: a
 * position made N while frontier r is processed gets r + 1 = 1 + the least
 * remoteness of its P options (the winner hurries: frontiers come in
 * increasing r, so the first P option found is the nearest); a P position
 * gets its last option's r + 1 = 1 + the largest remoteness of its options
 * (the loser delays). A position never becomes both in one frontier: its
 * counter reaches zero only when every option is N, and then it has no P
 * option. So the values and the remoteness depend only on the frontiers,
 * not on the order in which threads visit a frontier: identical tables at
 * any thread count.
 *
 * Predecessors. Rays and finite families are inverted from the families
 * themselves: the predecessors of q along a ray "s + e + t*d, t >= 0" are
 * q - e - t*d for t = 0, 1, ... inside the box (walked as the forward ray
 * is), those of a finite family q - o. General and prefix families (any
 * callback) get a reverse index built from their forward options before
 * the search: CSR arrays, an offset per cell (8 bytes, ncells + 1 of them)
 * and one 8-byte cell index per option of those families. Memory besides
 * the table: 4 bytes a cell (option counters) + 8 bytes a cell (the queue
 * of decided positions, in order of remoteness), plus the reverse index
 * when the game has general or prefix families; the caller's remoteness
 * array (4 bytes a cell) is optional.
 *
 * Parallel: OpenMP over the cells (counting, the reverse index) and over
 * each frontier (atomic counters, compare-and-swap on the outcome, blocks
 * of the next frontier appended with one atomic add).
 *
 * Checkpoints. Units are frontiers: after u of them (o->checkpoint(user,
 * u, positions) between frontiers u - 1 and u) the positions of remoteness
 * <= u are decided and the others UNDEC, so the table and the remoteness
 * are the whole state. retro_rebuild makes the counters and the queue of
 * frontier u again from them (the resume, ns_engine.h). */
#include "engine/ns_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"

/* outcome of a cell while the search runs (a P/N table's elem-1 cells) */
enum { UNDEC = 2 };

/* cells appended to the next frontier at once */
#define PUSH_BLOCK 256

typedef struct retro {
    const ns_game *g;
    ns_table *t;
    uint8_t *out;           /* t->data */
    uint32_t *cnt;          /* options not yet decided N, per cell; owned */
    uint64_t *queue;        /* decided positions, by remoteness; owned */
    uint64_t qtail;         /* atomic */
    uint64_t *roff;         /* reverse index of general/prefix families: */
    uint64_t *rpred;        /* predecessors of cell i at rpred[roff[i] .. roff[i+1]); owned */
    int has_index;
    uint32_t *rem;          /* OPTIONAL, the caller's */
    int failed;             /* atomic: an enumeration failed */
    ns_error *err;
} retro;

static int is_indexed(const ns_family *f)
{
    return f->kind == NS_FAM_GENERAL || f->kind == NS_FAM_PREFIX;
}

/* Options of s from family f, as ns_game_foreach_option gives them. */
static int fam_options(const ns_game *g, const ns_family *f, const int64_t *s, ns_emit_fn emit, void *user,
                       ns_error *err)
{
    if (f->kind != NS_FAM_PREFIX)
        return ns_game_family_options(g, f, s, emit, user, err);
    int64_t c[NS_MAX_DIM];
    int rc = 0;
    memcpy(c, s, (size_t)g->k * sizeof *c);
    for (c[f->axis] = 0; c[f->axis] <= s[f->axis] && !rc; c[f->axis]++)
        rc = ns_game_family_options(g, f, c, emit, user, err);
    return rc;
}

/* Record the first failure (message into R->err) */
static void fail_once(retro *R, const ns_error *e)
{
    int was = __atomic_exchange_n(&R->failed, 1, __ATOMIC_ACQ_REL);
    if (!was && R->err)
        *R->err = *e;
}

typedef struct count_ctx {
    retro *R;
    uint32_t n;
    int index;              /* 1: count in-degrees into roff; 2: fill rpred */
    uint64_t from;
} count_ctx;

static int count_emit(void *u, const int64_t *o)
{
    count_ctx *c = u;
    c->n++;
    if (c->index) {
        const uint64_t j = ns_table_index(c->R->t, o);
        if (c->index == 1) {
            __atomic_add_fetch(&c->R->roff[j], 1, __ATOMIC_RELAXED);
        } else {
            const uint64_t at = __atomic_sub_fetch(&c->R->roff[j], 1, __ATOMIC_RELAXED);
            c->R->rpred[at] = c->from;
        }
    }
    return 0;
}

/* pass 1: options per cell, in-degrees of the reverse index, the
 * terminal positions; pass 2: fill the reverse index */
static void scan_cells(retro *R, int threads, int pass)
{
    const ns_game *g = R->g;
    const int64_t n = (int64_t)R->t->ncells;
    NS_OMP_FOR_DYNAMIC(threads)
    for (int64_t i = 0; i < n; i++) {
        if (__atomic_load_n(&R->failed, __ATOMIC_RELAXED))
            continue;
        int64_t s[NS_MAX_DIM];
        ns_table_coords(R->t, (uint64_t)i, s);
        if (!ns_game_is_position(g, s)) {
            if (pass == 1)
                R->out[i] = 0xFF;
            continue;
        }
        ns_error e = {0};
        count_ctx c = {R, 0, 0, (uint64_t)i};
        for (int f = 0; f < g->nfam; f++) {
            const ns_family *fm = &g->fam[f];
            if (pass == 2 && !is_indexed(fm))
                continue;
            c.index = is_indexed(fm) ? pass : 0;
            if (fam_options(g, fm, s, count_emit, &c, &e) < 0) {
                fail_once(R, &e);
                break;
            }
        }
        if (pass == 1) {
            R->cnt[i] = c.n;
            R->out[i] = UNDEC;
        }
    }
}

/* Append the block buf[0..n) to the queue. */
static void push_block(retro *R, const uint64_t *buf, int n)
{
    const uint64_t at = __atomic_fetch_add(&R->qtail, (uint64_t)n, __ATOMIC_RELAXED);
    memcpy(R->queue + at, buf, (size_t)n * sizeof *buf);
}

/* Decide cell p as v with remoteness r if still undecided; into the block. */
static void decide(retro *R, uint64_t p, uint8_t v, uint32_t r, uint64_t *buf, int *nbuf)
{
    uint8_t expect = UNDEC;
    if (!__atomic_compare_exchange_n(&R->out[p], &expect, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return;
    if (R->rem)
        R->rem[p] = r;
    buf[(*nbuf)++] = p;
    if (*nbuf == PUSH_BLOCK) {
        push_block(R, buf, *nbuf);
        *nbuf = 0;
    }
}

/* What a decided option q (outcome v, remoteness r) does to predecessor p. */
static void reach(retro *R, uint64_t p, uint8_t v, uint32_t r, uint64_t *buf, int *nbuf)
{
    if (__atomic_load_n(&R->out[p], __ATOMIC_RELAXED) != UNDEC)
        return;
    if (v == NS_PN_P)
        decide(R, p, NS_PN_N, r + 1, buf, nbuf);
    else if (__atomic_sub_fetch(&R->cnt[p], 1, __ATOMIC_RELAXED) == 0)
        decide(R, p, NS_PN_P, r + 1, buf, nbuf);
}

/* Every predecessor of q along the rays and finite families. */
static void reach_families(retro *R, const int64_t *q, uint8_t v, uint32_t r, uint64_t *buf, int *nbuf)
{
    const ns_game *g = R->g;
    const int k = g->k;
    int64_t p[NS_MAX_DIM];
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        if (fm->kind == NS_FAM_FINITE) {
            for (size_t j = 0; j < fm->noffsets; j++) {
                const int64_t *off = fm->offsets + j * (size_t)k;
                for (int i = 0; i < k; i++)
                    p[i] = q[i] - off[i];
                if (ns_game_is_position(g, p))
                    reach(R, ns_table_index(R->t, p), v, r, buf, nbuf);
            }
        } else if (fm->kind == NS_FAM_RAY) {
            /* q = p + e + t*d: p = q - e - t*d, walked along -d while
             * a later step could still land in the box */
            for (int i = 0; i < k; i++)
                p[i] = q[i] - fm->base[i];
            for (;;) {
                int in = ns_game_in_box(g, p);
                if (in && (!g->valid || g->valid(g->valid_ctx, k, p)))
                    reach(R, ns_table_index(R->t, p), v, r, buf, nbuf);
                if (!in) {
                    int gone = 0;
                    for (int i = 0; i < k; i++)
                        if ((p[i] < 0 && fm->dir[i] >= 0) || (p[i] >= g->bounds[i] && fm->dir[i] <= 0))
                            gone = 1;
                    if (gone)
                        break;
                }
                for (int i = 0; i < k; i++)
                    p[i] -= fm->dir[i];
            }
        }
    }
}

static int retro_applies(const ns_game *g, const ns_engine_opts *o, char *why, size_t len)
{
    if (!o->pn_only) {
        if (why)
            snprintf(why, len, "fills P/N/draw tables (generalized Sprague-Grundy values come beside them: ns_engine_opts.gsg)");
        return 0;
    }
    if (o->tile_sink || o->rows_sink) {
        if (why)
            snprintf(why, len, "cannot stream (it keeps the whole table in memory)");
        return 0;
    }
    if (ns_game_max_options(g) >= UINT32_MAX) {
        if (why)
            snprintf(why, len, "a position may have 2^32 options or more (its counters are 32-bit)");
        return 0;
    }
    return 1;
}

static uint64_t retro_memory(const ns_game *g, const ns_engine_plan *plan)
{
    int indexed = 0;
    for (int f = 0; f < g->nfam; f++)
        indexed |= is_indexed(&g->fam[f]);
    /* counters and queue; the reverse index's offsets (its entries, one
     * per option of the general families, are counted at run time) */
    return plan->cells * (sizeof(uint32_t) + sizeof(uint64_t)) + (indexed ? (plan->cells + 1) * sizeof(uint64_t) : 0);
}

/* The initialisation of every solve: options per cell (R->cnt), positions
 * marked UNDEC and the others 0xFF in R->out, and the reverse index of the
 * general and prefix families. */
static ns_err retro_init(retro *R, int threads)
{
    const uint64_t n = R->t->ncells;
    scan_cells(R, threads, 1); /* options per cell (and in-degrees of the reverse index) */
    if (R->failed)
        return R->err ? R->err->code : NS_EGAME;
    if (!R->has_index)
        return NS_OK;
    uint64_t sum = 0; /* inclusive prefix sums: roff[i] = end of list i */
    for (uint64_t i = 0; i < n; i++) {
        sum += R->roff[i];
        R->roff[i] = sum;
    }
    R->roff[n] = sum;
    R->rpred = malloc((sum ? sum : 1) * sizeof *R->rpred);
    if (!R->rpred)
        return ns_error_set(R->err, NS_ENOMEM, "retro: out of memory for the reverse index (%" PRIu64 " moves, %.2f GiB)",
                            sum, (double)sum * 8 / (1 << 30));
    scan_cells(R, threads, 2); /* roff[i] ends at the start of list i */
    if (R->failed)
        return R->err ? R->err->code : NS_EGAME;
    return NS_OK;
}

/* A fresh solve's frontier 0: the positions without options. */
static void retro_start(retro *R, int threads)
{
    const uint8_t terminal = R->g->play == NS_PLAY_MISERE ? NS_PN_N : NS_PN_P;
    const int64_t n = (int64_t)R->t->ncells;
    if (R->rem)
        for (int64_t i = 0; i < n; i++)
            R->rem[i] = NS_REMOTE_NONE;
    NS_PRAGMA(omp parallel num_threads(threads))
    {
        uint64_t buf[PUSH_BLOCK];
        int nbuf = 0;
        NS_PRAGMA(omp for schedule(static))
        for (int64_t i = 0; i < n; i++)
            if (R->out[i] == UNDEC && R->cnt[i] == 0)
                decide(R, (uint64_t)i, terminal, 0, buf, &nbuf);
        if (nbuf)
            push_block(R, buf, nbuf);
    }
}

/* Keep the least index of a cell a checkpoint cannot hold. */
static void note_bad(int64_t *bad, int64_t i)
{
    int64_t b = __atomic_load_n(bad, __ATOMIC_RELAXED);
    while ((b < 0 || i < b) && !__atomic_compare_exchange_n(bad, &b, i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

typedef struct undo_ctx {
    const retro *R;
    uint32_t level;
    uint32_t n;             /* options already processed as N */
} undo_ctx;

static int undo_emit(void *u, const int64_t *o)
{
    undo_ctx *c = u;
    const uint64_t j = ns_table_index(c->R->t, o);
    c->n += c->R->out[j] == NS_PN_N && c->R->rem[j] < c->level;
    return 0;
}

/* Resume (see ns_engine.h): the state at the boundary between frontiers
 * level - 1 and level, rebuilt from a checkpoint of it. R->out holds the
 * checkpoint's cells (P, N, UNDEC, 0xFF) and R->rem its remoteness: the
 * positions of remoteness <= level are decided, the others UNDEC. The
 * fresh solve's initialisation runs first (the checkpoint's cells wait in
 * the queue's memory meanwhile), then the decided cells come back, each
 * undecided cell's counter loses its options already processed as N (those
 * of remoteness < level: no P option of remoteness < level can exist, it
 * would have decided the cell), and the queue gets frontier level (the
 * cells of remoteness level). The checkpoint is checked against the game
 * on the way: NS_EFORMAT when it cannot be a state of this solve. */
static ns_err retro_rebuild(retro *R, int threads, uint32_t level)
{
    const int64_t n = (int64_t)R->t->ncells;
    if (!R->rem)
        return ns_error_set(R->err, NS_EINVAL, "retro: a resume needs the checkpoint's remoteness (opts.remoteness)");
    uint8_t *saved = (uint8_t *)R->queue; /* n bytes of the queue's 8n, unused until the end */
    memcpy(saved, R->out, (size_t)n);
    ns_err rc = retro_init(R, threads);
    if (rc)
        return rc;
    int64_t bad = -1; /* the first cell the checkpoint cannot hold (the least index) */
    NS_OMP_FOR(threads)
    for (int64_t i = 0; i < n; i++) {
        const uint8_t v = saved[i];
        const uint32_t r = R->rem[i];
        int ok;
        if (R->out[i] == 0xFF)
            ok = v == 0xFF && r == NS_REMOTE_NONE;
        else if (v == UNDEC)
            ok = r == NS_REMOTE_NONE;
        else
            ok = (v == NS_PN_P || v == NS_PN_N) && r <= level;
        if (!ok)
            note_bad(&bad, i);
        else
            R->out[i] = v;
    }
    /* each undecided cell's counter loses its options processed as N; one
     * left at zero would have been decided P */
    NS_OMP_FOR_DYNAMIC(threads)
    for (int64_t i = 0; i < n; i++) {
        if (__atomic_load_n(&bad, __ATOMIC_RELAXED) >= 0 || R->out[i] != UNDEC ||
            __atomic_load_n(&R->failed, __ATOMIC_RELAXED))
            continue;
        int64_t s[NS_MAX_DIM];
        ns_error e = {0};
        undo_ctx c = {R, level, 0};
        ns_table_coords(R->t, (uint64_t)i, s);
        for (int f = 0; f < R->g->nfam; f++)
            if (fam_options(R->g, &R->g->fam[f], s, undo_emit, &c, &e) < 0) {
                fail_once(R, &e);
                break;
            }
        if (c.n >= R->cnt[i])
            note_bad(&bad, i);
        R->cnt[i] -= c.n;
    }
    if (R->failed)
        return R->err ? R->err->code : NS_EGAME;
    if (bad >= 0) {
        int64_t s[NS_MAX_DIM];
        char where[256];
        size_t used = 0;
        ns_table_coords(R->t, (uint64_t)bad, s);
        for (int d = 0; d < R->t->k && used < sizeof where; d++)
            used += (size_t)snprintf(where + used, sizeof where - used, "%s%" PRId64, d ? ", " : "", s[d]);
        char rem[24] = "none";
        if (R->rem[bad] != NS_REMOTE_NONE)
            snprintf(rem, sizeof rem, "%" PRIu32, R->rem[bad]);
        return ns_error_set(R->err, NS_EFORMAT, "retro: the checkpoint is no state of this game after %" PRIu32
                            " frontiers: cell (%s) holds code %u with remoteness %s", level, where,
                            (unsigned)saved[bad], rem);
    }
    NS_PRAGMA(omp parallel num_threads(threads))
    {
        uint64_t buf[PUSH_BLOCK];
        int nbuf = 0;
        NS_PRAGMA(omp for schedule(static))
        for (int64_t i = 0; i < n; i++)
            if (R->out[i] != UNDEC && R->out[i] != 0xFF && R->rem[i] == level) {
                buf[nbuf++] = (uint64_t)i;
                if (nbuf == PUSH_BLOCK) {
                    push_block(R, buf, nbuf);
                    nbuf = 0;
                }
            }
        if (nbuf)
            push_block(R, buf, nbuf);
    }
    return NS_OK;
}

/* A solve from scratch (units_done 0) or from a checkpoint after
 * units_done frontiers. Units are frontiers (0, 1, ...): after u of them,
 * the positions of remoteness <= u are decided. Their number is not known
 * in advance; units_total is the number of positions, a bound on it (every
 * frontier holds a position). */
static ns_err retro_solve(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                          uint64_t units_done, ns_error *err)
{
    if (t->elem != 1)
        return ns_error_set(err, NS_EINTERNAL, "retro: expected a P/N table of 1-byte cells");
    const int threads = o->threads > 0 ? o->threads : ns_omp_max_threads();
    const uint64_t n = t->ncells;
    ns_err rc = NS_OK;
    retro R = {.g = g, .t = t, .out = t->data, .rem = o->remoteness, .err = err};
    for (int f = 0; f < g->nfam; f++)
        R.has_index |= is_indexed(&g->fam[f]);
    if (units_done >= UINT32_MAX - 1)
        return ns_error_set(err, NS_EFORMAT, "retro: a checkpoint after %" PRIu64 " frontiers (remoteness is 32-bit)",
                            units_done);
    R.cnt = malloc(n * sizeof *R.cnt);
    R.queue = malloc(n * sizeof *R.queue);
    if (R.has_index)
        R.roff = calloc(n + 1, sizeof *R.roff);
    if (!R.cnt || !R.queue || (R.has_index && !R.roff)) {
        rc = ns_error_set(err, NS_ENOMEM, "retro: out of memory for the counters and the queue (%.2f GiB)",
                          (double)retro_memory(g, plan) / (1 << 30));
        goto fail;
    }
    if (units_done) {
        if ((rc = retro_rebuild(&R, threads, (uint32_t)units_done)))
            goto fail;
    } else {
        if ((rc = retro_init(&R, threads)))
            goto fail;
        retro_start(&R, threads);
    }

    uint64_t head = 0, positions = 0, before = 0; /* before: decided in frontiers before the queue's */
    for (uint64_t i = 0; i < n; i++) {
        positions += R.out[i] != 0xFF;
        before += units_done && R.out[i] != 0xFF && R.out[i] != UNDEC && R.rem[i] < units_done;
    }
    for (uint32_t r = (uint32_t)units_done; head < R.qtail; r++) {
        const uint64_t end = R.qtail;
        if (r == UINT32_MAX - 1) {
            rc = ns_error_set(err, NS_ERANGE, "retro: remoteness above 2^32 - 2");
            goto fail;
        }
        NS_PRAGMA(omp parallel num_threads(threads))
        {
            uint64_t buf[PUSH_BLOCK];
            int nbuf = 0;
            NS_PRAGMA(omp for schedule(dynamic, 64))
            for (int64_t j = (int64_t)head; j < (int64_t)end; j++) {
                const uint64_t q = R.queue[j];
                const uint8_t v = R.out[q];
                int64_t s[NS_MAX_DIM];
                ns_table_coords(t, q, s);
                reach_families(&R, s, v, r, buf, &nbuf);
                if (R.has_index)
                    for (uint64_t a = R.roff[q]; a < R.roff[q + 1]; a++)
                        reach(&R, R.rpred[a], v, r, buf, &nbuf);
            }
            if (nbuf)
                push_block(&R, buf, nbuf);
        }
        head = end;
        if (o->progress && o->progress(o->progress_user, positions ? (double)(before + head) / (double)positions : 1.0)) {
            rc = ns_error_set(err, NS_EINTR, "interrupted");
            goto fail;
        }
        /* between frontiers r and r + 1 (none when r was the last) */
        if (o->checkpoint && head < R.qtail && o->checkpoint(o->checkpoint_user, (uint64_t)r + 1, positions)) {
            rc = ns_error_set(err, NS_EINTR, "interrupted");
            goto fail;
        }
    }
    /* the rest are draws */
    NS_OMP_FOR(threads)
    for (int64_t i = 0; i < (int64_t)n; i++)
        if (R.out[i] == UNDEC)
            R.out[i] = NS_PN_DRAW;
    /* generalized Sprague-Grundy values when asked (ns_retro_gsg.c) */
    if (o->gsg && (rc = ns_gsg_solve_for(g, t, threads, o->gsg, err)))
        goto fail;

fail:
    free(R.cnt);
    free(R.queue);
    free(R.roff);
    free(R.rpred);
    return rc;
}

static ns_err retro_run(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                        ns_error *err)
{
    return retro_solve(g, t, plan, o, 0, err);
}

static ns_err retro_resume(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                           uint64_t units_done, ns_error *err)
{
    return retro_solve(g, t, plan, o, units_done, err);
}

const ns_engine ns_engine_retro = {
    .name = "retro",
    .what = "retrograde analysis: loopy games to P / N / draw with remoteness, frontiers in parallel",
    .kinds = NS_ENGINE_PN,
    .applies = retro_applies,
    .memory = retro_memory,
    .run = retro_run,
    .resume = retro_resume,
    .stream_unit = NULL,
    .loopy = 1,
};
