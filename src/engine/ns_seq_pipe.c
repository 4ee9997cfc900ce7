/* ns_seq_pipe.c - the rare/common method of the sequence engine
 * (ns_sequence.c) as a pipeline over groups of 32 heaps, so that every
 * thread works on one game (Grundy's game, 0.1777).
 *
 * Near and far. A split of heap n needs the values of its parts. With the
 * heaps below F final and a lag D, the options of the group n0 .. n0+31
 * whose parts all lie below L = n0 + 32 - D ("far") can be found once
 * F >= L, while the D - 32 heaps before the group are still being
 * finished; only the options with a part in [L, n) ("near") must wait for
 * the heap before. For a split digit t (M0 = n0 - t, heap h of the group
 * splits M0 + h) the far options are the splits with a rare part r,
 * D - t <= r < L (the other part, M0 + h - r, is then below L too), and
 * near, the few with r < D - t or r >= L, the single heaps (t < D) and
 * taking the whole heap. The far stage also looks for the rare values:
 * after the splits with a rare part (the group pass: for each r the other
 * parts of the 32 heaps are one run of the sequence, one load and one
 * byte store a split) each heap's bitset holds its far common options;
 * with B its second smallest common value absent (the near options rarely
 * fill both the first and the second), the far stage scans the heap's
 * splits (a, M0 + h - a) from a = D - t on, vector kernels testing each
 * value against the set of the rare values below B still missing, until
 * none is (or 2^16 splits), and records `bound`: every rare value below it
 * is an option. The near stage adds the near options, takes c, the
 * smallest common value absent, and G(n) = c when c <= bound (the
 * common case) or no rare value below c is missing; otherwise it scans
 * every split of n (ns_seq_rc_resolve), as the heap-by-heap method does.
 * Both compute the exact mex: the values do not depend on D, on the
 * number of threads or on which thread did what.
 *
 * Threads. The far stage of group g may start once F >= n0(g) + 32 - D;
 * any thread claims the next such group (an atomic counter) and puts its
 * bitsets in a ring of slots; whichever thread holds the near lock
 * finishes the groups whose far stage is in, in order, and moves F. With
 * D = 32 (2 threads + 4) or more, several far groups are in flight while
 * the near stage (a few dozen splits a heap) runs. A thread with nothing
 * to do spins, then yields.
 *
 * What stops the pipeline (the caller finishes that heap its own way and
 * starts again): a value that needs a wider cell or more bitset words
 * (both are read by the other threads), a value over the bound, a full
 * rare list. */
#include "engine/ns_seq_pipe.h"

#include <sched.h>
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
    SCAN_CAP = 1 << 16,     /* splits the far stage scans a heap for the rare values, at most */
    MISSING_K = 1,          /* the far stage finds the rare values below the K-th absent common value */
};

typedef struct pipe_slot {
    int64_t tag;            /* g + 1 once group g's far stage is in; 0 free (atomic) */
    uint64_t s[G * W_MAX];  /* heap h: s[h * w ..] */
    uint32_t bound[G];      /* every rare value below bound[h] is in heap h's set */
    uint8_t vec[G];         /* the far scan ran a vector kernel */
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
    int kern;               /* KERN_*: the far scan */
    int vec2;               /* the near stage's full scans may run their AVX2 kernel */
    /* shared, atomic */
    int64_t frontier;       /* heaps below are final */
    int64_t next_far;       /* the next group whose far stage is unclaimed */
    int64_t nrare;          /* rare heaps listed below the frontier */
    int near_lock;
    int stop;
    /* under near_lock */
    int64_t next_near;      /* the group the near stage finishes next */
    int64_t stop_at;        /* the first heap not finished */
    uint64_t heaps, vec_heaps;
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

/* ---- the far stage's scan for the rare values ----
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
/* One-byte cells, 64 splits a step: G(a .. a+63) ^ reversed G(m-a-63 ..
 * m-a); each value's byte of need (a permutation over 32 bytes: values
 * below 256) and its bit (a shuffle of 1 << (v & 7)) tested at once. */
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static int64_t scan_u8_512(const uint8_t *g, int64_t m,
                                                                                  int64_t a, int64_t a1,
                                                                                  uint64_t *need, int *left)
{
    int k = *left;
    __m512i rev = _mm512_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                  23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                                  44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63);
    const __m512i bits = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32,
                                                              64, (char)128));
    const __m512i seven = _mm512_set1_epi8(7);
    __m512i tab = _mm512_loadu_si512(need); /* need has W_MAX words: values < 256 use the first 32 bytes */
#define PIPE_PAIRS8(b) _mm512_xor_si512(_mm512_loadu_si512(g + (b)), _mm512_permutexvar_epi8(rev, _mm512_loadu_si512(g + m - (b) - 63)))
    /* a value found clears its bit in tab (the same value twice: no harm);
     * the scan stops when tab is empty */
    while (_mm512_test_epi64_mask(tab, tab) && a + 128 <= a1) {
        const __m512i v0 = PIPE_PAIRS8(a), v1 = PIPE_PAIRS8(a + 64);
        const __mmask64 h0 = _mm512_test_epi8_mask(
                            _mm512_permutexvar_epi8(_mm512_srli_epi16(_mm512_andnot_si512(seven, v0), 3), tab),
                            _mm512_shuffle_epi8(bits, _mm512_and_si512(v0, seven))),
                        h1 = _mm512_test_epi8_mask(
                            _mm512_permutexvar_epi8(_mm512_srli_epi16(_mm512_andnot_si512(seven, v1), 3), tab),
                            _mm512_shuffle_epi8(bits, _mm512_and_si512(v1, seven)));
        if (h0 | h1) {
            uint8_t vals[128];
            _mm512_storeu_si512(vals, v0);
            _mm512_storeu_si512(vals + 64, v1);
            for (int half = 0; half < 2; half++)
                for (__mmask64 hit = half ? h1 : h0; hit; hit &= hit - 1) {
                    const uint32_t x = vals[64 * half + __builtin_ctzll(hit)];
                    tab = _mm512_andnot_si512(
                        _mm512_maskz_set1_epi64((__mmask8)(1u << (x >> 6)), (long long)((uint64_t)1 << (x & 63))), tab);
                }
        }
        a += 128;
    }
#undef PIPE_PAIRS8
    _mm512_storeu_si512(need, tab);
    k = 0;
    for (int i = 0; i < W_MAX; i++)
        k += __builtin_popcountll(need[i]);
    *left = k;
    return scan_scalar(g, 1, m, a, a1, need, left);
}

/* Two-byte cells, 32 splits a step: each value's 16-bit word of need (a
 * permutation over 32 words: values below 512) and its bit (a shift). */
__attribute__((target("avx512f,avx512bw"))) static int64_t scan_u16_512(const uint16_t *g, int64_t m, int64_t a,
                                                                        int64_t a1, uint64_t *need, int *left)
{
    int k = *left;
    const __m512i rev = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                         21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const __m512i fifteen = _mm512_set1_epi16(15), one = _mm512_set1_epi16(1);
    __m512i tab = _mm512_loadu_si512(need);
#define PIPE_PAIRS16(b) _mm512_xor_si512(_mm512_loadu_si512(g + (b)), _mm512_permutexvar_epi16(rev, _mm512_loadu_si512(g + m - (b) - 31)))
#define PIPE_HITS16(v) _mm512_test_epi16_mask(_mm512_srlv_epi16(_mm512_permutexvar_epi16(_mm512_srli_epi16(v, 4), tab), _mm512_and_si512(v, fifteen)), one)
    while (_mm512_test_epi64_mask(tab, tab) && a + 64 <= a1) {
        const __m512i v0 = PIPE_PAIRS16(a), v1 = PIPE_PAIRS16(a + 32);
        const __mmask32 h0 = PIPE_HITS16(v0), h1 = PIPE_HITS16(v1);
        if (h0 | h1) {
            uint16_t vals[64];
            _mm512_storeu_si512(vals, v0);
            _mm512_storeu_si512(vals + 32, v1);
            for (uint64_t hit = (uint64_t)h0 | (uint64_t)h1 << 32; hit; hit &= hit - 1) {
                const uint32_t x = vals[__builtin_ctzll(hit)];
                tab = _mm512_andnot_si512(
                    _mm512_maskz_set1_epi64((__mmask8)(1u << (x >> 6)), (long long)((uint64_t)1 << (x & 63))), tab);
            }
        }
        a += 64;
    }
    _mm512_storeu_si512(need, tab);
    k = 0;
    for (int i = 0; i < W_MAX; i++)
        k += __builtin_popcountll(need[i]);
#undef PIPE_PAIRS16
#undef PIPE_HITS16
    *left = k;
    return scan_scalar(g, 2, m, a, a1, need, left);
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
        if (p->elem == 1)
            return scan_u8_512(p->t->data, m, a0, a1, need, left);
        return scan_u16_512(p->t->data, m, a0, a1, need, left);
    }
#else
    (void)vused;
#endif
    return scan_scalar(p->t->data, p->elem, m, a0, a1, need, left);
}

/* ---- the far stage ---- */

/* the k-th smallest common value absent from s (w words), 64 w if none */
static uint32_t kth_absent_common(const uint64_t *s, const uint64_t *rv, int w, int k)
{
    for (int i = 0; i < w; i++)
        for (uint64_t f = ~(s[i] | rv[i]); f; f &= f - 1)
            if (--k == 0)
                return (uint32_t)(i * 64 + __builtin_ctzll(f));
    return (uint32_t)(64 * w);
}

/* the smallest rare value absent from s (w words), 64 w if none */
static uint32_t first_absent_rare(const uint64_t *s, const uint64_t *rv, int w)
{
    for (int i = 0; i < w; i++) {
        const uint64_t f = rv[i] & ~s[i];
        if (f)
            return (uint32_t)(i * 64 + __builtin_ctzll(f));
    }
    return (uint32_t)(64 * w);
}

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
#pragma GCC unroll 32
        for (int h = 0; h < G; h++)
            by[h * MAPB + (int)((gr ^ ns_seq_gv(g, elem, base + h)) & (MAPB - 1))] = 0xff;
    }
}

static void far_group(const pipe *p, int64_t gi, pipe_slot *sl, uint8_t *by)
{
    const ns_seq_moves *mv = p->mv;
    const ns_seq_rc *rs = p->rs;
    const int w = p->w;
    const int64_t n0 = p->b0 + gi * G;
    const int64_t L = n0 + G - p->lag; /* parts below L are final */
    const int64_t nr = ns_seq_lower_bound(rs->rare, __atomic_load_n(&p->nrare, __ATOMIC_ACQUIRE), L);
    for (int i = 0; i < mv->nsplit; i++) {
        const int t = mv->split_t[i];
        const int64_t lo = p->lag - t > 1 ? p->lag - t : 1;
        if (p->elem == 1)
            group_pass_k(p->t->data, 1, rs->rare, nr, n0 - t, lo, L - 1, mv->strict, by);
        else
            group_pass_k(p->t->data, 2, rs->rare, nr, n0 - t, lo, L - 1, mv->strict, by);
    }
    /* the rare values: splits of the first split digit from a0 on */
    const int t0 = mv->split_t[0];
    const int64_t M0 = n0 - t0;
    const int64_t a0 = p->lag - t0;
    int64_t a1 = ns_seq_pair_end(mv, M0);
    if (a1 > a0 + SCAN_CAP)
        a1 = a0 + SCAN_CAP;
    for (int h = 0; h < G; h++) {
        uint64_t *s = sl->s + (size_t)h * (size_t)w;
        memset(s, 0, (size_t)w * sizeof *s);
        ns_seq_map_fold(by + h * MAPB, s, (uint64_t)w);
        const uint32_t B = kth_absent_common(s, rs->rv, w, MISSING_K);
        uint64_t need[W_MAX] = {0};
        int left = 0;
        for (int i = 0; i < w && (uint32_t)(64 * i) < B; i++) {
            uint64_t f = rs->rv[i] & ~s[i];
            if (B - 64 * (uint32_t)i < 64)
                f &= ((uint64_t)1 << (B - 64 * (uint32_t)i)) - 1;
            need[i] = f;
            left += __builtin_popcountll(f);
        }
        int vused = 0;
        if (left) {
            uint64_t was[W_MAX];
            memcpy(was, need, sizeof was);
            scan(p, M0 + h, a0, a1, need, &left, &vused);
            for (int i = 0; i < w; i++)
                s[i] |= was[i] & ~need[i];
        }
        sl->bound[h] = first_absent_rare(s, rs->rv, w);
        sl->vec[h] = (uint8_t)vused;
    }
}

/* ---- the near stage ---- */

/* G(n) when s (w words) holds every common option of heap n and c, the
 * smallest common value absent, is above a rare value absent: every split
 * of n is scanned for the rare values below c still absent; G(n) is c
 * when all turn up, else the smallest that did not. */
static uint64_t near_resolve(pipe *p, int64_t n, uint64_t *s, uint64_t c)
{
    const ns_seq_moves *mv = p->mv;
    const uint64_t *rv = p->rs->rv;
    const int w = p->w;
    uint64_t need[W_MAX] = {0}, was[W_MAX];
    int left = 0, vused = 0;
    p->rs->st->scans++;
    for (int i = 0; i < w && (uint64_t)(64 * i) < c; i++) {
        uint64_t f = rv[i] & ~s[i];
        if (c - 64 * (uint64_t)i < 64)
            f &= ((uint64_t)1 << (c - 64 * (uint64_t)i)) - 1;
        need[i] = f;
        left += __builtin_popcountll(f);
    }
    memcpy(was, need, sizeof was);
    for (int i = 0; i < mv->nsplit && left; i++) {
        const int64_t m = n - mv->split_t[i];
        scan(p, m, 1, ns_seq_pair_end(mv, m), need, &left, &vused);
    }
    if (!left)
        return c;
    for (int i = 0; i < w; i++) {
        s[i] |= was[i] & ~need[i];
        if (~s[i])
            return (uint64_t)(64 * i + __builtin_ctzll(~s[i]));
    }
    return c; /* not reached: a rare value below c is absent */
}

/* Finish heap n of the group from n0, far set sf: 0, or 1 when its value
 * stops the pipeline (nothing set). */
static int near_heap(pipe *p, int64_t n, int64_t n0, const uint64_t *sf, uint32_t bound, uint8_t *map,
                     ns_error *err)
{
    const ns_seq_moves *mv = p->mv;
    ns_seq_rc *rs = p->rs;
    const void *g = p->t->data;
    const int elem = p->elem;
    const int w = p->w;
    const int64_t L = n0 + G - p->lag;
    uint64_t s[W_MAX];
    memcpy(s, sf, (size_t)w * sizeof *s);
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
        for (int64_t j = 0; j < nr && rare[j] < p->lag - t && rare[j] < m; j++) {
            const int64_t r = rare[j];
            if (!(mv->strict && 2 * r == m))
                map[ns_seq_gv(g, elem, r) ^ ns_seq_gv(g, elem, m - r)] = 0xff;
        }
        for (int64_t j = jL; j < nr && rare[j] < m; j++) {
            const int64_t r = rare[j];
            if (!(mv->strict && 2 * r == m))
                map[ns_seq_gv(g, elem, r) ^ ns_seq_gv(g, elem, m - r)] = 0xff;
        }
    }
    ns_seq_map_fold(map, s, (uint64_t)w);
    uint64_t v = ns_seq_common_mex(s, rs->rv, (uint64_t)w);
    if (v > bound && ns_seq_rare_missing(s, rs->rv, (uint64_t)w, v))
        v = near_resolve(p, n, s, v);
    const int rare_v = ns_seq_is_rare(rs->mask, (uint32_t)v);
    if (v > p->job->max_value || v >= ns_table_invalid(p->t) || v >= (uint64_t)(64 * w) ||
        (rare_v && rs->nrare == rs->cap_rare))
        return 1;
    ns_table_set(p->t, (uint64_t)n, (uint32_t)v);
    if (v > *p->job->maxv)
        *p->job->maxv = v;
    if (ns_seq_rc_add(rs, n, (uint32_t)v, err)) /* no growth: room checked above */
        return 1;
    return 0;
}

/* the near stage of group gi: 0, or 1 when it stopped at p->stop_at */
static int near_group(pipe *p, int64_t gi, const pipe_slot *sl, uint8_t *map)
{
    const int64_t n0 = p->b0 + gi * G;
    for (int h = 0; h < G; h++) {
        ns_error err = {0};
        if (near_heap(p, n0 + h, n0, sl->s + (size_t)h * (size_t)p->w, sl->bound[h], map, &err)) {
            p->stop_at = n0 + h;
            return 1;
        }
        p->heaps++;
        p->vec_heaps += sl->vec[h];
    }
    return 0;
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

static void worker(pipe *p)
{
    uint8_t *by = calloc((size_t)G * MAPB + MAPB, 1);
    if (!by) { /* this thread sits out; the others (or the caller) finish */
        return;
    }
    uint8_t *map = by + (size_t)G * MAPB;
    int spins = 0;
    for (;;) {
        int done_something = 0;
        if (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE) && !__atomic_exchange_n(&p->near_lock, 1, __ATOMIC_ACQUIRE)) {
            while (p->next_near < p->ngroups) {
                pipe_slot *sl = &p->slots[p->next_near % p->nslots];
                if (__atomic_load_n(&sl->tag, __ATOMIC_ACQUIRE) != p->next_near + 1)
                    break;
                if (near_group(p, p->next_near, sl, map)) {
                    __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
                    break;
                }
                __atomic_store_n(&sl->tag, 0, __ATOMIC_RELEASE);
                p->next_near++;
                __atomic_store_n(&p->nrare, p->rs->nrare, __ATOMIC_RELEASE);
                __atomic_store_n(&p->frontier, p->b0 + p->next_near * G, __ATOMIC_RELEASE);
                done_something = 1;
            }
            if (p->next_near == p->ngroups)
                __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
            __atomic_store_n(&p->near_lock, 0, __ATOMIC_RELEASE);
        }
        if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
            break;
        int64_t gi = __atomic_load_n(&p->next_far, __ATOMIC_ACQUIRE);
        if (gi < p->ngroups) {
            const int64_t need = p->b0 + gi * G + G - p->lag;
            pipe_slot *sl = &p->slots[gi % p->nslots];
            if (__atomic_load_n(&p->frontier, __ATOMIC_ACQUIRE) >= need &&
                __atomic_load_n(&sl->tag, __ATOMIC_ACQUIRE) == 0 &&
                __atomic_compare_exchange_n(&p->next_far, &gi, gi + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                far_group(p, gi, sl, by);
                __atomic_store_n(&sl->tag, gi + 1, __ATOMIC_RELEASE);
                done_something = 1;
            }
        }
        if (done_something)
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
#ifdef PIPE_X86
    p.vec2 = job->scan != NS_SEQ_SCAN_SCALAR && __builtin_cpu_supports("avx2");
#endif
    const int threads = job->threads > 0 ? job->threads : 1;
    p.lag = ns_seq_pipe_lag(job->mv, threads);
    if (p.ngroups <= 0 || p.w > W_MAX || p.elem > 2 || job->b0 < 4 * p.lag || job->mv->nsplit == 0)
        return job->b0;
    p.nslots = p.lag / G + threads + 1;
    p.slots = calloc((size_t)p.nslots, sizeof *p.slots);
    if (!p.slots)
        return job->b0;
    p.frontier = job->b0;
    p.nrare = job->rs->nrare;
    p.stop_at = job->b1;
    NS_PRAGMA(omp parallel num_threads(threads))
    worker(&p);
    /* a worker that could not allocate left: finish on this thread */
    if (!p.stop)
        worker(&p);
    free(p.slots);
    ns_seq_stats *st = p.rs->st;
    st->pipe_heaps += p.heaps;
    st->rc_heaps += p.heaps;
    st->vec_scans += p.vec_heaps;
    return p.stop_at < job->b1 ? p.stop_at : job->b0 + p.next_near * G;
}
