/* ns_seq_pipe.c - the rare/common method of the sequence engine
 * (ns_sequence.c) as a pipeline over groups of 32 heaps, so that every
 * thread works on one game (Grundy's game, 0.1777, ...).
 *
 * What a heap needs. With the rare/common method (ns_sequence.c), G(n) is
 * c, the smallest common value absent from the options of n with a rare
 * part, unless some rare value below c is not an option either; then n
 * is a rare heap. Rare heaps are few and, past the start, far between
 * (Grundy's game: none between 82,860 and 47,461,861; 0.1777: none past
 * the first hundred), so the pipeline guesses that G(n) = c, carries on
 * with it, and has the guess checked later, on any thread.
 *
 * Three kinds of work, for a group of 32 heaps n0 .. n0+31:
 *  - far (any thread, in any order): the splits with a rare part r whose
 *    parts both lie below L = n0 + 32 - D (D, the lag: D - t <= r < L for
 *    the split digit t; the other part, M0 + h - r with M0 = n0 - t, is
 *    then below L too), once the heaps below L have their values. For
 *    each r the other parts of the 32 heaps are one run of the sequence:
 *    one load and one byte store a split (the group pass);
 *  - near (one thread at a time, in order): the other options with a
 *    rare part (r < D - t or r >= L), single heaps and taking the whole
 *    heap, then c; G(n) = c, a guess, which the next heaps use;
 *  - check (any thread, in any order, once the group has its guesses):
 *    every rare value below c that is not among the options found so far
 *    is looked for among the splits of n, from a = 1 on, by vector
 *    kernels that test 128 splits a step against the set of the values
 *    still missing. All found: the guess is G(n). Some missing after every
 *    split: n is rare, its value the smallest missing.
 * The groups are committed in order as their checks come in. The first
 * heap whose check fails ends the run there: the heaps after it were
 * computed from a wrong value, so their guesses are dropped (and their
 * counts in the value histogram taken back), and the caller finishes
 * that heap exactly and starts again. Every value committed is the exact
 * mex of its heap, so the sequence does not depend on D, on the number
 * of threads or on which thread did what.
 *
 * The caller starts the pipeline only where rare heaps have become rare
 * (see ns_sequence.c): each failed check costs a restart.
 *
 * What else stops it (the caller finishes that heap its own way and
 * starts again): a value that needs a wider cell or more bitset words
 * (both are read by the other threads), or one over the bound. */
#include "engine/ns_seq_pipe.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"
#include "engine/ns_seq_mex.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PIPE_X86 1
#endif

enum {
    G = NS_SEQ_PIPE_GROUP,
    MAPB = 512,             /* bytes of a heap's map in the group pass (values below 512) */
    W_MAX = NS_SEQ_PIPE_WORDS,
    PIPE_AHEAD = 8,         /* the group pass asks for the sequence this many rare parts ahead */
};

/* a slot's states (tag: the group, state: where it is) */
enum { S_FREE, S_FAR, S_FAR_DONE, S_NEAR_DONE, S_CHECK, S_CHECK_DONE };

typedef struct pipe_slot {
    int64_t group;          /* the group in the slot (atomic, with state) */
    int state;              /* S_* (atomic) */
    int nheaps;             /* heaps of the group with a guess (G, or fewer when the near stage stopped) */
    int64_t fail;           /* the check: -1, or the first heap whose guess is wrong */
    uint64_t s[G * W_MAX];  /* heap h: its options found so far, s[h * w ..] */
    uint8_t partial[G];     /* heap h's far and mid options hold only the values below 256 */
    uint8_t vec;            /* the check ran a vector kernel */
} pipe_slot;

typedef struct pipe {
    const ns_seq_pipe_job *job;
    const ns_seq_moves *mv;
    ns_seq_rc *rs;
    ns_table *t;
    int elem;
    int w;
    int64_t lag;
    int64_t b0;
    int64_t ngroups;
    int64_t nslots;
    pipe_slot *slots;
    int kern;               /* KERN_*: the checks' scans */
    int near_n[NS_OCTAL_MAX_DIGITS]; /* split digit i: the rare parts r < G - t, */
    int *near_r;                     /* near_r[i * G + j], */
    uint32_t *near_g;                /* and their values */
    /* shared, atomic */
    int64_t guessed;        /* heaps below have a value or a guess */
    int64_t next_far;       /* the next group whose far stage is unclaimed */
    int64_t next_check;     /* the next group whose check is unclaimed */
    int64_t near_end;       /* groups below have had their near stage (the last maybe in part) */
    int near_lock;
    int stop;
    /* under near_lock */
    int64_t next_near;      /* the group the near stage does next */
    int64_t committed;      /* groups committed */
    int64_t near_stop;      /* the heap the near stage stopped at (b1: none) */
    int64_t stop_at;        /* the first heap not final */
    uint64_t maxv0;         /* the largest value before the run */
    uint64_t heaps, vec_heaps, fails;
} pipe;

enum { KERN_SCALAR, KERN_AVX512 };

int64_t ns_seq_pipe_lag(const ns_seq_moves *mv, int threads)
{
    if (threads < 1)
        threads = 1;
    int64_t d = (int64_t)G * (threads + 4);
    if (d < 256)
        d = 256;
    /* every single move and the near rare parts below the lag: D > tmax + 2G */
    while (d <= mv->tmax + 2 * G)
        d += G;
    return d;
}

/* ---- the scan for the rare values ----
 *
 * The splits (a, m - a), a0 <= a < a1, against the bitset need (w words,
 * values below 64 w): a value found leaves need; stops when need is empty
 * (*left == 0) or at a1. Returns where it stopped. */
static int64_t scan_scalar(const void *g, int elem, int64_t m, int64_t a, int64_t a1, uint64_t *need, int *left)
{
    int k = *left;
    for (; k && a < a1; a++) {
        const uint32_t v = ns_seq_gv(g, elem, a) ^ ns_seq_gv(g, elem, m - a);
        const uint64_t b = (uint64_t)1 << (v & 63);
        if (need[v >> 6] & b) {
            need[v >> 6] &= ~b;
            k--;
        }
    }
    *left = k;
    return a;
}

#ifdef PIPE_X86
/* The vector kernels. A step takes four vectors of splits (v, of 64
 * one-byte or 32 two-byte values: G(a .. ) ^ reversed G(.. m - a)) and
 * tests each value against tab, the set of the rare values still
 * missing: the value's byte (16-bit word) of tab by a permutation, its
 * bit by a shuffle (shift). A value found clears its bit in tab (the same
 * value in two lanes: no harm). Most steps find nothing; the steps that
 * do are unpredictable, so the branch on them mispredicts, and the later
 * the hits are known the more it costs: the hits of the next step are
 * tested (against tab as it was) before this step's finds are taken out,
 * so that the branch does not wait for them (a value found twice across
 * two steps is taken out twice: no harm). Measured on Grundy's game near
 * 6e7 (two-byte cells): 0.43 us a heap against 0.55 for a step of two
 * vectors tested against the newest tab. */

/* clear bit x of the 512-bit set t */
#define PIPE_CLEAR(t, x)                                                                                               \
    _mm512_andnot_si512(                                                                                               \
        _mm512_maskz_set1_epi64((__mmask8)(1u << ((x) >> 6)), (long long)((uint64_t)1 << ((x) & 63))), (t))

/* the first two vectors of a scan, one at a time (V: a vector of splits,
 * H: its hits against tab, LANES splits a vector of T values) */
#define PIPE_FIRST(V, H, LANES, T)                                                                                     \
    for (int u = 0; u < 2 && a + (LANES) <= a1; u++) {                                                                 \
        const __m512i v = V(a);                                                                                        \
        uint64_t hit = H(v);                                                                                           \
        a += (LANES);                                                                                                  \
        if (hit) {                                                                                                     \
            T vals[LANES];                                                                                             \
            _mm512_storeu_si512(vals, v);                                                                              \
            for (; hit; hit &= hit - 1)                                                                                \
                tab = PIPE_CLEAR(tab, (uint32_t)vals[__builtin_ctzll(hit)]);                                           \
            if (!_mm512_test_epi64_mask(tab, tab))                                                                     \
                break;                                                                                                 \
        }                                                                                                              \
    }

/* the values still missing: tab back into need (W_MAX words), counted */
__attribute__((target("avx512f"))) static int tab_left(__m512i tab, uint64_t *need)
{
    _mm512_storeu_si512(need, tab);
    int k = 0;
    for (int i = 0; i < W_MAX; i++)
        k += __builtin_popcountll(need[i]);
    return k;
}

/* One-byte cells (values below 256: tab's first 32 bytes). */
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static int64_t scan_u8_512(const uint8_t *g, int64_t m,
                                                                                  int64_t a, int64_t a1,
                                                                                  uint64_t *need, int *left)
{
    const __m512i rev = _mm512_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                        22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
                                        42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61,
                                        62, 63);
    const __m512i bits = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32,
                                                              64, (char)128));
    const __m512i seven = _mm512_set1_epi8(7);
    __m512i tab = _mm512_loadu_si512(need);
#define PIPE_V8(b)                                                                                                     \
    _mm512_xor_si512(_mm512_loadu_si512(g + (b)), _mm512_permutexvar_epi8(rev, _mm512_loadu_si512(g + m - (b) - 63)))
#define PIPE_H8(v)                                                                                                     \
    _mm512_test_epi8_mask(_mm512_permutexvar_epi8(_mm512_srli_epi16(_mm512_andnot_si512(seven, v), 3), tab),           \
                          _mm512_shuffle_epi8(bits, _mm512_and_si512(v, seven)))
    /* the first two vectors one at a time: a few values below a small c
     * (0.1777: about 5 a heap) are often all in the first 64 splits */
    PIPE_FIRST(PIPE_V8, PIPE_H8, 64, uint8_t);
    if (_mm512_test_epi64_mask(tab, tab) && a + 128 <= a1) {
        __m512i v0 = PIPE_V8(a), v1 = PIPE_V8(a + 64);
        uint64_t h0 = PIPE_H8(v0), h1 = PIPE_H8(v1);
        for (;;) {
            const int more = a + 256 <= a1;
            __m512i w0 = v0, w1 = v1;
            uint64_t k0 = 0, k1 = 0;
            if (more) {
                w0 = PIPE_V8(a + 128), w1 = PIPE_V8(a + 192);
                k0 = PIPE_H8(w0), k1 = PIPE_H8(w1);
            }
            if (h0 | h1) {
                uint8_t vals[128];
                _mm512_storeu_si512(vals, v0);
                _mm512_storeu_si512(vals + 64, v1);
                for (uint64_t hit = h0; hit; hit &= hit - 1)
                    tab = PIPE_CLEAR(tab, (uint32_t)vals[__builtin_ctzll(hit)]);
                for (uint64_t hit = h1; hit; hit &= hit - 1)
                    tab = PIPE_CLEAR(tab, (uint32_t)vals[64 + __builtin_ctzll(hit)]);
            }
            a += 128;
            if (!more || !_mm512_test_epi64_mask(tab, tab))
                break;
            v0 = w0, v1 = w1;
            h0 = k0, h1 = k1;
        }
    }
#undef PIPE_V8
#undef PIPE_H8
    *left = tab_left(tab, need);
    return scan_scalar(g, 1, m, a, a1, need, left);
}

/* Two-byte cells (values below 512: tab's 32 words of 16 bits). */
__attribute__((target("avx512f,avx512bw"))) static int64_t scan_u16_512(const uint16_t *g, int64_t m, int64_t a,
                                                                        int64_t a1, uint64_t *need, int *left)
{
    const __m512i rev = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                         21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const __m512i fifteen = _mm512_set1_epi16(15), one = _mm512_set1_epi16(1);
    __m512i tab = _mm512_loadu_si512(need);
#define PIPE_V16(b)                                                                                                    \
    _mm512_xor_si512(_mm512_loadu_si512(g + (b)), _mm512_permutexvar_epi16(rev, _mm512_loadu_si512(g + m - (b) - 31)))
#define PIPE_H16(v)                                                                                                    \
    ((uint64_t)_mm512_test_epi16_mask(                                                                                 \
        _mm512_srlv_epi16(_mm512_permutexvar_epi16(_mm512_srli_epi16(v, 4), tab), _mm512_and_si512(v, fifteen)), one))
    PIPE_FIRST(PIPE_V16, PIPE_H16, 32, uint16_t); /* as for one-byte cells */
    if (_mm512_test_epi64_mask(tab, tab) && a + 128 <= a1) {
        __m512i v0 = PIPE_V16(a), v1 = PIPE_V16(a + 32), v2 = PIPE_V16(a + 64), v3 = PIPE_V16(a + 96);
        uint64_t hA = PIPE_H16(v0) | PIPE_H16(v1) << 32, hB = PIPE_H16(v2) | PIPE_H16(v3) << 32;
        for (;;) {
            const int more = a + 256 <= a1;
            __m512i w0 = v0, w1 = v1, w2 = v2, w3 = v3;
            uint64_t kA = 0, kB = 0;
            if (more) {
                w0 = PIPE_V16(a + 128), w1 = PIPE_V16(a + 160), w2 = PIPE_V16(a + 192), w3 = PIPE_V16(a + 224);
                kA = PIPE_H16(w0) | PIPE_H16(w1) << 32, kB = PIPE_H16(w2) | PIPE_H16(w3) << 32;
            }
            if (hA | hB) {
                uint16_t vals[128];
                _mm512_storeu_si512(vals, v0);
                _mm512_storeu_si512(vals + 32, v1);
                _mm512_storeu_si512(vals + 64, v2);
                _mm512_storeu_si512(vals + 96, v3);
                for (uint64_t hit = hA; hit; hit &= hit - 1)
                    tab = PIPE_CLEAR(tab, (uint32_t)vals[__builtin_ctzll(hit)]);
                for (uint64_t hit = hB; hit; hit &= hit - 1)
                    tab = PIPE_CLEAR(tab, (uint32_t)vals[64 + __builtin_ctzll(hit)]);
            }
            a += 128;
            if (!more || !_mm512_test_epi64_mask(tab, tab))
                break;
            v0 = w0, v1 = w1, v2 = w2, v3 = w3;
            hA = kA, hB = kB;
        }
    }
#undef PIPE_V16
#undef PIPE_H16
    *left = tab_left(tab, need);
    return scan_scalar(g, 2, m, a, a1, need, left);
}
#undef PIPE_CLEAR
#undef PIPE_FIRST

/* A few values missing (LIST_MAX at most: 0.1777 needs about 5 a heap,
 * small ones that fill the first vectors many times over): each vector
 * compared with each value, the values found dropped from the list, no
 * lane taken out. */
enum { LIST_MAX = 8 };
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static int64_t scan_list_512(const void *gv, int elem,
                                                                                    int64_t m, int64_t a, int64_t a1,
                                                                                    uint64_t *need, int *left)
{
    uint32_t val[LIST_MAX];
    int k = 0;
    for (int i = 0; i < W_MAX; i++)
        for (uint64_t f = need[i]; f && k < LIST_MAX; f &= f - 1)
            val[k++] = (uint32_t)(64 * i + __builtin_ctzll(f));
    const int lanes = elem == 1 ? 64 : 32;
    const __m512i rev8 = _mm512_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                         22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
                                         42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61,
                                         62, 63);
    const __m512i rev16 = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                           21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const uint8_t *g8 = gv;
    const uint16_t *g16 = gv;
    while (k && a + lanes <= a1) {
        __m512i v;
        if (elem == 1)
            v = _mm512_xor_si512(_mm512_loadu_si512(g8 + a),
                                 _mm512_permutexvar_epi8(rev8, _mm512_loadu_si512(g8 + m - a - 63)));
        else
            v = _mm512_xor_si512(_mm512_loadu_si512(g16 + a),
                                 _mm512_permutexvar_epi16(rev16, _mm512_loadu_si512(g16 + m - a - 31)));
        uint32_t found = 0;
        for (int j = 0; j < k; j++) {
            const int hit = elem == 1 ? _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)val[j])) != 0
                                      : _mm512_cmpeq_epi16_mask(v, _mm512_set1_epi16((short)val[j])) != 0;
            found |= (uint32_t)hit << j;
        }
        if (found) {
            int kk = 0;
            for (int j = 0; j < k; j++)
                if (found >> j & 1)
                    need[val[j] >> 6] &= ~((uint64_t)1 << (val[j] & 63));
                else
                    val[kk++] = val[j];
            k = kk;
        }
        a += lanes;
    }
    *left = k;
    return scan_scalar(gv, elem, m, a, a1, need, left);
}
#endif

static int pipe_kernel(ns_seq_scan how)
{
#ifdef PIPE_X86
    if (how != NS_SEQ_SCAN_SCALAR && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vbmi"))
        return KERN_AVX512;
#else
    (void)how;
#endif
    return KERN_SCALAR;
}

/* scan_scalar with the kernel for the cell width; need has W_MAX words */
static int64_t scan(const pipe *p, int64_t m, int64_t a0, int64_t a1, uint64_t *need, int *left, int *vused)
{
#ifdef PIPE_X86
    if (p->kern == KERN_AVX512) {
        *vused = 1;
        if (*left <= LIST_MAX)
            return scan_list_512(p->t->data, p->elem, m, a0, a1, need, left);
        if (p->elem == 1)
            return scan_u8_512(p->t->data, m, a0, a1, need, left);
        return scan_u16_512(p->t->data, m, a0, a1, need, left);
    }
#else
    (void)vused;
#endif
    return scan_scalar(p->t->data, p->elem, m, a0, a1, need, left);
}

/* ---- far ---- */

/* The group pass of one split digit t over the rare parts r in [lo, hi]
 * (every heap of the group has both parts, which differ unless strict
 * says where not): by[h * MAPB + (G(r) ^ G(M0 + h - r))] = 0xff. */
static inline __attribute__((always_inline)) void group_pass_k(const void *g, int elem, const int64_t *rare,
                                                               int64_t nr, int64_t M0, int64_t lo, int64_t hi,
                                                               int strict, uint8_t *by)
{
    /* strict: heap h of the group has no split r = M0 + h - r */
    const int64_t wlo = strict ? (M0 + 1) / 2 : 1, whi = strict ? (M0 + G - 1) / 2 : 0;
    for (int64_t j = ns_seq_lower_bound(rare, nr, lo); j < nr && rare[j] <= hi; j++) {
        const int64_t r = rare[j];
        const uint32_t gr = ns_seq_gv(g, elem, r);
        if (r >= wlo && r <= whi) {
            for (int h = 0; h < G; h++)
                if (2 * r != M0 + h)
                    by[h * MAPB + (int)((gr ^ ns_seq_gv(g, elem, M0 - r + h)) & (MAPB - 1))] = 0xff;
            continue;
        }
        const int64_t base = M0 - r;
        if (j + PIPE_AHEAD < nr) { /* each rare part reads a line of its own: ask for it early */
            const char *q = (const char *)g + (M0 - rare[j + PIPE_AHEAD]) * elem;
            __builtin_prefetch(q);
            __builtin_prefetch(q + G * elem - 1);
        }
#pragma GCC unroll 32
        for (int h = 0; h < G; h++)
            by[h * MAPB + (int)((gr ^ ns_seq_gv(g, elem, base + h)) & (MAPB - 1))] = 0xff;
    }
}

/* The group pass of the group from n0 for every split digit t, over the
 * rare parts r with lo_d - t <= r <= min(hi_d - t, hi_cap): whether it
 * marked anything. */
static int group_pass(const pipe *p, int64_t n0, int64_t lo_d, int64_t hi_d, int64_t hi_cap, uint8_t *by)
{
    const ns_seq_moves *mv = p->mv;
    const ns_seq_rc *rs = p->rs;
    int marked = 0;
    for (int i = 0; i < mv->nsplit; i++) {
        const int t = mv->split_t[i];
        const int64_t lo = lo_d - t > 1 ? lo_d - t : 1;
        const int64_t hi = hi_d - t < hi_cap ? hi_d - t : hi_cap;
        const int64_t j = ns_seq_lower_bound(rs->rare, rs->nrare, lo);
        if (j == rs->nrare || rs->rare[j] > hi)
            continue;
        marked = 1;
        if (p->elem == 1)
            group_pass_k(p->t->data, 1, rs->rare, rs->nrare, n0 - t, lo, hi, mv->strict, by);
        else
            group_pass_k(p->t->data, 2, rs->rare, rs->nrare, n0 - t, lo, hi, mv->strict, by);
    }
    return marked;
}

/* the rare parts r >= lo_d - t, r < L (the far ones: lo_d = D; with the
 * mid ones: lo_d = G) of heap h of the group from n0, one split at a time
 * into map (a byte map the caller folds) */
static void far_heap(const pipe *p, int64_t n0, int h, int64_t lo_d, uint8_t *map)
{
    const ns_seq_moves *mv = p->mv;
    const ns_seq_rc *rs = p->rs;
    const void *g = p->t->data;
    const int64_t L = n0 + G - p->lag;
    for (int i = 0; i < mv->nsplit; i++) {
        const int64_t t = mv->split_t[i], m = n0 + h - t;
        const int64_t lo = lo_d - t > 1 ? lo_d - t : 1;
        for (int64_t j = ns_seq_lower_bound(rs->rare, rs->nrare, lo); j < rs->nrare && rs->rare[j] < L; j++) {
            const int64_t r = rs->rare[j];
            if (!(mv->strict && 2 * r == m))
                map[ns_seq_gv(g, p->elem, r) ^ ns_seq_gv(g, p->elem, m - r)] = 0xff;
        }
    }
}

#ifdef PIPE_X86
/* The group pass in vector registers, for the values below 64 nw only
 * (nw = 1, 2 or 4 words): for each rare part r (lo_d - t <= r <=
 * min(hi_d - t, hi_cap) for the split digit t) the other parts of 8 heaps
 * widened to 64-bit lanes and XORed with G(r), and 1 << (v - 64k) ORed
 * into word k of the heap's bitset (a shift by 64 or more, or by a
 * negative count, gives 0, so each value lands in its word only and
 * larger values vanish): no stores, where the byte maps cost one a
 * split. words[h * 4 + k] |= heap h's word k. */
static inline __attribute__((always_inline, target("avx512f"))) void vec_pass_k(const pipe *p, int64_t n0, int64_t lo_d,
                                                                               int64_t hi_d, int64_t hi_cap,
                                                                               uint64_t *words, const int nw)
{
    const ns_seq_moves *mv = p->mv;
    const ns_seq_rc *rs = p->rs;
    const int64_t *rare = rs->rare;
    const int64_t nr = rs->nrare;
    const int elem = p->elem;
    const char *gb = p->t->data;
    const __m512i one = _mm512_set1_epi64(1), c64 = _mm512_set1_epi64(64), c128 = _mm512_set1_epi64(128),
                  c192 = _mm512_set1_epi64(192);
    /* a<q><k>: heaps 8q .. 8q+7, word k */
    __m512i a00 = _mm512_setzero_si512(), a01 = a00, a02 = a00, a03 = a00, a10 = a00, a11 = a00, a12 = a00,
            a13 = a00, a20 = a00, a21 = a00, a22 = a00, a23 = a00, a30 = a00, a31 = a00, a32 = a00, a33 = a00;
    for (int i = 0; i < mv->nsplit; i++) {
        const int64_t t = mv->split_t[i], M0 = n0 - t;
        const int64_t rlo = lo_d - t > 1 ? lo_d - t : 1, rhi = hi_d - t < hi_cap ? hi_d - t : hi_cap;
        /* strict: heap h of the group has no split r = M0 + h - r */
        const int64_t wlo = mv->strict ? (M0 + 1) / 2 : 1, whi = mv->strict ? (M0 + G - 1) / 2 : 0;
        for (int64_t j = ns_seq_lower_bound(rare, nr, rlo); j < nr && rare[j] <= rhi; j++) {
            const int64_t r = rare[j];
            const uint32_t gr = ns_seq_gv(gb, elem, r);
            if (r >= wlo && r <= whi) {
                for (int h = 0; h < G; h++) {
                    const uint32_t v = gr ^ ns_seq_gv(gb, elem, M0 + h - r);
                    if (2 * r != M0 + h && v < 64u * (uint32_t)nw)
                        words[h * 4 + (v >> 6)] |= (uint64_t)1 << (v & 63);
                }
                continue;
            }
            const char *q = gb + (M0 - r) * elem;
            if (j + PIPE_AHEAD < nr) {
                const char *qa = gb + (M0 - rare[j + PIPE_AHEAD]) * elem;
                __builtin_prefetch(qa);
                __builtin_prefetch(qa + G * elem - 1);
            }
            const __m512i x = _mm512_set1_epi64((long long)gr);
            __m512i v0, v1, v2, v3;
            if (elem == 1) {
                v0 = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)q));
                v1 = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(q + 8)));
                v2 = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(q + 16)));
                v3 = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(q + 24)));
            } else {
                v0 = _mm512_cvtepu16_epi64(_mm_loadu_si128((const __m128i *)q));
                v1 = _mm512_cvtepu16_epi64(_mm_loadu_si128((const __m128i *)(q + 16)));
                v2 = _mm512_cvtepu16_epi64(_mm_loadu_si128((const __m128i *)(q + 32)));
                v3 = _mm512_cvtepu16_epi64(_mm_loadu_si128((const __m128i *)(q + 48)));
            }
#define PIPE_ACC(aq0, aq1, aq2, aq3, vq)                                                                               \
    do {                                                                                                               \
        const __m512i v_ = _mm512_xor_si512(vq, x);                                                                    \
        aq0 = _mm512_or_si512(aq0, _mm512_sllv_epi64(one, v_));                                                        \
        if (nw > 1)                                                                                                    \
            aq1 = _mm512_or_si512(aq1, _mm512_sllv_epi64(one, _mm512_sub_epi64(v_, c64)));                             \
        if (nw > 2) {                                                                                                  \
            aq2 = _mm512_or_si512(aq2, _mm512_sllv_epi64(one, _mm512_sub_epi64(v_, c128)));                            \
            aq3 = _mm512_or_si512(aq3, _mm512_sllv_epi64(one, _mm512_sub_epi64(v_, c192)));                            \
        }                                                                                                              \
    } while (0)
            PIPE_ACC(a00, a01, a02, a03, v0);
            PIPE_ACC(a10, a11, a12, a13, v1);
            PIPE_ACC(a20, a21, a22, a23, v2);
            PIPE_ACC(a30, a31, a32, a33, v3);
#undef PIPE_ACC
        }
    }
    uint64_t A[4][G];
    _mm512_storeu_si512(A[0], a00), _mm512_storeu_si512(A[0] + 8, a10), _mm512_storeu_si512(A[0] + 16, a20);
    _mm512_storeu_si512(A[0] + 24, a30);
    _mm512_storeu_si512(A[1], a01), _mm512_storeu_si512(A[1] + 8, a11), _mm512_storeu_si512(A[1] + 16, a21);
    _mm512_storeu_si512(A[1] + 24, a31);
    _mm512_storeu_si512(A[2], a02), _mm512_storeu_si512(A[2] + 8, a12), _mm512_storeu_si512(A[2] + 16, a22);
    _mm512_storeu_si512(A[2] + 24, a32);
    _mm512_storeu_si512(A[3], a03), _mm512_storeu_si512(A[3] + 8, a13), _mm512_storeu_si512(A[3] + 16, a23);
    _mm512_storeu_si512(A[3] + 24, a33);
    for (int h = 0; h < G; h++)
        for (int k = 0; k < nw; k++)
            words[h * 4 + k] |= A[k][h];
}

/* vec_pass_k for w words (4 when w > 4); words zeroed first */
__attribute__((target("avx512f"))) static void vec_pass(const pipe *p, int64_t n0, int64_t lo_d, int64_t hi_d,
                                                       int64_t hi_cap, uint64_t *words)
{
    memset(words, 0, (size_t)G * 4 * sizeof *words);
    if (p->w == 1)
        vec_pass_k(p, n0, lo_d, hi_d, hi_cap, words, 1);
    else if (p->w == 2)
        vec_pass_k(p, n0, lo_d, hi_d, hi_cap, words, 2);
    else
        vec_pass_k(p, n0, lo_d, hi_d, hi_cap, words, 4);
}
#endif

/* The far stage of a group: every heap's far options into the slot. With
 * the AVX-512 kernels the vector pass gives the values below 256; with
 * values of 256 or more about, a heap whose far options hold every common
 * value below 256 gets the rest one split at a time, the others are
 * marked partial (the near stage completes one if its common mex reaches
 * 256, which the near options rarely make it do). */
static void far_group(const pipe *p, int64_t gi, pipe_slot *sl, uint8_t *by)
{
    const int w = p->w;
    const int64_t n0 = p->b0 + gi * G;
    const int64_t L = n0 + G - p->lag; /* parts below L have their values */
    memset(sl->s, 0, (size_t)G * (size_t)w * sizeof *sl->s);
    memset(sl->partial, 0, sizeof sl->partial);
#ifdef PIPE_X86
    if (p->kern == KERN_AVX512) {
        uint64_t words[G * 4];
        vec_pass(p, n0, p->lag, INT64_MAX, L - 1, words);
        const uint64_t *rv = p->rs->rv;
        const int k = w < 4 ? w : 4; /* the words it gives */
        for (int h = 0; h < G; h++) {
            uint64_t *s = sl->s + (size_t)h * (size_t)w;
            memcpy(s, words + h * 4, (size_t)k * sizeof *s);
            if (w <= 4)
                continue;
            int full = 1; /* the common mex is 256 or more */
            for (int i = 0; i < 4; i++)
                full &= ~(s[i] | rv[i]) == 0;
            if (full) {
                far_heap(p, n0, h, p->lag, by);
                ns_seq_map_fold(by, s, (uint64_t)w);
            } else {
                sl->partial[h] = 1;
            }
        }
        return;
    }
#endif
    /* the rare list does not change during a run (a guess is common) */
    const int marked = group_pass(p, n0, p->lag, INT64_MAX, L - 1, by);
    for (int h = 0; marked && h < G; h++)
        ns_seq_map_fold(by + h * MAPB, sl->s + (size_t)h * (size_t)w, (uint64_t)w);
}

/* ---- near ---- */

/* The guess of heap n of the group from n0: s, its far options, gets the
 * rest (map: its byte map, the mid pass's marks in it); 0, or 1 when it
 * stops the pipeline (nothing set). The rare parts it does one by one:
 * r < G - t (the other part in the group) and r >= L (rare heaps found
 * lately). */
static int near_heap(pipe *p, int64_t n, int64_t n0, uint64_t *s, uint8_t *partial, uint8_t *map)
{
    const ns_seq_moves *mv = p->mv;
    ns_seq_rc *rs = p->rs;
    const void *g = p->t->data;
    const int elem = p->elem;
    const int w = p->w;
    const int64_t L = n0 + G - p->lag;
    if (n <= mv->tmax && (mv->d[n] & 1))
        map[0] = 0xff;
    for (int i = 0; i < mv->nsingle; i++) {
        const int64_t m = n - mv->single_t[i];
        if (m >= 1)
            map[ns_seq_gv(g, elem, m)] = 0xff;
    }
    const int64_t *rare = rs->rare;
    const int64_t nr = rs->nrare;
    const int64_t jL = ns_seq_lower_bound(rare, nr, L);
    for (int i = 0; i < mv->nsplit; i++) {
        const int64_t t = mv->split_t[i];
        const int64_t m = n - t;
        /* r < G - t: the list made at the start (m - r > r here, the
         * parts differ) */
        const int *nrr = p->near_r + i * G;
        const uint32_t *ngr = p->near_g + i * G;
        if (elem == 1)
            for (int j = 0; j < p->near_n[i]; j++)
                map[ngr[j] ^ ((const uint8_t *)g)[m - nrr[j]]] = 0xff;
        else
            for (int j = 0; j < p->near_n[i]; j++)
                map[ngr[j] ^ ((const uint16_t *)g)[m - nrr[j]]] = 0xff;
        for (int64_t j = jL; j < nr && rare[j] < m; j++) {
            const int64_t r = rare[j];
            if (!(mv->strict && 2 * r == m))
                map[ns_seq_gv(g, elem, r) ^ ns_seq_gv(g, elem, m - r)] = 0xff;
        }
    }
    ns_seq_map_fold(map, s, (uint64_t)w);
    uint64_t c = ns_seq_common_mex(s, rs->rv, (uint64_t)w);
    if (c >= 256 && *partial) { /* the far and mid options of 256 and more too */
        far_heap(p, n0, (int)(n - n0), G, map);
        ns_seq_map_fold(map, s, (uint64_t)w);
        *partial = 0;
        c = ns_seq_common_mex(s, rs->rv, (uint64_t)w);
    }
    if (c > p->job->max_value || c >= ns_table_invalid(p->t) || c >= (uint64_t)(64 * w))
        return 1;
    ns_table_set(p->t, (uint64_t)n, (uint32_t)c);
    if (c > *p->job->maxv)
        *p->job->maxv = c;
    if (n >= 1)
        rs->hist[c]++;
    return 0;
}

/* The near stage of the next group (under near_lock, its far stage in):
 * first the mid pass, a group pass over the rare parts r with
 * G - t <= r < D - t, whose other parts lie below n0 (heaps with their
 * guesses), into by; then heap by heap. */
static void near_group(pipe *p, pipe_slot *sl, uint8_t *by)
{
    const int64_t gi = p->next_near;
    const int64_t n0 = p->b0 + gi * G;
#ifdef PIPE_X86
    if (p->kern == KERN_AVX512) { /* into the slot's words: values of 256 and more complete a partial heap */
        uint64_t words[G * 4];
        vec_pass(p, n0, G, p->lag - 1, INT64_MAX, words);
        const int k = p->w < 4 ? p->w : 4;
        for (int h = 0; h < G; h++)
            for (int i = 0; i < k; i++)
                sl->s[(size_t)h * (size_t)p->w + (size_t)i] |= words[h * 4 + i];
        if (p->w > 4)
            memset(sl->partial, 1, sizeof sl->partial);
    } else
#endif
        group_pass(p, n0, G, p->lag - 1, INT64_MAX, by);
    int h = 0;
    for (; h < G; h++)
        if (near_heap(p, n0 + h, n0, sl->s + (size_t)h * (size_t)p->w, &sl->partial[h], by + h * MAPB))
            break;
    for (int h2 = h; h2 < G; h2++) /* the maps of heaps not done */
        memset(by + h2 * MAPB, 0, MAPB);
    sl->nheaps = h;
    if (h < G)
        p->near_stop = n0 + h;
    __atomic_store_n(&sl->state, S_NEAR_DONE, __ATOMIC_RELEASE);
    p->next_near++;
    __atomic_store_n(&p->near_end, p->next_near, __ATOMIC_RELEASE);
    if (h == G)
        __atomic_store_n(&p->guessed, n0 + G, __ATOMIC_RELEASE);
}

/* ---- check ---- */

/* Check the guesses of a group: sl->fail is the first wrong one, or -1. */
static void check_group(const pipe *p, int64_t gi, pipe_slot *sl)
{
    const ns_seq_moves *mv = p->mv;
    const uint64_t *rv = p->rs->rv;
    const int w = p->w;
    const int64_t n0 = p->b0 + gi * G;
    int vused = 0;
    sl->fail = -1;
    for (int h = 0; h < sl->nheaps; h++) {
        const int64_t n = n0 + h;
        const uint64_t c = ns_table_get(p->t, (uint64_t)n);
        const uint64_t *s = sl->s + (size_t)h * (size_t)w;
        uint64_t need[W_MAX] = {0};
        int left = 0;
        for (int i = 0; i < w && (uint64_t)(64 * i) < c; i++) {
            uint64_t f = rv[i] & ~s[i];
            if (c - 64 * (uint64_t)i < 64)
                f &= ((uint64_t)1 << (c - 64 * (uint64_t)i)) - 1;
            need[i] = f;
            left += __builtin_popcountll(f);
        }
        for (int i = 0; i < mv->nsplit && left; i++) {
            const int64_t m = n - mv->split_t[i];
            scan(p, m, 1, ns_seq_pair_end(mv, m), need, &left, &vused);
        }
        if (left) { /* n is a rare heap: every value after it is wrong */
            sl->fail = n;
            break;
        }
    }
    sl->vec = (uint8_t)vused;
}

/* ---- the threads ---- */

/* Commit the checked groups in order (under near_lock); on a wrong guess
 * at heap f, take back the histogram counts of the guesses from f on and
 * stop there. */
static void commit(pipe *p)
{
    for (;;) {
        const int64_t gi = p->committed;
        if (gi >= p->next_near)
            break;
        pipe_slot *sl = &p->slots[gi % p->nslots];
        if (__atomic_load_n(&sl->state, __ATOMIC_ACQUIRE) != S_CHECK_DONE)
            break;
        const int64_t n0 = p->b0 + gi * G;
        if (sl->fail >= 0) {
            const int64_t end = n0 + sl->nheaps;
            for (int64_t g2 = gi + 1; g2 < p->next_near; g2++) /* the guesses after the group's */
                for (int h = 0; h < p->slots[g2 % p->nslots].nheaps; h++) {
                    const int64_t n = p->b0 + g2 * G + h;
                    p->rs->hist[ns_table_get(p->t, (uint64_t)n)]--;
                }
            for (int64_t n = sl->fail; n < end; n++)
                if (n >= 1)
                    p->rs->hist[ns_table_get(p->t, (uint64_t)n)]--;
            p->heaps += (uint64_t)(sl->fail - n0);
            p->fails++;
            p->stop_at = sl->fail;
            __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
            return;
        }
        p->heaps += (uint64_t)sl->nheaps;
        p->vec_heaps += sl->vec ? (uint64_t)sl->nheaps : 0;
        p->committed++;
        if (sl->nheaps < G) { /* the near stage stopped in this group */
            p->stop_at = n0 + sl->nheaps;
            __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
            return;
        }
        __atomic_store_n(&sl->state, S_FREE, __ATOMIC_RELEASE);
        if (p->committed == p->ngroups) {
            p->stop_at = p->b0 + p->ngroups * G;
            __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
            return;
        }
    }
}

static void relax(int *spins)
{
    if (++*spins < 256) {
#ifdef PIPE_X86
        _mm_pause();
#endif
    } else {
        sched_yield();
    }
}

/* claim the next group of a counter whose slot is in state `from` */
static int claim(pipe *p, int64_t *counter, int64_t limit, int from, int to, int64_t *gi)
{
    int64_t g = __atomic_load_n(counter, __ATOMIC_ACQUIRE);
    if (g >= limit)
        return 0;
    pipe_slot *sl = &p->slots[g % p->nslots];
    int st = from;
    if (__atomic_load_n(&sl->group, __ATOMIC_ACQUIRE) != g || __atomic_load_n(&sl->state, __ATOMIC_ACQUIRE) != from)
        return 0;
    if (!__atomic_compare_exchange_n(counter, &g, g + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return 0;
    __atomic_compare_exchange_n(&sl->state, &st, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    *gi = g;
    return 1;
}

static void worker(pipe *p)
{
    uint8_t *by = calloc((size_t)G * MAPB, 1);
    if (!by) /* this thread sits out; the others (or the caller) finish */
        return;
    int spins = 0;
    for (;;) {
        int did = 0;
        if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
            break;
        /* commit, then the near stage of every group whose far stage is in */
        if (!__atomic_exchange_n(&p->near_lock, 1, __ATOMIC_ACQUIRE)) {
            commit(p);
            while (!__atomic_load_n(&p->stop, __ATOMIC_RELAXED) && p->near_stop == p->job->b1 &&
                   p->next_near < p->ngroups) {
                pipe_slot *sl = &p->slots[p->next_near % p->nslots];
                if (__atomic_load_n(&sl->group, __ATOMIC_ACQUIRE) != p->next_near ||
                    __atomic_load_n(&sl->state, __ATOMIC_ACQUIRE) != S_FAR_DONE)
                    break;
                near_group(p, sl, by);
                did = 1;
            }
            __atomic_store_n(&p->near_lock, 0, __ATOMIC_RELEASE);
        }
        int64_t gi;
        /* a check (the oldest first: it frees a slot) */
        if (claim(p, &p->next_check, __atomic_load_n(&p->near_end, __ATOMIC_ACQUIRE), S_NEAR_DONE, S_CHECK, &gi)) {
            pipe_slot *sl = &p->slots[gi % p->nslots];
            check_group(p, gi, sl);
            __atomic_store_n(&sl->state, S_CHECK_DONE, __ATOMIC_RELEASE);
            did = 1;
        } else {
            /* a far stage: its parts below L must have their values, its slot free */
            int64_t g = __atomic_load_n(&p->next_far, __ATOMIC_ACQUIRE);
            pipe_slot *sl = &p->slots[g % p->nslots];
            if (g < p->ngroups && p->b0 + g * G + G - p->lag <= __atomic_load_n(&p->guessed, __ATOMIC_ACQUIRE) &&
                __atomic_load_n(&sl->state, __ATOMIC_ACQUIRE) == S_FREE &&
                __atomic_compare_exchange_n(&p->next_far, &g, g + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                __atomic_store_n(&sl->group, g, __ATOMIC_RELEASE);
                __atomic_store_n(&sl->state, S_FAR, __ATOMIC_RELEASE);
                far_group(p, g, sl, by);
                __atomic_store_n(&sl->state, S_FAR_DONE, __ATOMIC_RELEASE);
                did = 1;
            }
        }
        if (did)
            spins = 0;
        else
            relax(&spins);
    }
    free(by);
}

int64_t ns_seq_pipe_run(const ns_seq_pipe_job *job)
{
    pipe p;
    memset(&p, 0, sizeof p);
    p.job = job;
    p.mv = job->mv;
    p.rs = job->rs;
    p.t = job->t;
    p.elem = job->t->elem;
    p.w = (int)job->w;
    p.b0 = job->b0;
    p.ngroups = (job->b1 - job->b0) / G;
    p.kern = pipe_kernel(job->scan);
    const int threads = job->threads > 0 ? job->threads : 1;
    p.lag = ns_seq_pipe_lag(job->mv, threads);
    if (p.ngroups <= 0 || p.w > W_MAX || p.elem > 2 || job->b0 < 4 * p.lag || job->mv->nsplit == 0)
        return job->b0;
    p.near_r = malloc((size_t)NS_OCTAL_MAX_DIGITS * G * sizeof *p.near_r);
    p.near_g = malloc((size_t)NS_OCTAL_MAX_DIGITS * G * sizeof *p.near_g);
    if (!p.near_r || !p.near_g) {
        free(p.near_r);
        free(p.near_g);
        return job->b0;
    }
    for (int i = 0; i < p.mv->nsplit; i++)
        for (int64_t j = 0; j < p.rs->nrare && p.rs->rare[j] < G - p.mv->split_t[i]; j++) {
            p.near_r[i * G + p.near_n[i]] = (int)p.rs->rare[j];
            p.near_g[i * G + p.near_n[i]++] = ns_table_get(p.t, (uint64_t)p.rs->rare[j]);
        }
    p.nslots = p.lag / G + 4 * threads + 8;
    p.slots = calloc((size_t)p.nslots, sizeof *p.slots);
    if (!p.slots) {
        free(p.near_r);
        free(p.near_g);
        return job->b0;
    }
    for (int64_t i = 0; i < p.nslots; i++)
        p.slots[i].group = -1;
    p.guessed = job->b0;
    p.near_stop = job->b1;
    p.stop_at = job->b0;
    p.maxv0 = *job->maxv;
    NS_PRAGMA(omp parallel num_threads(threads))
    worker(&p);
    /* workers that could not allocate left early: finish on this thread */
    if (!p.stop)
        worker(&p);
    free(p.slots);
    free(p.near_r);
    free(p.near_g);
    if (!p.stop) /* no worker could run */
        return job->b0;
    /* the largest value among the values kept */
    uint64_t mx = p.maxv0;
    for (int64_t n = job->b0; n < p.stop_at; n++) {
        const uint64_t v = ns_table_get(job->t, (uint64_t)n);
        mx = v > mx ? v : mx;
    }
    *job->maxv = mx;
    ns_seq_stats *st = p.rs->st;
    st->pipe_heaps += p.heaps;
    st->rc_heaps += p.heaps;
    st->vec_scans += p.vec_heaps;
    st->scans += p.fails; /* a failed check scanned every split */
    st->pipe_rare += p.fails;
    return p.stop_at;
}
