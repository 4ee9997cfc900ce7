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
 * Cells of one or two bytes mark the splits through a byte map folded
 * into the bitset, 32 (16) splits a step with AVX2, values below 128 as
 * bits gathered in vector registers (engine/ns_seq_mex.h): several times
 * faster than a read-modify-write of a bit a split, the former kernel,
 * still there for rule files, values of 2^24 and more, and
 * NS_SEQ_MEX_BITS. Four-byte cells mark their byte map 8 splits a step
 * with AVX2.
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
 * Memory. The table starts at one byte a value (engine/ns_engine.c's
 * plan) and is widened in place to 2, then 4 bytes (ns_table_widen) by
 * the heap whose value first needs it; the a-priori bound (the number of
 * options) still checks every value.
 *
 * Units (checkpoints, resume): NS_SEQ_UNIT heap sizes each; a resumed
 * solve only needs the largest value of the finished heaps. A block may
 * cover several units (the rare/common method's blocks reach RC_BLOCK
 * heap sizes: each block costs one synchronisation of the threads, which
 * on a loaded machine costs more than the block's work); the units it
 * finished are then reported one by one, in order. */
#include "engine/ns_engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "game/ns_octal.h"
#include "engine/ns_seq_group.h"
#include "engine/ns_seq_mex.h"
#include "engine/ns_seq_pipe.h"
#include "engine/ns_seq_rc.h"
#include "engine/ns_seq_split3.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum {
    SEQ_BLOCK = 1024,               /* heap sizes of a block, at most */
};
#define SEQ_EARLY_BYTES ((uint64_t)16 << 20) /* cap on the block's early bitsets */
/* bitset words up to which the plain mex marks a byte map (64 bytes a word,
 * one a thread: 16 MiB at most; values below 2^24) */
#define SEQ_MAP_WORDS ((uint64_t)1 << 18)

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


/* Where the plain mex marks a heap's options: the bitset seen, or, when
 * map is set (cells of one or two bytes, not NS_SEQ_MEX_BITS), bytes of
 * map (engine/ns_seq_mex.h), which the caller folds into seen; the
 * three-heap value sets (ns_seq_split3) go to seen in both cases. vec:
 * the map's vector kernel may run. */
typedef struct seq_marks {
    uint64_t *seen;
    uint8_t *map;
    uint64_t w; /* words of seen (64 w bytes of map) */
    int vec;
} seq_marks;

static inline void mark_one(const seq_marks *k, uint32_t v)
{
    if (k->map)
        k->map[v] = 0xff;
    else
        ns_seq_mark(k->seen, v);
}

/* Mark x ^ G(a) ^ G(m - a) for a in [a0, a1]. */
static void mark_pairs(const void *data, int elem, uint32_t x, int64_t m, int64_t a0, int64_t a1, const seq_marks *k)
{
    if (k->map) {
        ns_seq_pairs_mark(data, elem, x, m, a0, a1, k->map, k->seen, k->w, k->vec);
        return;
    }
    uint64_t *seen = k->seen;
#define NS_SEQ_PAIRS(T)                                                                                                \
    do {                                                                                                               \
        const T *g = data;                                                                                             \
        for (int64_t a = a0; a <= a1; a++)                                                                             \
            ns_seq_mark(seen, x ^ (uint32_t)g[a] ^ (uint32_t)g[m - a]);                                                       \
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
static void options(const ns_octal *o, const ns_table *t, int64_t n, int64_t b0, int late, const seq_marks *seen,
                    const ns_seq_split3 *s3)
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
            mark_one(seen, 0);
        if ((d & 2) && m >= 1 && tk >= 1 && (m >= b0) == late)
            mark_one(seen, ns_table_get(t, (uint64_t)m));
        if ((d & 4) && m >= 2) { /* a + b = m, 1 <= a <= b; late: b >= b0 */
            if (late)
                mark_pairs(data, elem, 0, m, 1, min64(m / 2, m - b0), seen);
            else
                mark_pairs(data, elem, 0, m, max64(1, m - b0 + 1), m / 2, seen);
        }
        if ((d & 8) && m >= 3 && s3) /* three heaps from the two-heap value sets (ns_seq_split3.h) */
            ns_seq_split3_mark(s3, m, b0, late, seen->seen);
        else if ((d & 8) && m >= 3) { /* a + b + c = m, 1 <= a <= b <= c; late: c >= b0 */
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
        ns_seq_mark(m->seen, x);
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

/* ---- the rare/common method ----
 *
 * With a mask m, a value v is rare when popcount(v & m) is even, else
 * common. Parities add under XOR, so a split of a heap into two heaps of
 * values x and y has a common value exactly when one of x, y is rare and
 * the other common. Hence every common option value of heap n comes from
 * a single heap, or from a split with a rare part: with R the rare heap
 * sizes (few, when the sequence lives in "sparse space"), the common
 * options of n are found in O(|R|) per split digit, and c, the smallest
 * common value not among them, is exact. G(n) is c unless a rare value
 * below c is missing from the options; each of those rare values must be
 * found among the splits: a window of RC_WINDOW pairs of far heaps
 * usually finds them all, and only when it does not are all splits of n
 * scanned (stopping as soon as every rare value below c has turned up;
 * a scan that ends without, proves G(n) rare). Three-heap splits have
 * common values from three common parts, so codes with them are left to
 * the plain mex.
 *
 * Where the time goes (Grundy's game, about 1,300 rare heaps from 2^20
 * on): the splits with a rare part, O(|R|) a heap, go through the group
 * pass (engine/ns_seq_group.h: 32 heaps a rare part, one load and one
 * byte store a split) from RC_GROUP_MIN rare heaps on; the scans for the
 * missing rare values go through the vector kernel (below) once at most
 * RC_VEC_MAX values are missing. Values are marked in byte maps where
 * cells are one byte (fold_bytes). Measured on one thread, user time:
 * 4.5 s -> 1.3 s to 2^20, 75 s -> 21 s to 2^24 (see the README's
 * benchmark section); 0.1777 equal at 2^24, 6 to 10% slower at 2^25 in
 * one interleaved run. Two-byte cells (Grundy's game past 7,250,049)
 * still mark their scalar paths one read-modify-write at a time.
 *
 * The mask is chosen from the data: with h(v) the count of heaps 1..n-1
 * of value v, the number of rare heaps under mask m is
 * (sum_v h(v) + H(m)) / 2, H the Walsh-Hadamard transform of h, so all
 * masks are weighed at once (values below 2^16). At block starts, on a
 * geometric schedule (n grown by a quarter), the mask that makes the
 * fewest heaps rare replaces the current one when it makes at most three
 * quarters as many rare (then R is rebuilt from the sequence). A block
 * uses the method once n >= RC_MIN and at most 1/RC_SPARSE of the heaps
 * are rare; otherwise it runs the plain mex (same values: both compute
 * the exact mex). The mask only changes the speed, never a value. */

enum {
    RC_MIN = 512,     /* heap sizes before the method is tried */
    RC_WINDOW = 64,   /* far pairs each heap tries in parallel for the rare values, a chunk */
    RC_SPARSE = 8,    /* the method runs while at most 1/RC_SPARSE of the heaps are rare */
    RC_BLOCK = 16384, /* heap sizes of a block, at most (one synchronisation each) */
};
#define PIPE_SEGMENT ((int64_t)1 << 20) /* heap sizes of a run of the pipeline, at most */
#define PIPE_QUIET ((int64_t)1 << 16)   /* heap sizes since the last rare one before the pipeline starts */



static void moves_of(const ns_octal *o, ns_seq_moves *mv)
{
    memset(mv, 0, sizeof *mv);
    mv->d = o->d;
    mv->tmax = o->kind == NS_TB_GRUNDY ? -1 : o->tmax;
    if (o->kind == NS_TB_GRUNDY) {
        mv->split_t[mv->nsplit++] = 0;
        mv->strict = 1;
        return;
    }
    for (int t = 0; t <= o->tmax; t++) {
        if (o->d[t] & 4)
            mv->split_t[mv->nsplit++] = t;
        if ((o->d[t] & 2) && t >= 1)
            mv->single_t[mv->nsingle++] = t;
    }
}




/* Values of one-byte cells (below 256) are marked as bytes (0xff) in a
 * byte map and folded into the bitset at the end: a byte store per value
 * is independent of the others, where the bits of a bitset of four words
 * are read-modify-writes of the same few words, one chain that waits for
 * each store. fold: s |= the map, which is cleared; a word of s is
 * written only where the map has a value in it (s may have fewer than four
 * words: values below 2^b, b the bit length of the largest, fill only
 * the words of s). */
static inline void fold_words(uint8_t *by, uint64_t *s, int nw)
{
    for (int q = 0; q < nw; q++) {
        uint64_t x = 0;
#ifdef __SSE2__
        for (int h = 0; h < 4; h++)
            x |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(by + 64 * q + 16 * h)))
                 << (16 * h);
#else
        for (int b = 0; b < 64; b++)
            x |= (uint64_t)(by[64 * q + b] >> 7) << b;
#endif
        if (x)
            s[q] |= x;
    }
    memset(by, 0, (size_t)nw * 64);
}

static inline void fold_bytes(uint8_t *by, uint64_t *s)
{
    fold_words(by, s, 4);
}

/* The group pass (engine/ns_seq_group.h) of heaps n0 .. n0+31 for every
 * split digit: the rare parts rare[0..nr) in each span into by (RC_GROUP
 * maps of RC_MAPB bytes, zero before), spans filled into sk. Cells of one
 * byte, or of two while every value is below RC_MAPB (values of the
 * sequence and so their XORs: then a heap's bitset has at most
 * RC_MAPB / 64 words). */
enum {
    RC_GROUP = NS_SEQ_GROUP,
    RC_GROUP_MIN = 128, /* rare heaps below which the group pass costs more than it saves */
    RC_MAPB = 512,      /* bytes of a heap's map in the group pass */
};
typedef ns_seq_span rc_span;

/* may the group pass run on cells of elem bytes and bitsets of w words? */
static inline int group_fits(int elem, uint64_t w)
{
    return elem == 1 || (elem == 2 && w * 64 <= RC_MAPB);
}

static inline __attribute__((always_inline)) void group_pass_k(const ns_seq_moves *mv, const void *g, int elem,
                                                               const int64_t *rare, int64_t nr, int64_t n0, int64_t b0,
                                                               int late, rc_span *sk, uint8_t *by)
{
    for (int i = 0; i < mv->nsplit; i++) {
        const rc_span sp = sk[i] = ns_seq_group_span(mv->split_t[i], mv->strict, n0, b0, late);
        const int64_t M0 = n0 - mv->split_t[i];
        for (int64_t j = ns_seq_lower_bound(rare, nr, sp.lo); j < nr && rare[j] < sp.hi; j++) {
            const int64_t a = rare[j];
            if (!ns_seq_in_span(&sp, a))
                continue;
            const uint32_t ga = ns_seq_gv(g, elem, a);
#pragma GCC unroll 32
            for (int h = 0; h < RC_GROUP; h++)
                by[h * RC_MAPB + (int)((ga ^ ns_seq_gv(g, elem, M0 - a + h)) & (RC_MAPB - 1))] = 0xff;
        }
    }
}

static void group_pass(const ns_seq_moves *mv, const ns_table *t, const int64_t *rare, int64_t nr, int64_t n0, int64_t b0,
                       int late, rc_span *sk, uint8_t *by)
{
    if (t->elem == 1)
        group_pass_k(mv, t->data, 1, rare, nr, n0, b0, late, sk, by);
    else
        group_pass_k(mv, t->data, 2, rare, nr, n0, b0, late, sk, by);
}

/* Mark the options of heap n (block from b0) that need no value of the
 * block: taking the whole heap, single heaps below b0, splits with a rare
 * part below b0 and the other part below b0 (rare[0..nr0) are the rare
 * heaps below b0). w1: every value is below 64 (one word). */
static inline __attribute__((always_inline)) void rc_early_k(const ns_seq_moves *mv, const ns_seq_rc *rs, int64_t nr0,
                                                             const void *g, int elem, int w1, int64_t n, int64_t b0,
                                                             const rc_span *sk, uint64_t *s)
{
    uint64_t acc = 0;
    uint8_t by[256]; /* one-byte cells, several words: fold_bytes */
    if (!w1 && elem == 1)
        memset(by, 0, sizeof by);
#define RC_MARK(v)                                                                                                     \
    do {                                                                                                               \
        const uint32_t v_ = (v);                                                                                       \
        if (w1)                                                                                                        \
            acc |= (uint64_t)1 << (v_ & 63);                                                                           \
        else if (elem == 1)                                                                                            \
            by[v_ & 255] = 0xff;                                                                                       \
        else                                                                                                           \
            ns_seq_mark(s, v_);                                                                                               \
    } while (0)
    if (n <= mv->tmax && (mv->d[n] & 1))
        RC_MARK(0);
    for (int i = 0; i < mv->nsingle; i++) {
        const int64_t m = n - mv->single_t[i];
        if (m >= 1 && m < b0)
            RC_MARK(ns_seq_gv(g, elem, m));
    }
    for (int i = 0; i < mv->nsplit; i++) {
        const int64_t m = n - mv->split_t[i];
        if (m < 2)
            continue;
        const int64_t lo = max64(1, m - b0 + 1); /* the other part m - a < b0 */
        for (int64_t j = ns_seq_lower_bound(rs->rare, nr0, lo); j < nr0 && rs->rare[j] < m; j++) {
            const int64_t a = rs->rare[j];
            if (sk && ns_seq_in_span(&sk[i], a)) { /* the group pass did these */
                j = ns_seq_lower_bound(rs->rare, nr0, ns_seq_span_next(&sk[i], a)) - 1;
                continue;
            }
            if (mv->strict && 2 * a == m)
                continue;
            RC_MARK(ns_seq_gv(g, elem, a) ^ ns_seq_gv(g, elem, m - a));
        }
    }
    if (w1)
        s[0] |= acc;
    else if (elem == 1)
        fold_bytes(by, s);
#undef RC_MARK
}

/* Mark the pairs (a, m - a), a0 <= a < a1. */
static inline __attribute__((always_inline)) void rc_pairs_k(const void *g, int elem, int w1, int64_t m, int64_t a0,
                                                             int64_t a1, uint64_t *s)
{
    if (w1) {
        uint64_t acc = 0;
        for (int64_t a = a0; a < a1; a++)
            acc |= (uint64_t)1 << ((ns_seq_gv(g, elem, a) ^ ns_seq_gv(g, elem, m - a)) & 63);
        s[0] |= acc;
    } else if (elem == 1) {
        uint8_t by[256] = {0};
        for (int64_t a = a0; a < a1; a++)
            by[ns_seq_gv(g, elem, a) ^ ns_seq_gv(g, elem, m - a)] = 0xff;
        fold_bytes(by, s);
    } else {
        for (int64_t a = a0; a < a1; a++)
            ns_seq_mark(s, ns_seq_gv(g, elem, a) ^ ns_seq_gv(g, elem, m - a));
    }
}

static void rc_pairs(const ns_table *t, int w1, int64_t m, int64_t a0, int64_t a1, uint64_t *s)
{
    switch (t->elem * 2 + w1) {
    case 2: rc_pairs_k(t->data, 1, 0, m, a0, a1, s); break;
    case 3: rc_pairs_k(t->data, 1, 1, m, a0, a1, s); break;
    case 4: rc_pairs_k(t->data, 2, 0, m, a0, a1, s); break;
    case 5: rc_pairs_k(t->data, 2, 1, m, a0, a1, s); break;
    default: rc_pairs_k(t->data, 4, 0, m, a0, a1, s); break;
    }
}


static void rc_early(const ns_seq_moves *mv, const ns_seq_rc *rs, int64_t nr0, const ns_table *t, int w1, int64_t n,
                     int64_t b0, const rc_span *sk, uint64_t *s)
{
    /* without a group pass (sk NULL) the kernels have no skip test */
    switch ((t->elem * 2 + w1) * 2 + (sk != NULL)) {
    case 4: rc_early_k(mv, rs, nr0, t->data, 1, 0, n, b0, NULL, s); break;
    case 5: rc_early_k(mv, rs, nr0, t->data, 1, 0, n, b0, sk, s); break;
    case 6: rc_early_k(mv, rs, nr0, t->data, 1, 1, n, b0, NULL, s); break;
    case 7: rc_early_k(mv, rs, nr0, t->data, 1, 1, n, b0, sk, s); break;
    case 8: rc_early_k(mv, rs, nr0, t->data, 2, 0, n, b0, NULL, s); break;
    case 9: rc_early_k(mv, rs, nr0, t->data, 2, 0, n, b0, sk, s); break;
    case 10: rc_early_k(mv, rs, nr0, t->data, 2, 1, n, b0, NULL, s); break;
    case 11: rc_early_k(mv, rs, nr0, t->data, 2, 1, n, b0, sk, s); break;
    case 16: rc_early_k(mv, rs, nr0, t->data, 4, 0, n, b0, NULL, s); break;
    default: rc_early_k(mv, rs, nr0, t->data, 4, 0, n, b0, sk, s); break;
    }
}

/* The rest of heap n's options with a part in [b0, n) and a rare part:
 * single heaps in [b0, n), splits with a rare part below b0 and the other
 * in [b0, n), splits with a rare part in [b0, n). This runs heap by heap
 * in order (the serial part of a block) and, the rare heaps being mostly
 * small, holds most of the splits with a rare part: one kernel per cell
 * width, its bits gathered in a register while every value is below 64. */
static inline __attribute__((always_inline)) void rc_late_k(const ns_seq_moves *mv, const ns_seq_rc *rs, int64_t nr0,
                                                            const void *g, int elem, int w1, int64_t n, int64_t b0,
                                                            const rc_span *sk, uint64_t *s)
{
    uint64_t acc = 0;
    uint8_t by[256]; /* one-byte cells, several words: fold_bytes */
    if (!w1 && elem == 1)
        memset(by, 0, sizeof by);
#define RC_MARK(v)                                                                                                     \
    do {                                                                                                               \
        const uint32_t v_ = (v);                                                                                       \
        if (w1)                                                                                                        \
            acc |= (uint64_t)1 << (v_ & 63);                                                                           \
        else if (elem == 1)                                                                                            \
            by[v_ & 255] = 0xff;                                                                                       \
        else                                                                                                           \
            ns_seq_mark(s, v_);                                                                                               \
    } while (0)
    for (int i = 0; i < mv->nsingle; i++) {
        const int64_t m = n - mv->single_t[i];
        if (m >= b0)
            RC_MARK(ns_seq_gv(g, elem, m));
    }
    const int64_t *rare = rs->rare;
    for (int i = 0; i < mv->nsplit; i++) {
        const int64_t m = n - mv->split_t[i];
        if (m < 2)
            continue;
        const int64_t hi = m - b0;
        for (int64_t j = 0; j < nr0 && rare[j] <= hi; j++) {
            const int64_t a = rare[j];
            if (sk && ns_seq_in_span(&sk[i], a)) { /* the group pass did these */
                j = ns_seq_lower_bound(rare, nr0, ns_seq_span_next(&sk[i], a)) - 1;
                continue;
            }
            if (!(mv->strict && 2 * a == m))
                RC_MARK(ns_seq_gv(g, elem, a) ^ ns_seq_gv(g, elem, m - a));
        }
        for (int64_t j = nr0; j < rs->nrare && rare[j] < m; j++) {
            const int64_t a = rare[j];
            if (!(mv->strict && 2 * a == m))
                RC_MARK(ns_seq_gv(g, elem, a) ^ ns_seq_gv(g, elem, m - a));
        }
    }
    if (w1)
        s[0] |= acc;
    else if (elem == 1)
        fold_bytes(by, s);
#undef RC_MARK
}

static void rc_late(const ns_seq_moves *mv, const ns_seq_rc *rs, int64_t nr0, const ns_table *t, int w1, int64_t n,
                    int64_t b0, const rc_span *sk, uint64_t *s)
{
    /* without a group pass (sk NULL) the kernels have no skip test */
    switch ((t->elem * 2 + w1) * 2 + (sk != NULL)) {
    case 4: rc_late_k(mv, rs, nr0, t->data, 1, 0, n, b0, NULL, s); break;
    case 5: rc_late_k(mv, rs, nr0, t->data, 1, 0, n, b0, sk, s); break;
    case 6: rc_late_k(mv, rs, nr0, t->data, 1, 1, n, b0, NULL, s); break;
    case 7: rc_late_k(mv, rs, nr0, t->data, 1, 1, n, b0, sk, s); break;
    case 8: rc_late_k(mv, rs, nr0, t->data, 2, 0, n, b0, NULL, s); break;
    case 9: rc_late_k(mv, rs, nr0, t->data, 2, 0, n, b0, sk, s); break;
    case 10: rc_late_k(mv, rs, nr0, t->data, 2, 1, n, b0, NULL, s); break;
    case 11: rc_late_k(mv, rs, nr0, t->data, 2, 1, n, b0, sk, s); break;
    case 16: rc_late_k(mv, rs, nr0, t->data, 4, 0, n, b0, NULL, s); break;
    default: rc_late_k(mv, rs, nr0, t->data, 4, 0, n, b0, sk, s); break;
    }
}



/* ---- the scan for the rare values still missing ----
 *
 * Once a heap's far window has not found every rare value below c, the
 * rest of its splits are scanned for the values still missing. With few
 * of them (RC_VEC_MAX at most) and cells of one or two bytes, the vector
 * kernel takes 32 (16) splits a step: G(a .. a+31) from one load, G(m-a
 * .. m-a-31) from another, reversed, XORed, and compared with each
 * missing value; a value found leaves the list, and the scan stops when
 * the list is empty (G(n) = c) or the splits end (G(n) is the smallest
 * value left: every common value below c and every rare one found is an
 * option). Otherwise (more values missing, wider cells, no AVX2, or
 * NS_SEQ_SCAN_SCALAR) the splits are marked into the heap's bitset 64 at
 * a time, as the plain mex does, until no rare value below c is missing. */

enum {
    RC_VEC_MAX = 16, /* missing rare values the vector kernel follows at once */
};

/* The rare values below c missing from s (w words), ascending, into need;
 * their count, or -1 when there are more than RC_VEC_MAX. */
static int rare_list(const uint64_t *s, const uint64_t *rv, uint64_t w, uint64_t c, uint32_t *need)
{
    int k = 0;
    for (uint64_t i = 0; i < w && i * 64 < c; i++) {
        uint64_t miss = rv[i] & ~s[i];
        if (c - i * 64 < 64)
            miss &= ((uint64_t)1 << (c - i * 64)) - 1;
        for (; miss; miss &= miss - 1) {
            if (k == RC_VEC_MAX)
                return -1;
            need[k++] = (uint32_t)(i * 64 + (uint64_t)__builtin_ctzll(miss));
        }
    }
    return k;
}

/* need[0..k) less the entries whose bit is set in found; the new count */
static int drop_found(uint32_t *need, int k, uint32_t found)
{
    int kk = 0;
    for (int j = 0; j < k; j++)
        if (!(found >> j & 1))
            need[kk++] = need[j];
    return kk;
}

/* The splits (a, m - a), a0 <= a < a1, one at a time, against need[0..*k)
 * (the values found leave it): where the scan stopped (a1, or past the
 * split that found the last value). */
static int64_t find_scalar(const void *g, int elem, int64_t m, int64_t a0, int64_t a1, uint32_t *need, int *k)
{
    int64_t a = a0;
    for (; *k && a < a1; a++) {
        const uint32_t v = ns_seq_gv(g, elem, a) ^ ns_seq_gv(g, elem, m - a);
        for (int j = 0; j < *k; j++)
            if (need[j] == v) {
                *k = drop_found(need, *k, (uint32_t)1 << j);
                break;
            }
    }
    return a;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RC_HAVE_AVX2 1

/* find_scalar for one-byte cells, 32 splits a vector, 8 vectors a step */
__attribute__((target("avx2"))) static int64_t find_u8_avx2(const uint8_t *g, int64_t m, int64_t a, int64_t a1,
                                                            uint32_t *need, int *kp)
{
    int k = *kp;
    const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                         10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
#define RC_PAIRS8(b)                                                                                                   \
    _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(g + (b))),                                                   \
                     _mm256_permute4x64_epi64(                                                                         \
                         _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(g + m - (b) - 31)), rev), 0x4e))
    while (k && a + 256 <= a1) {
        __m256i x[8];
        for (int u = 0; u < 8; u++)
            x[u] = RC_PAIRS8(a + 32 * u);
        uint32_t found = 0;
        for (int j = 0; j < k; j++) {
            const __m256i v = _mm256_set1_epi8((char)need[j]);
            __m256i acc = _mm256_cmpeq_epi8(x[0], v);
            for (int u = 1; u < 8; u++)
                acc = _mm256_or_si256(acc, _mm256_cmpeq_epi8(x[u], v));
            if (!_mm256_testz_si256(acc, acc))
                found |= (uint32_t)1 << j;
        }
        if (found)
            k = drop_found(need, k, found);
        a += 256;
    }
    for (; k && a + 32 <= a1; a += 32) {
        const __m256i x = RC_PAIRS8(a);
        uint32_t found = 0;
        for (int j = 0; j < k; j++)
            if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)need[j]))))
                found |= (uint32_t)1 << j;
        if (found)
            k = drop_found(need, k, found);
    }
#undef RC_PAIRS8
    *kp = k;
    return find_scalar(g, 1, m, a, a1, need, kp);
}

/* the same for two-byte cells, 16 splits a vector */
__attribute__((target("avx2"))) static int64_t find_u16_avx2(const uint16_t *g, int64_t m, int64_t a, int64_t a1,
                                                             uint32_t *need, int *kp)
{
    int k = *kp;
    const __m256i rev = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11,
                                         8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
#define RC_PAIRS16(b)                                                                                                  \
    _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(g + (b))),                                                   \
                     _mm256_permute4x64_epi64(                                                                         \
                         _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(g + m - (b) - 15)), rev), 0x4e))
    while (k && a + 128 <= a1) {
        __m256i x[8];
        for (int u = 0; u < 8; u++)
            x[u] = RC_PAIRS16(a + 16 * u);
        uint32_t found = 0;
        for (int j = 0; j < k; j++) {
            const __m256i v = _mm256_set1_epi16((short)need[j]);
            __m256i acc = _mm256_cmpeq_epi16(x[0], v);
            for (int u = 1; u < 8; u++)
                acc = _mm256_or_si256(acc, _mm256_cmpeq_epi16(x[u], v));
            if (!_mm256_testz_si256(acc, acc))
                found |= (uint32_t)1 << j;
        }
        if (found)
            k = drop_found(need, k, found);
        a += 128;
    }
    for (; k && a + 16 <= a1; a += 16) {
        const __m256i x = RC_PAIRS16(a);
        uint32_t found = 0;
        for (int j = 0; j < k; j++)
            if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(x, _mm256_set1_epi16((short)need[j]))))
                found |= (uint32_t)1 << j;
        if (found)
            k = drop_found(need, k, found);
    }
#undef RC_PAIRS16
    *kp = k;
    return find_scalar(g, 2, m, a, a1, need, kp);
}
#endif

/* Does this run scan with the vector kernel (opts, processor)? */
static int rc_vector(ns_seq_scan how)
{
#ifdef RC_HAVE_AVX2
    return how != NS_SEQ_SCAN_SCALAR && __builtin_cpu_supports("avx2");
#else
    (void)how;
    return 0;
#endif
}

/* find_scalar with the vector kernel for the cell width (vec: AVX2 may run) */
static int64_t find_missing(const ns_table *t, int vec, int64_t m, int64_t a0, int64_t a1, uint32_t *need, int *k)
{
#ifdef RC_HAVE_AVX2
    if (vec && t->elem == 1)
        return find_u8_avx2(t->data, m, a0, a1, need, k);
    if (vec && t->elem == 2)
        return find_u16_avx2(t->data, m, a0, a1, need, k);
#else
    (void)vec;
#endif
    return find_scalar(t->data, t->elem, m, a0, a1, need, k);
}

/* Scan the splits (a, m - a), a0 <= a < a1, of a heap whose bitset s (w
 * words) holds its common options below c, until no rare value below c
 * is missing from s; the values found are marked in s. Where it stopped
 * (a1 when some are still missing). vec: the vector kernel may run (cells
 * of one or two bytes): splits are marked into s 64 at a time while more
 * than RC_VEC_MAX values are missing, then the kernel looks for the rest
 * (*vused set). */
static int64_t rc_scan(const ns_table *t, int vec, int64_t m, int64_t a0, int64_t a1, uint64_t *s, const uint64_t *rv,
                       uint64_t w, uint64_t c, int *vused)
{
    const int w1 = w == 1;
    vec = vec && t->elem <= 2;
    int64_t a = a0;
    while (a < a1) {
        uint32_t need[RC_VEC_MAX], was[RC_VEC_MAX];
        int k = vec ? rare_list(s, rv, w, c, need) : -1;
        if (k == 0)
            return a;
        if (k > 0) {
            const int k0 = k;
            memcpy(was, need, (size_t)k * sizeof *was);
            a = find_missing(t, vec, m, a, a1, need, &k);
            /* mark the values found: was[] less need[] (both ascending) */
            for (int i = 0, j = 0; i < k0; i++) {
                if (j < k && need[j] == was[i])
                    j++;
                else
                    ns_seq_mark(s, was[i]);
            }
            *vused = 1;
            return a;
        }
        if (k < 0 && !ns_seq_rare_missing(s, rv, w, c))
            return a;
        const int64_t e = min64(a1, a + 64);
        rc_pairs(t, w1, m, a, e, s);
        a = e;
    }
    return a;
}

/* The far scan of heap n, on the worker threads: the pairs (a, m - a) of
 * the first split with a0 <= a and both parts below b0, 64 at first, then
 * (rc_scan) until no rare value below c (the smallest common value not
 * yet seen) is missing. Returns where it stopped. */
static int64_t rc_far_scan(const ns_seq_moves *mv, const ns_seq_rc *rs, const ns_table *t, int w1, int vec, int64_t n,
                           int64_t b0, int64_t a0, uint64_t *s, uint64_t w, int *vused)
{
    const int64_t m = n - mv->split_t[0];
    const int64_t end = min64(ns_seq_pair_end(mv, m), b0);
    if (a0 >= end)
        return a0;
    const uint64_t c = ns_seq_common_mex(s, rs->rv, w);
    const int64_t a1 = min64(end, a0 + RC_WINDOW);
    rc_pairs(t, w1, m, a0, a1, s);
    return rc_scan(t, vec, m, a1, end, s, rs->rv, w, c, vused);
}

/* G(n) from s (w words), which holds every common option of n: c, the
 * smallest common value not in s, unless a rare value below c is missing;
 * then the splits of n not yet scanned (the far scan stopped at cur, it
 * began at a0) are (rc_scan), until none is (c) or to the end (the mex of
 * all options). *vused: set when the vector kernel ran. */
static uint64_t rc_resolve(const ns_seq_moves *mv, ns_seq_rc *rs, const ns_table *t, int vec, int64_t n, int64_t a0,
                           int64_t cur, uint64_t *s, uint64_t w, int *vused)
{
    const int fvu = *vused;
    const uint64_t c = ns_seq_common_mex(s, rs->rv, w);
    if (!ns_seq_rare_missing(s, rs->rv, w, c))
        return c;
    rs->st->scans++;
    for (int i = 0; i < mv->nsplit; i++) {
        const int64_t m = n - mv->split_t[i];
        const int64_t hi = ns_seq_pair_end(mv, m);
        /* the first split: [cur, hi), [1, a0), and [a0, cur) again when
         * the far scan ran the vector kernel (it marked only the values
         * missing then); the others: [1, hi) */
        const int redo = i == 0 && fvu;
        const int64_t r0[3] = {i == 0 ? cur : 1, 1, a0}, r1[3] = {hi, i == 0 ? min64(a0, hi) : 1, redo ? cur : a0};
        for (int h = 0; h < 3; h++)
            if (r0[h] < r1[h]) {
                rc_scan(t, vec, m, r0[h], r1[h], s, rs->rv, w, c, vused);
                if (!ns_seq_rare_missing(s, rs->rv, w, c))
                    return c;
            }
    }
    return mex_of(s, w);
}

uint64_t ns_seq_rc_resolve(const ns_seq_moves *mv, ns_seq_rc *rs, const ns_table *t, int vec, int64_t n, uint64_t *s,
                           uint64_t w)
{
    int vused = 0;
    return rc_resolve(mv, rs, t, vec, n, 1, 1, s, w, &vused);
}

static void rc_free(ns_seq_rc *rs)
{
    free(rs->rv);
    free(rs->rare);
    free(rs->hist);
    memset(rs, 0, sizeof *rs);
}

/* The rare-value bitset for w words under the current mask. */
static ns_err rc_set_rv(ns_seq_rc *rs, uint64_t w, ns_error *err)
{
    if (w > rs->rv_words) {
        uint64_t *p = realloc(rs->rv, w * sizeof *p);
        if (!p)
            return ns_error_set(err, NS_ENOMEM, "out of memory for the rare values");
        rs->rv = p;
        rs->rv_words = w;
    }
    for (uint64_t i = 0; i < rs->rv_words; i++) {
        uint64_t x = 0;
        for (int b = 0; b < 64; b++)
            if (ns_seq_is_rare(rs->mask, (uint32_t)(i * 64 + (uint64_t)b)))
                x |= (uint64_t)1 << b;
        rs->rv[i] = x;
    }
    return NS_OK;
}

/* room for at least cap rare heap sizes */
static ns_err rc_reserve(ns_seq_rc *rs, int64_t cap, ns_error *err)
{
    if (cap <= rs->cap_rare)
        return NS_OK;
    int64_t *p = realloc(rs->rare, (size_t)cap * sizeof *p);
    if (!p)
        return ns_error_set(err, NS_ENOMEM, "out of memory for %" PRId64 " rare heap sizes", cap);
    rs->rare = p;
    rs->cap_rare = cap;
    return NS_OK;
}

static ns_err rc_push(ns_seq_rc *rs, int64_t n, ns_error *err)
{
    ns_err rc;
    if (rs->nrare == rs->cap_rare && (rc = rc_reserve(rs, rs->cap_rare ? 2 * rs->cap_rare : 1024, err)))
        return rc;
    rs->rare[rs->nrare++] = n;
    return NS_OK;
}

/* Count G(n) (n >= 1) and list n when rare. */
ns_err ns_seq_rc_add(ns_seq_rc *rs, int64_t n, uint32_t v, ns_error *err)
{
    if (rs->off || n < 1)
        return NS_OK;
    if (v >> NS_SEQ_RC_BITS) {
        rs->off = 1; /* values too large to weigh masks: plain mex from here */
        rs->mask = 0;
        return NS_OK;
    }
    rs->hist[v]++;
    return rs->mask && ns_seq_is_rare(rs->mask, v) ? rc_push(rs, n, err) : NS_OK;
}

/* Weigh every mask on G(1..n-1) (values up to maxv); take the best when
 * it makes at most 3/4 as many heaps rare as the current one (eager: any
 * fewer; the pipeline has just met a rare heap, and under a better mask
 * the new rare heaps of the current one may not be rare: Grundy's game
 * past 4.7e7, whose values of 256 and more are rare under 0xfe, not under
 * 0x1fe), or drop the method while no mask makes the heaps sparse. */
static ns_err rc_eval(ns_seq_rc *rs, const ns_table *t, int64_t n, uint64_t maxv, int eager, ns_error *err)
{
    rs->next_eval = n + max64(n / 4, 1024);
    if (rs->off)
        return NS_OK;
    const int b = maxv ? bitlen(maxv) : 1;
    const uint64_t len = (uint64_t)1 << b;
    int64_t *h = malloc(len * sizeof *h);
    if (!h)
        return ns_error_set(err, NS_ENOMEM, "out of memory for the weights of %" PRIu64 " masks", len);
    for (uint64_t v = 0; v < len; v++)
        h[v] = (int64_t)rs->hist[v];
    for (uint64_t half = 1; half < len; half <<= 1)
        for (uint64_t i = 0; i < len; i += 2 * half)
            for (uint64_t j = i; j < i + half; j++) {
                const int64_t x = h[j], y = h[j + half];
                h[j] = x + y;
                h[j + half] = x - y;
            }
    const int64_t total = h[0];
    uint64_t best = 1;
    for (uint64_t m = 2; m < len; m++)
        if (h[m] < h[best])
            best = m;
    const int64_t best_rare = (total + h[best]) / 2;
    const int64_t cur_rare = rs->mask ? (total + h[rs->mask & (len - 1)]) / 2 : total;
    free(h);
    if (best_rare * RC_SPARSE > n) { /* not sparse under any mask */
        rs->mask = 0;
        rs->nrare = 0;
        return NS_OK;
    }
    if (rs->mask && (eager ? best_rare >= cur_rare : best_rare * 4 > cur_rare * 3))
        return NS_OK;
    rs->mask = (uint32_t)best;
    rs->st->mask_changes++;
    rs->nrare = 0;
    for (int64_t i = 1; i < n; i++)
        if (ns_seq_is_rare(rs->mask, ns_table_get(t, (uint64_t)i))) {
            ns_err rc = rc_push(rs, i, err);
            if (rc)
                return rc;
        }
    return rc_set_rv(rs, words_for(maxv), err);
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
        r = "no tiles or rows to stream (a sequence streams through its own sink, seq_sink)";
    else if (g->k != 1)
        r = "needs one pile (the heap size)";
    if (r && why)
        snprintf(why, len, "%s", r);
    return r == NULL;
}

static int rc_applies(const ns_game *g, const ns_engine_opts *o, char *why, size_t len)
{
    if (!seq_applies(g, o, why, len))
        return 0;
    const char *r = NULL;
    if (g->octal->kind == NS_TB_RULE)
        r = "split moves of a rule file (the method reads the moves from an octal code)";
    else if (g->octal->max_heaps > 2)
        r = "moves that leave three heaps (an XOR of three common values is common: no sparse space)";
    else if (g->octal->max_heaps < 2)
        r = "no move splits a heap (the plain mex is already linear)";
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

/* the plain engine's, the value histogram, and the rare list: at most
 * 1/RC_SPARSE of the heaps, 8 bytes each, plus the growth until the next
 * weighing (a quarter more) */
static uint64_t rc_memory(const ns_game *g, const ns_engine_plan *plan)
{
    const uint64_t rare = plan->cells / RC_SPARSE * 8;
    return seq_memory(g, plan) + ((uint64_t)8 << NS_SEQ_RC_BITS) + rare + rare / 4;
}

/* Heap sizes from units_done * NS_SEQ_UNIT on; rare/common when use_rc. */
static ns_err seq_solve(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                        uint64_t units_done, int use_rc, ns_error *err)
{
    ns_seq_stats *st = o->seq_stats;
    const ns_octal *oc = g->octal;
    const int64_t N = t->bounds[0];
    const uint64_t units = (uint64_t)((N + NS_SEQ_UNIT - 1) / NS_SEQ_UNIT);
    const int threads = o->threads > 0 ? o->threads : ns_omp_max_threads();
    const int vec = rc_vector(o->seq_scan); /* the vector kernel may scan (rc_resolve) */
    const int mvec = ns_seq_mex_vector(o->seq_mex); /* the plain mex's vector kernel may mark */
    uint64_t *early = NULL, *cur = NULL;
    uint8_t *maps = NULL, *curmap = NULL; /* the plain mex's byte maps: one a thread (early), cur's (late) */
    uint64_t cap_maps = 0;
    int64_t *far = NULL; /* where each heap's far scan stopped */
    int *fvu = NULL;     /* whether it ran the vector kernel */
    uint64_t cap_early = 0, cap_cur = 0;
    ns_seq_stats st0;
    ns_seq_rc rs = {0};
    ns_seq_moves mv;
    ns_err rc = NS_OK;
    seq_fault fault = {0};
    ns_seq_split3 *s3 = NULL; /* three-heap moves of a code */
    memset(&st0, 0, sizeof st0);
    rs.st = st ? st : &st0;
    memset(rs.st, 0, sizeof *rs.st);
    moves_of(oc, &mv);
    if (units_done > units)
        return ns_error_set(err, NS_EINVAL, "the checkpoint counts %" PRIu64 " units but this sequence has %" PRIu64,
                            units_done, units);
    if (use_rc && !(rs.hist = calloc((size_t)1 << NS_SEQ_RC_BITS, sizeof *rs.hist)))
        return ns_error_set(err, NS_ENOMEM, "out of memory for the value histogram");
    rs.off = !use_rc;
    rs.next_eval = RC_MIN;
    uint64_t maxv = 0;
    const int64_t start = (int64_t)units_done * NS_SEQ_UNIT;
    for (int64_t n = 0; n < start && n < N; n++) {
        const uint32_t v = ns_table_get(t, (uint64_t)n);
        maxv = v > maxv ? v : maxv;
        if ((rc = ns_seq_rc_add(&rs, n, v, err)))
            goto fail;
    }
    if (oc->kind == NS_TB_CODE && oc->max_heaps == 3 && !(s3 = ns_seq_split3_new(t, N, 0, err))) {
        rc = err->code;
        goto fail;
    }
    for (int64_t r = 2; s3 && r <= start && r < N; r++)
        ns_seq_split3_add(s3, r, (uint32_t)maxv);
    int64_t b0 = start; /* the first heap size not yet solved */
    int reweigh = 0;    /* the pipeline met a rare heap: weigh the masks past it */
    for (uint64_t u = units_done; u < units; u++) {
        const int64_t uend = min64(N, (int64_t)(u + 1) * NS_SEQ_UNIT);
        /* a block may run past the unit's end (one synchronisation of the
         * threads for several units): the units it finished are reported
         * below, one by one, as the loop reaches them */
        while (b0 < uend) {
            const uint64_t we = words_for(maxv);
            int piped = 0; /* the pipeline was tried at b0 and stopped there */
            if (!rs.off && (b0 >= rs.next_eval || reweigh) && (rc = rc_eval(&rs, t, b0, maxv, reweigh, err)))
                goto fail;
            reweigh = 0;
            /* the pipeline over groups of heaps (engine/ns_seq_pipe.h), up to
             * the next weighing of the masks, once the last rare heap lies
             * PIPE_QUIET heaps back (it guesses that the heaps are not rare,
             * and each rare heap costs it a restart): it returns where it
             * stopped, and a heap it stopped at goes through a block below */
            if (use_rc && !o->seq_no_pipe && !rs.off && rs.mask && rs.nrare * RC_SPARSE <= b0 && t->elem <= 2 &&
                we <= NS_SEQ_PIPE_WORDS && b0 >= 4 * ns_seq_pipe_lag(&mv, threads) &&
                (rs.nrare == 0 || rs.rare[rs.nrare - 1] + (o->seq_pipe_quiet > 0 ? o->seq_pipe_quiet : PIPE_QUIET) <= b0)) {
                int64_t pe = min64(min64(N, rs.next_eval), b0 + min64(PIPE_SEGMENT, max64(PIPE_SEGMENT / 16, b0 / 8)));
                pe = b0 + (pe - b0) / NS_SEQ_PIPE_GROUP * NS_SEQ_PIPE_GROUP;
                int64_t done = b0;
                piped = 1;
                if (pe > b0) {
                    if ((rc = rc_set_rv(&rs, we, err)))
                        goto fail;
                    const ns_seq_pipe_job job = {.mv = &mv, .rs = &rs, .t = t, .w = we, .maxv = &maxv,
                                                 .max_value = plan->max_value, .b0 = b0, .b1 = pe,
                                                 .threads = threads, .scan = o->seq_scan};
                    const uint64_t met = rs.st->pipe_rare;
                    done = ns_seq_pipe_run(&job);
                    reweigh = rs.st->pipe_rare > met; /* weigh the masks again past the rare heap */
                }
                if (done > b0) {
                    b0 = done;
                    if (!reweigh || b0 >= N)
                        continue;
                    /* a rare heap: the short block below finishes it */
                }
            }
            /* short blocks while the heaps are small (a quarter of b0) */
            int64_t len = min64(use_rc ? RC_BLOCK : SEQ_BLOCK, max64(16, b0 / 4));
            if (piped) /* past the heap it stopped at, then the pipeline again */
                len = min64(len, 2 * NS_SEQ_PIPE_GROUP);
            if ((uint64_t)len * we * 8 > SEQ_EARLY_BYTES)
                len = max64(1, (int64_t)(SEQ_EARLY_BYTES / (we * 8)));
            const int64_t b1 = min64(N, b0 + len);
            const int64_t nb = b1 - b0;
            if ((uint64_t)nb * we > cap_early) {
                free(early);
                free(far);
                free(fvu);
                cap_early = (uint64_t)nb * we;
                early = malloc(cap_early * sizeof *early);
                far = malloc(cap_early * sizeof *far);
                fvu = malloc(cap_early * sizeof *fvu);
                if (!early || !far || !fvu) {
                    rc = ns_error_set(err, NS_ENOMEM, "out of memory for the bitsets of %" PRId64 " heap sizes", nb);
                    goto fail;
                }
            }
            const int rc_block = !rs.off && rs.mask && b0 >= RC_MIN && rs.nrare * RC_SPARSE <= b0 &&
                                 b0 >= nb + RC_WINDOW;
            const int64_t nr0 = rs.nrare;
            if (rc_block && (rc = rc_set_rv(&rs, we, err)))
                goto fail;
            /* the plain mex marks bytes (one map of 64 bytes a word of the
             * bitsets, a thread) where the cells have one or two bytes */
            const int emap = !rc_block && oc->kind != NS_TB_RULE && o->seq_mex != NS_SEQ_MEX_BITS && we <= SEQ_MAP_WORDS;
            if (emap && (uint64_t)threads * we * 64 > cap_maps) {
                free(maps);
                cap_maps = (uint64_t)threads * we * 64;
                if (!(maps = calloc(cap_maps, 1))) {
                    rc = ns_error_set(err, NS_ENOMEM, "out of memory for %d byte maps of %" PRIu64 " bytes", threads,
                                      we * 64);
                    goto fail;
                }
            }
            /* early options: parts below b0, every heap of the block in parallel */
            const int par = threads > 1 && b0 >= 512;
            /* (rare/common, one-byte cells: groups of RC_GROUP heaps, the
             * group pass first, then heap by heap) */
            const int64_t ngr = (nb + RC_GROUP - 1) / RC_GROUP;
            NS_OMP_FOR_DYNAMIC_IF(threads, par)
            for (int64_t q = 0; q < ngr; q++) {
                const int64_t i0 = q * RC_GROUP, i1 = min64(nb, i0 + RC_GROUP);
                const int grp = rc_block && group_fits(t->elem, we) && i1 - i0 == RC_GROUP && nr0 >= RC_GROUP_MIN;
                rc_span sk[NS_OCTAL_MAX_DIGITS];
                uint8_t by[RC_GROUP * RC_MAPB];
                if (grp) {
                    memset(by, 0, sizeof by);
                    group_pass(&mv, t, rs.rare, nr0, b0 + i0, b0, 0, sk, by);
                }
                for (int64_t i = i0; i < i1; i++) {
                    uint64_t *s = early + (uint64_t)i * we;
                    memset(s, 0, we * sizeof *s);
                    if (rc_block) {
                        if (grp)
                            fold_words(by + (i - i0) * RC_MAPB, s, (int)min64((int64_t)we, RC_MAPB / 64));
                        rc_early(&mv, &rs, nr0, t, we == 1, b0 + i, b0, grp ? sk : NULL, s);
                        fvu[i] = 0;
                        far[i] = rc_far_scan(&mv, &rs, t, we == 1, vec, b0 + i, b0, nb, s, we, &fvu[i]);
                    } else if (oc->kind == NS_TB_RULE) {
                        rule_options(oc, t, b0 + i, b0, 0, s, &fault);
                    } else {
                        uint8_t *map = emap ? maps + (uint64_t)ns_omp_thread_num() * we * 64 : NULL;
                        const seq_marks k = {s, map, we, mvec};
                        options(oc, t, b0 + i, b0, 0, &k, s3);
                        if (map)
                            ns_seq_map_fold(map, s, we);
                    }
                }
            }
            /* late options, heap by heap (rare/common, one-byte cells: a
             * group pass at the start of each full group of RC_GROUP heaps,
             * into their early bitsets, while the values fit their words) */
            rc_span lsk[NS_OCTAL_MAX_DIGITS];
            int64_t lsk_end = b0; /* the heaps below it have the late group pass */
            for (int64_t n = b0; n < b1; n++) {
                const uint64_t wc = words_for(maxv);
                if (rc_block && (n - b0) % RC_GROUP == 0 && n + RC_GROUP <= b1 && group_fits(t->elem, we) &&
                    wc == we && nr0 >= RC_GROUP_MIN) {
                    uint8_t by[RC_GROUP * RC_MAPB];
                    memset(by, 0, sizeof by);
                    group_pass(&mv, t, rs.rare, nr0, n, b0, 1, lsk, by);
                    for (int h = 0; h < RC_GROUP; h++)
                        fold_words(by + h * RC_MAPB, early + (uint64_t)(n - b0 + h) * we,
                                   (int)min64((int64_t)we, RC_MAPB / 64));
                    lsk_end = n + RC_GROUP;
                }
                if (wc > cap_cur) {
                    free(cur);
                    free(curmap);
                    cap_cur = wc;
                    curmap = calloc(cap_cur * 64, 1);
                    if (!(cur = malloc(cap_cur * sizeof *cur)) || !curmap) {
                        rc = ns_error_set(err, NS_ENOMEM, "out of memory for a bitset of %" PRIu64 " words", wc);
                        goto fail;
                    }
                }
                memcpy(cur, early + (uint64_t)(n - b0) * we, we * sizeof *cur);
                memset(cur + we, 0, (wc - we) * sizeof *cur);
                uint64_t v;
                if (rc_block) {
                    if (wc > rs.rv_words && (rc = rc_set_rv(&rs, wc, err)))
                        goto fail;
                    rc_late(&mv, &rs, nr0, t, wc == 1, n, b0, n < lsk_end ? lsk : NULL, cur);
                    int vused = fvu[n - b0];
                    v = rc_resolve(&mv, &rs, t, vec, n, nb, far[n - b0], cur, wc, &vused);
                    rs.st->rc_heaps++;
                    rs.st->vec_scans += (uint64_t)vused;
                } else {
                    if (oc->kind == NS_TB_RULE) {
                        rule_options(oc, t, n, b0, 1, cur, &fault);
                    } else {
                        const int lmap = o->seq_mex != NS_SEQ_MEX_BITS && wc <= SEQ_MAP_WORDS;
                        const seq_marks k = {cur, lmap ? curmap : NULL, wc, mvec};
                        options(oc, t, n, b0, 1, &k, s3);
                        if (lmap)
                            ns_seq_map_fold(curmap, cur, wc);
                        rs.st->mex_heaps++;
                        rs.st->mex_vec += (uint64_t)(lmap && mvec);
                    }
                    if (fault.set) {
                        *err = fault.err;
                        rc = err->code ? err->code : NS_EINVAL;
                        goto fail;
                    }
                    v = mex_of(cur, wc);
                }
                if (v > plan->max_value) {
                    rc = ns_error_set(err, NS_EINTERNAL, "G(%" PRId64 ") = %" PRIu64 " exceeds the bound %" PRIu64, n, v,
                                      plan->max_value);
                    goto fail;
                }
                /* the table starts at one byte a value and widens when a value needs more */
                if (v >= ns_table_invalid(t) && (rc = ns_table_widen(t, ns_table_elem_for(v), (uint64_t)n, err)))
                    goto fail;
                ns_table_set(t, (uint64_t)n, (uint32_t)v);
                maxv = v > maxv ? v : maxv;
                if (s3)
                    ns_seq_split3_add(s3, n + 1, (uint32_t)maxv);
                if ((rc = ns_seq_rc_add(&rs, n, (uint32_t)v, err)))
                    goto fail;
            }
            b0 = b1;
        }
        if (o->seq_sink && o->seq_sink(o->seq_user, t, uend)) {
            rc = ns_error_set(err, NS_EIO, "the sink took no heap sizes beyond %" PRId64, (int64_t)u * NS_SEQ_UNIT);
            goto fail;
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
    rs.st->mask = rs.mask;
    rs.st->rare = rs.nrare;
    free(early);
    free(far);
    free(fvu);
    free(cur);
    free(curmap);
    free(maps);
    rc_free(&rs);
    ns_seq_split3_free(s3);
    return rc;
}

static ns_err seq_run(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                      ns_error *err)
{
    return seq_solve(g, t, plan, o, 0, 0, err);
}

static ns_err seq_resume(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                         uint64_t units_done, ns_error *err)
{
    return seq_solve(g, t, plan, o, units_done, 0, err);
}

static ns_err rc_run(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                     ns_error *err)
{
    return seq_solve(g, t, plan, o, 0, 1, err);
}

static ns_err rc_resume(const ns_game *g, ns_table *t, const ns_engine_plan *plan, const ns_engine_opts *o,
                        uint64_t units_done, ns_error *err)
{
    return seq_solve(g, t, plan, o, units_done, 1, err);
}

const ns_engine ns_engine_rare_common = {
    .name = "rare-common",
    .what = "take-and-break heap games with splits into two heaps as one Grundy sequence: the rare/common method "
            "(common values only from splits with a rare part), the plain mex where it does not pay",
    .kinds = NS_ENGINE_GRUNDY,
    .applies = rc_applies,
    .memory = rc_memory,
    .run = rc_run,
    .resume = rc_resume,
    .stream_unit = NULL,
};

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
