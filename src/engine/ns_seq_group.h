/* ns_seq_group.h - internal to the sequence engine (ns_sequence.c): which
 * rare splits the rare-common method's group pass does for a group of
 * NS_SEQ_GROUP heaps (here so that the tests check the bounds directly).
 *
 * The group pass. For the heaps n0 .. n0+31 (one-byte cells) and a rare
 * part a that every one of them splits off with a digit t (M0 = n0 - t,
 * heap h of the group leaves a and M0 + h - a), the other parts are one
 * run of 32 bytes of the sequence: the pass XORs G(a) into it and marks
 * value h in heap h's byte map, a load and a store a split, where a heap
 * at a time costs the rare list entry, two scattered loads and the loop
 * for each split. The parts it takes for every heap of the group
 * (ns_seq_group_span):
 *   early (the other part below b0, values of the finished heaps):
 *     M0 + 32 - b0 <= a < M0;
 *   late (the other part in [b0, n0): heaps of the block finished before
 *     the group): 32 - t <= a <= M0 - b0;
 * and never a = m / 2 in a strict split (Grundy's game: two unequal
 * heaps) for any heap of the group, the window [wlo, whi]. The
 * heap-by-heap kernels then skip the parts in the span (ns_seq_in_span,
 * ns_seq_span_next) and do the rest. */
#ifndef NS_SEQ_GROUP_H
#define NS_SEQ_GROUP_H

#include <stdint.h>

enum { NS_SEQ_GROUP = 32 };

typedef struct ns_seq_span {
    int64_t lo, hi, wlo, whi; /* a in [lo, hi) outside [wlo, whi] */
} ns_seq_span;

/* The span of the group n0 .. n0+31 for the digit t (strict: the two
 * parts must differ), early (late == 0) or late, blocks from b0. */
static inline ns_seq_span ns_seq_group_span(int64_t t, int strict, int64_t n0, int64_t b0, int late)
{
    const int64_t M0 = n0 - t;
    ns_seq_span sp;
    sp.lo = late ? NS_SEQ_GROUP - t : M0 + NS_SEQ_GROUP - b0;
    sp.lo = sp.lo < 1 ? 1 : sp.lo;
    sp.hi = late ? M0 - b0 + 1 : M0;
    sp.wlo = 1;
    sp.whi = 0;
    if (strict) {
        sp.wlo = (M0 + 1) / 2;
        sp.whi = (M0 + NS_SEQ_GROUP - 1) / 2;
    }
    return sp;
}

static inline int ns_seq_in_span(const ns_seq_span *sp, int64_t a)
{
    return a >= sp->lo && a < sp->hi && (a < sp->wlo || a > sp->whi);
}

/* the first part after a (ns_seq_in_span) that the span may not hold */
static inline int64_t ns_seq_span_next(const ns_seq_span *sp, int64_t a)
{
    return a < sp->wlo ? (sp->wlo < sp->hi ? sp->wlo : sp->hi) : sp->hi;
}

#endif
