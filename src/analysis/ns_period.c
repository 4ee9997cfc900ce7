/* ns_period.c - see ns_period.h */
#include "analysis/ns_period.h"

#include <string.h>

/* The octal periodicity theorem (Guy and Smith, The G-values of various
 * games, Proc. Cambridge Philos. Soc. 52 (1956); Berlekamp, Conway and
 * Guy, Winning Ways, vol. 1, ch. 4; Siegel, Combinatorial Game Theory,
 * ch. IV): for a code whose moves take at most k tokens and leave at most
 * j heaps, if G(n + p) = G(n) for all n with n0 <= n < j*n0 + (j-1)*p + k,
 * then for all n >= n0. Here with n0 replaced by max(n0, 1) (a move that
 * leaves two heaps must map to one that leaves two non-empty heaps; a
 * sequence periodic from 0 is periodic from 1).
 *
 * Why, by induction on m >= j*n0 + (j-1)*p + k: the options of a heap of
 * m + p and of m correspond one to one with equal values. A move taking t
 * tokens from m + p leaves parts summing to m + p - t; its largest part c
 * is at least (m + p - t)/j >= n0 + p, so c - p >= n0 >= 1 and
 * G(c) = G(c - p) (c - p < m): the same move on m leaves the parts with c
 * replaced by c - p, with the same XOR. Conversely the largest part c of a
 * move from m is at least (m - t)/j >= n0, so G(c + p) = G(c). Single
 * heaps (j = 1) are the case of one part; taking a whole heap is possible
 * from neither m nor m + p, both larger than k. With j = 2 this is the
 * familiar range n0 <= n < 2*n0 + p + k. The check of G(n + p) for n up to
 * j*n0 + (j-1)*p + k - 1 needs N >= j*n0 + j*p + k heap sizes. */
int64_t ns_period_needed(const ns_octal *o, int64_t n0, int64_t p)
{
    if (!o || o->kind != NS_TB_CODE)
        return -1;
    const int64_t j = o->max_heaps > 1 ? o->max_heaps : 1;
    const int64_t m0 = n0 > 1 ? n0 : 1;
    return j * m0 + j * p + o->tmax;
}

ns_err ns_period_find(const ns_table *t, const ns_octal *o, ns_period *out, ns_error *err)
{
    memset(out, 0, sizeof *out);
    if (t->k != 1 || t->pn_only)
        return ns_error_set(err, NS_EINVAL, "a period needs a 1-D table of Grundy values (a heap game's sequence)");
    const int64_t n = t->bounds[0];
    out->n = n;
    out->theorem = o && o->kind == NS_TB_CODE;
    for (int64_t i = 0; i < n; i++) {
        const uint32_t v = ns_table_get(t, (uint64_t)i);
        if (v > out->max_value || i == 0) {
            out->max_value = v;
            out->argmax = i;
        }
    }
    /* the smallest p the theorem proves (then the true smallest period:
     * it divides every period and is proved in the same range); else the
     * smallest p observed: G(n + p) = G(n) for n0 <= n < N - p with a tail
     * N - n0 of at least two periods and half the sequence. Multiples of
     * the observed p are not tried for a proof (a multiple of a period
     * that is not proven is not either; their scans are long) */
    int64_t obs_p = 0, obs_n0 = 0, obs_s = 0;
    for (int64_t p = 1; 2 * p <= n; p++) {
        if (obs_p && (!out->theorem || ns_period_needed(o, 0, p) > n))
            break;
        if (obs_p && p % obs_p == 0)
            continue;
        /* the step s over the last p heap sizes: 0 a pure period, > 0 an
         * arithmetic one (never proven), < 0 none */
        const int64_t s = (int64_t)ns_table_get(t, (uint64_t)(n - 1)) - (int64_t)ns_table_get(t, (uint64_t)(n - 1 - p));
        if (s < 0)
            continue;
        int64_t i = n - p - 1;
        while (i >= 0 && (int64_t)ns_table_get(t, (uint64_t)(i + p)) - (int64_t)ns_table_get(t, (uint64_t)i) == s)
            i--;
        const int64_t n0 = i + 1;
        if (s > 0) {
            if (!obs_p && n - n0 >= 2 * p && 2 * (n - n0) >= n) {
                obs_p = p;
                obs_n0 = n0;
                obs_s = s;
            }
            continue;
        }
        if (out->theorem && n >= ns_period_needed(o, n0, p)) {
            out->found = out->proven = 1;
            out->period = p;
            out->preperiod = n0;
            out->needed = ns_period_needed(o, n0, p);
            return NS_OK;
        }
        if (!obs_p && n - n0 >= 2 * p && 2 * (n - n0) >= n) {
            obs_p = p;
            obs_n0 = n0;
        }
    }
    if (obs_p) {
        out->found = 1;
        out->period = obs_p;
        out->preperiod = obs_n0;
        out->saltus = obs_s;
        out->needed = out->theorem && !obs_s ? ns_period_needed(o, obs_n0, obs_p) : 0;
    }
    return NS_OK;
}
