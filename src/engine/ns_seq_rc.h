/* ns_seq_rc.h - internal to the sequence engine: what the rare/common
 * method of ns_sequence.c and its pipeline (ns_seq_pipe.c) share: a
 * game's moves by kind, the method's state (mask, rare values, rare heap
 * sizes, value histogram), and the small helpers both use on a heap's
 * bitset of option values. */
#ifndef NS_SEQ_RC_H
#define NS_SEQ_RC_H

#include <stdint.h>

#include "core/ns_error.h"
#include "engine/ns_engine.h"
#include "game/ns_octal.h"
#include "game/ns_table.h"

/* The moves of a take-and-break game, by kind. */
typedef struct ns_seq_moves {
    int nsplit, nsingle;
    int split_t[NS_OCTAL_MAX_DIGITS];  /* tokens taken by moves leaving two heaps */
    int single_t[NS_OCTAL_MAX_DIGITS]; /* ... leaving one heap */
    int strict;                        /* the two heaps differ (Grundy's game) */
    int tmax;
    const uint8_t *d;
} ns_seq_moves;

/* The rare/common method's state. */
typedef struct ns_seq_rc {
    uint32_t mask;      /* 0: none */
    uint64_t *rv;       /* the rare values below 64 * rv_words, a bitset */
    uint64_t rv_words;
    int64_t *rare;      /* rare heap sizes >= 1, ascending */
    int64_t nrare, cap_rare;
    uint64_t *hist;     /* hist[v]: heaps 1..n-1 of value v (v < 2^NS_SEQ_RC_BITS) */
    int off;            /* the values grew past 2^NS_SEQ_RC_BITS: no method */
    int64_t next_eval;
    ns_seq_stats *st;
} ns_seq_rc;

enum { NS_SEQ_RC_BITS = 16 }; /* masks among values below 2^16 */

static inline __attribute__((always_inline)) uint32_t ns_seq_gv(const void *g, int elem, int64_t i)
{
    switch (elem) {
    case 1: return ((const uint8_t *)g)[i];
    case 2: return ((const uint16_t *)g)[i];
    default: return ((const uint32_t *)g)[i];
    }
}

static inline int ns_seq_is_rare(uint32_t mask, uint32_t v)
{
    return !__builtin_parity(v & mask);
}

static inline void ns_seq_mark(uint64_t *seen, uint32_t v)
{
    seen[v >> 6] |= (uint64_t)1 << (v & 63);
}

/* first j < n with r[j] >= x (n when none) */
static inline int64_t ns_seq_lower_bound(const int64_t *r, int64_t n, int64_t x)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (r[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* a runs below this in the splits (a, m - a) of a heap, a <= m - a */
static inline int64_t ns_seq_pair_end(const ns_seq_moves *mv, int64_t m)
{
    return m < 2 ? 1 : mv->strict ? (m + 1) / 2 : m / 2 + 1;
}

/* Is a rare value below c missing from s (w words)? */
static inline int ns_seq_rare_missing(const uint64_t *s, const uint64_t *rv, uint64_t w, uint64_t c)
{
    for (uint64_t i = 0; i < w && i * 64 < c; i++) {
        uint64_t miss = rv[i] & ~s[i];
        if (c - i * 64 < 64)
            miss &= ((uint64_t)1 << (c - i * 64)) - 1;
        if (miss)
            return 1;
    }
    return 0;
}

/* The smallest common value not in s (w words). */
static inline uint64_t ns_seq_common_mex(const uint64_t *s, const uint64_t *rv, uint64_t w)
{
    for (uint64_t i = 0; i < w; i++) {
        const uint64_t free_ = ~(s[i] | rv[i]);
        if (free_)
            return i * 64 + (uint64_t)__builtin_ctzll(free_);
    }
    return w * 64;
}

/* G(n) of a heap n whose bitset s (w words) holds every common option of
 * n (and maybe some rare ones): the smallest common value c not in s,
 * unless a rare value below c is not an option, found by scanning every
 * split of n (ns_sequence.c). vec: the vector scan kernel may run. Every
 * value below n must be final. */
uint64_t ns_seq_rc_resolve(const ns_seq_moves *mv, ns_seq_rc *rs, const ns_table *t, int vec, int64_t n, uint64_t *s,
                           uint64_t w);

/* Count G(n) = v (n >= 1) in the histogram and list n when v is rare;
 * the rare list grows (realloc) when full. */
ns_err ns_seq_rc_add(ns_seq_rc *rs, int64_t n, uint32_t v, ns_error *err);

#endif
