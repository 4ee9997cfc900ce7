/* ns_sequence.c - the sequence engine: take-and-break heap games
 * (game/ns_octal.h: octal and hexadecimal codes, Grundy's game) as one
 * Grundy sequence G(0), G(1), ..., G(N-1) in a 1-D table.
 *
 * G(n) is the mex, over every move from a heap of n, of the XOR of the
 * values of the heaps it leaves: the plain mex over all splits, O(N^2) for
 * codes that split into two heaps (O(N^3) with three), the reference for
 * any faster method. Each heap's option values go into a bitset of
 * 2^b bits, b the bit length of the largest value so far (an XOR of
 * values below 2^b stays below it), and the mex is its first zero bit.
 *
 * Threads. Heap sizes go in blocks [B0, B1). A split of a heap of the
 * block whose parts all lie below B0 depends only on finished values, so
 * those ("early") options of every heap of the block are collected in
 * parallel, one bitset per heap; then the heaps are finished in order,
 * adding the few ("late") options with a part in [B0, n), O(block) per
 * heap. A bitset is a set, so the table does not depend on the number of
 * threads or on the block length.
 *
 * Rule files with split moves (game/ns_rules_heap.c) list their options
 * one by one (rule_options), with the same early / late split.
 *
 * Units (checkpoints, resume): NS_SEQ_UNIT heap sizes each; a resumed
 * solve only needs the largest value of the finished heaps. */
#include "engine/ns_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "game/ns_octal.h"

enum {
    NS_SEQ_UNIT = 4096,             /* heap sizes of a checkpoint unit */
    SEQ_BLOCK = 1024,               /* heap sizes of a block, at most */
};
#define SEQ_EARLY_BYTES ((uint64_t)16 << 20) /* cap on the block's early bitsets */

static int bitlen(uint64_t v)
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

/* words of a bitset holding every value below 2^bitlen(maxv) */
static uint64_t words_for(uint64_t maxv)
{
    const int b = bitlen(maxv);
    return b <= 6 ? 1 : (uint64_t)1 << (b - 6);
}

static inline void mark(uint64_t *seen, uint32_t v)
{
    seen[v >> 6] |= (uint64_t)1 << (v & 63);
}

/* Mark x ^ G(a) ^ G(m - a) for a in [a0, a1]. */
static void mark_pairs(const void *data, int elem, uint32_t x, int64_t m, int64_t a0, int64_t a1, uint64_t *seen)
{
#define NS_SEQ_PAIRS(T)                                                                                                \
    do {                                                                                                               \
        const T *g = data;                                                                                             \
        for (int64_t a = a0; a <= a1; a++)                                                                             \
            mark(seen, x ^ (uint32_t)g[a] ^ (uint32_t)g[m - a]);                                                       \
    } while (0)
    switch (elem) {
    case 1: NS_SEQ_PAIRS(uint8_t); break;
    case 2: NS_SEQ_PAIRS(uint16_t); break;
    default: NS_SEQ_PAIRS(uint32_t); break;
    }
#undef NS_SEQ_PAIRS
}

static inline int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static inline int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* Mark the options of heap n whose parts all lie below b0 (late == 0) or
 * of which some part lies in [b0, n) (late == 1). */
static void options(const ns_octal *o, const ns_table *t, int64_t n, int64_t b0, int late, uint64_t *seen)
{
    const void *data = t->data;
    const int elem = t->elem;
    if (o->kind == NS_TB_GRUNDY) { /* a + b = n, 1 <= a < b */
        const int64_t top = (n - 1) / 2;
        if (late)
            mark_pairs(data, elem, 0, n, 1, min64(top, n - b0), seen);
        else
            mark_pairs(data, elem, 0, n, max64(1, n - b0 + 1), top, seen);
        return;
    }
    for (int tk = 0; tk <= o->tmax && tk <= n; tk++) {
        const unsigned d = o->d[tk];
        const int64_t m = n - tk;
        if (!d)
            continue;
        if ((d & 1) && m == 0 && !late)
            mark(seen, 0);
        if ((d & 2) && m >= 1 && tk >= 1 && (m >= b0) == late)
            mark(seen, ns_table_get(t, (uint64_t)m));
        if ((d & 4) && m >= 2) { /* a + b = m, 1 <= a <= b; late: b >= b0 */
            if (late)
                mark_pairs(data, elem, 0, m, 1, min64(m / 2, m - b0), seen);
            else
                mark_pairs(data, elem, 0, m, max64(1, m - b0 + 1), m / 2, seen);
        }
        if ((d & 8) && m >= 3) { /* a + b + c = m, 1 <= a <= b <= c; late: c >= b0 */
            for (int64_t a = 1; a <= m / 3; a++) {
                const int64_t r = m - a;
                const uint32_t x = ns_table_get(t, (uint64_t)a);
                if (late)
                    mark_pairs(data, elem, x, r, a, min64(r / 2, r - b0), seen);
                else
                    mark_pairs(data, elem, x, r, max64(a, r - b0 + 1), r / 2, seen);
            }
        }
    }
}

/* Rule files with split moves (NS_TB_RULE): their options come from the
 * rule's code, one at a time, each marked when its parts all lie below b0
 * (late == 0) or some part lies in [b0, n) (late == 1). A run-time fault of
 * the rule is kept in *fault (the first one wins; any thread). */
typedef struct seq_fault {
    int set;
    ns_error err;
} seq_fault;

typedef struct rule_mark {
    const ns_table *t;
    int64_t b0;
    int late;
    uint64_t *seen;
} rule_mark;

static int rule_mark_one(void *user, int64_t take, const int64_t *parts, int np)
{
    (void)take;
    const rule_mark *m = user;
    uint32_t x = 0;
    int late = 0;
    for (int i = 0; i < np; i++) {
        late |= parts[i] >= m->b0;
        x ^= ns_table_get(m->t, (uint64_t)parts[i]);
    }
    if (late == m->late)
        mark(m->seen, x);
    return 0;
}

static void rule_options(const ns_octal *o, const ns_table *t, int64_t n, int64_t b0, int late, uint64_t *seen,
                         seq_fault *fault)
{
    rule_mark m = {t, b0, late, seen};
    ns_error e = {0};
    if (ns_octal_foreach_option(o, n, rule_mark_one, &m, &e) < 0 && !__atomic_exchange_n(&fault->set, 1, __ATOMIC_ACQ_REL))
        fault->err = e;
}

/* The first value not in seen (w words). */
static uint64_t mex_of(const uint64_t *seen, uint64_t w)
{
    for (uint64_t i = 0; i < w; i++)
        if (~seen[i])
            return i * 64 + (uint64_t)__builtin_ctzll(~seen[i]);
    return w * 64;
}

static int seq_applies(const ns_game *g, const ns_engine_opts *o, char *why, size_t len)
{
    const char *r = NULL;
    if (!g->octal)
        r = "not a take-and-break heap game (octal code, Grundy's game or a rule file with 'heap')";
    else if (o->pn_only)
        r = "needs a Grundy table (a sum of heaps is P when the XOR of their values is 0)";
    else if (g->play != NS_PLAY_NORMAL)
        r = "needs normal play (misere values of a sum of heaps are not the XOR of the heaps' values)";
    else if (o->tile_sink || o->rows_sink)
        r = "cannot stream yet (it keeps the whole sequence in memory)";
    else if (g->k != 1)
        r = "needs one pile (the heap size)";
    if (r && why)
        snprintf(why, len, "%s", r);
    return r == NULL;
}

static uint64_t seq_memory(const ns_game *g, const ns_engine_plan *plan)
{
    (void)g;
    const uint64_t w = words_for(plan->max_value > UINT32_MAX ? UINT32_MAX : plan->max_value);
    const uint64_t early = w * 8 * SEQ_BLOCK;
    return (early < SEQ_EARLY_BYTES ? early : SEQ_EARLY_BYTES + w * 8) + 2 * w * 8;
}

/* Heap sizes from units_done * NS_SEQ_UNIT on. */
static ns_err seq_solve(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                        uint64_t units_done, ns_error *err)
{
    const ns_octal *oc = g->octal;
    const int64_t N = t->bounds[0];
    const uint64_t units = (uint64_t)((N + NS_SEQ_UNIT - 1) / NS_SEQ_UNIT);
    const int threads = o->threads > 0 ? o->threads : ns_omp_max_threads();
    uint64_t *early = NULL, *cur = NULL;
    uint64_t cap_early = 0, cap_cur = 0;
    ns_err rc = NS_OK;
    seq_fault fault = {0};
    if (units_done > units)
        return ns_error_set(err, NS_EINVAL, "the checkpoint counts %" PRIu64 " units but this sequence has %" PRIu64,
                            units_done, units);
    uint64_t maxv = 0;
    const int64_t start = (int64_t)units_done * NS_SEQ_UNIT;
    for (int64_t n = 0; n < start && n < N; n++) {
        const uint32_t v = ns_table_get(t, (uint64_t)n);
        maxv = v > maxv ? v : maxv;
    }
    for (uint64_t u = units_done; u < units; u++) {
        const int64_t uend = min64(N, (int64_t)(u + 1) * NS_SEQ_UNIT);
        for (int64_t b0 = (int64_t)u * NS_SEQ_UNIT; b0 < uend;) {
            const uint64_t we = words_for(maxv);
            /* short blocks while the heaps are small (a quarter of b0) */
            int64_t len = min64(SEQ_BLOCK, max64(16, b0 / 4));
            if ((uint64_t)len * we * 8 > SEQ_EARLY_BYTES)
                len = max64(1, (int64_t)(SEQ_EARLY_BYTES / (we * 8)));
            const int64_t b1 = min64(uend, b0 + len);
            const int64_t nb = b1 - b0;
            if ((uint64_t)nb * we > cap_early) {
                free(early);
                cap_early = (uint64_t)nb * we;
                if (!(early = malloc(cap_early * sizeof *early))) {
                    rc = ns_error_set(err, NS_ENOMEM, "out of memory for the bitsets of %" PRId64 " heap sizes", nb);
                    goto fail;
                }
            }
            /* early options: parts below b0, every heap of the block in parallel */
            const int par = threads > 1 && b0 >= 512;
            NS_OMP_FOR_DYNAMIC_IF(threads, par)
            for (int64_t i = 0; i < nb; i++) {
                uint64_t *s = early + (uint64_t)i * we;
                memset(s, 0, we * sizeof *s);
                if (oc->kind == NS_TB_RULE)
                    rule_options(oc, t, b0 + i, b0, 0, s, &fault);
                else
                    options(oc, t, b0 + i, b0, 0, s);
            }
            /* late options, heap by heap */
            for (int64_t n = b0; n < b1; n++) {
                const uint64_t wc = words_for(maxv);
                if (wc > cap_cur) {
                    free(cur);
                    cap_cur = wc;
                    if (!(cur = malloc(cap_cur * sizeof *cur))) {
                        rc = ns_error_set(err, NS_ENOMEM, "out of memory for a bitset of %" PRIu64 " words", wc);
                        goto fail;
                    }
                }
                memcpy(cur, early + (uint64_t)(n - b0) * we, we * sizeof *cur);
                memset(cur + we, 0, (wc - we) * sizeof *cur);
                if (oc->kind == NS_TB_RULE)
                    rule_options(oc, t, n, b0, 1, cur, &fault);
                else
                    options(oc, t, n, b0, 1, cur);
                if (fault.set) {
                    *err = fault.err;
                    rc = err->code ? err->code : NS_EINVAL;
                    goto fail;
                }
                const uint64_t v = mex_of(cur, wc);
                if (v > plan->max_value) {
                    rc = ns_error_set(err, NS_EINTERNAL, "G(%" PRId64 ") = %" PRIu64 " exceeds the bound %" PRIu64, n, v,
                                      plan->max_value);
                    goto fail;
                }
                ns_table_set(t, (uint64_t)n, (uint32_t)v);
                maxv = v > maxv ? v : maxv;
            }
            b0 = b1;
        }
        if (o->checkpoint && o->checkpoint(o->checkpoint_user, u + 1, units)) {
            rc = ns_error_set(err, NS_EINTR, "stopped after %" PRId64 " heap sizes", uend);
            goto fail;
        }
        if (o->progress && o->progress(o->progress_user, (double)uend / (double)N)) {
            rc = ns_error_set(err, NS_EINTR, "stopped after %" PRId64 " heap sizes", uend);
            goto fail;
        }
    }
fail:
    free(early);
    free(cur);
    return rc;
}

static ns_err seq_run(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                      ns_error *err)
{
    return seq_solve(g, t, plan, o, 0, err);
}

static ns_err seq_resume(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                         uint64_t units_done, ns_error *err)
{
    return seq_solve(g, t, plan, o, units_done, err);
}

const ns_engine ns_engine_sequence = {
    .name = "sequence",
    .what = "take-and-break heap games as one Grundy sequence: the plain mex over all splits, blocks of heaps in "
            "parallel",
    .kinds = NS_ENGINE_GRUNDY,
    .applies = seq_applies,
    .memory = seq_memory,
    .run = seq_run,
    .resume = seq_resume,
    .stream_unit = NULL,
};
