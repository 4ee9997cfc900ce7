/* ns_rules_classify.h - the rule-set language: which move families are
 * rays, which are finite offset sets, which must be enumerated per state.
 *
 * A family (after elaboration) is a list of bound variables with ranges,
 * conditions and new pile values. Its leading variables whose ranges have
 * constant ends (or constant lists) are enumerated here, at compile time.
 * Then:
 *   - no variable left, every new pile = pile + constant: a FINITE set of
 *     offsets;
 *   - one variable t left, starting at a constant, every new pile = pile +
 *     c + d*t: one RAY (direction d, base c + start*d) per enumerated
 *     assignment;
 *   - two range variables u, v left, where the linear atoms of their ranges
 *     and conditions that read only u and v bound v - m*u (or u - m*v) for
 *     an integer m between constants: v = m*u + d is substituted for each d
 *     of that finite set (at most NS_RULES_MAX_SUBST values), and each
 *     substituted family must be a ray in u as above (a-Wythoff's
 *     'for k in 1..x, l in 1..y where abs(k - l) < a' gives l = k + d,
 *     d in 1-a..a-1: 2a - 1 rays). Every binding (u, v) has exactly one d,
 *     so the rays together give exactly the family's options;
 *   - one range variable t whose upper end is min(..., s_a, ...) for a
 *     pile a, where nothing else of the family (the other ends, the other
 *     variables, the conditions, the new piles, which must include a) nor
 *     the domain's growth along a depends on s_a: a PREFIX family along a
 *     (options(s) = options(s - e_a) + the moves with t = s_a), see
 *     ns_rules_prefix_of;
 *   - anything else: GENERAL.
 * A ray or finite family is accepted only when its options are provably the
 * engine's: every remaining condition (range ends split at min/max, 'where'
 * split at 'and') must be a box condition of the new state (new pile >= 0,
 * or new pile < size(pile)), every box condition that can fail must be
 * present (or, for an upper edge, follow from a linear domain), and the
 * moves must keep a domain. Otherwise the family is GENERAL, which is
 * always correct, only slower. */
#ifndef NS_RULES_CLASSIFY_H
#define NS_RULES_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_rules_elab.h"

/* sum p_i s_i + sum n_i N_i + t*ray + t2*ray2 + c; an atom is "lin >= 0".
 * (ray2, a second bound variable, is only used inside the classifier; the
 * functions below leave t2 at 0.) */
typedef struct ns_lin {
    int64_t p[NS_MAX_DIM];
    int64_t n[NS_MAX_DIM];
    int64_t t;
    int64_t t2;
    int64_t c;
} ns_lin;

/* Linear form of node id over piles, sizes and (optionally) the bound
 * variable slot ray as t; variables below nval take the values val[].
 * Returns 0, or -1 when the expression is not linear (or overflows). */
int ns_lin_of(const ns_ir *n, int id, int k, const int64_t *val, int nval, int ray, ns_lin *out);

/* Atoms of the condition id (lin >= 0 each), appended to atoms[*na]
 * (capacity max). *never is set when a constant part is false. Returns 0,
 * or -1 when the condition is not a conjunction of linear comparisons. */
int ns_lin_atoms(const ns_ir *n, int id, int k, const int64_t *val, int nval, int ray, ns_lin *atoms, int *na,
                 int max, int *never);

typedef struct ns_rclass {
    ns_fam_kind kind;
    int nrays;              /* RAY: nrays directions and bases, k values each */
    int64_t *dir, *base;    /* owned (free()) */
    size_t noff;            /* FINITE: noff offsets of k values */
    int64_t *off;           /* owned (free()) */
    char why[160];          /* GENERAL: why it is not a ray or finite set;
                               PREFIX: along which pile; RAY: the
                               substitution made, or "" */
} ns_rclass;

#define NS_RULES_MAX_SUBST 4096 /* values of d in v = m*u + d, per assignment */

/* Classify family f of p (k piles). has_domain: the moves must keep a
 * plain domain (an option outside it is an error, so a ray must be proved
 * never to leave it); dom_linear: that domain is a conjunction of linear
 * atoms, the first nkeep of dom. The other ndom - nkeep atoms hold at every
 * position as well ('domain filter' conditions: the engines skip the cells
 * outside them, exactly as a filter drops such options) and only help to
 * prove box limits. The IR pool of p may grow. Returns NS_OK (out filled;
 * GENERAL on any doubt) or NS_ENOMEM. */
ns_err ns_rules_classify(ns_rules_prog *p, const ns_rfam *f, int k, int has_domain, int dom_linear,
                         const ns_lin *dom, int ndom, int nkeep, ns_rclass *out, ns_error *err);

void ns_rclass_free(ns_rclass *c);

/* A family that runs as an NS_FAM_PREFIX family along pile axis. Bound
 * variable var is a range lo..hi whose upper end hi is a min() tree with
 * at least one leaf that is the bare pile s_axis; the other nhi leaves are
 * hi_leaf[]. Nothing else depends on s_axis: not lo, not the other leaves,
 * not the other variables' ranges or lists, not the conditions, not the new
 * pile values, and the family sets a new value for pile axis. So at s the
 * moves with t in lo..min(hi', s_axis) (hi' the min of the other leaves)
 * are those of s - e_axis plus the moves with t = s_axis (at s_axis = 0:
 * all t in lo..min(hi', 0)). The domain is kept exact: each domain
 * condition either does not depend on s_axis or is a conjunction of linear
 * comparisons that can only turn false as s_axis grows, so along a line
 * the positions come first and a cell outside the domain adds nothing
 * that a position could inherit. */
#define NS_RULES_PREFIX_LEAVES 64
typedef struct ns_rprefix {
    int axis;               /* pile index */
    int var;                /* index of the bound variable t in the family */
    int nhi;                /* leaves of t's upper end other than s_axis */
    int hi_leaf[NS_RULES_PREFIX_LEAVES];   /* IR nodes */
} ns_rprefix;

/* Non-zero when family f of p (k piles, p's domain included) may run as a
 * prefix family; *out then describes it (the first qualifying variable and
 * pile). Reads p only. Families that are rays or finite sets are left to
 * ns_rules_classify, which tries this only for a family that would be
 * GENERAL. */
int ns_rules_prefix_of(const ns_rules_prog *p, const ns_rfam *f, int k, ns_rprefix *out);

/* Non-zero when family f of p (k piles) lowers, each by a positive amount,
 * exactly the piles of one of a list of sets, and nothing else
 * (ns_rules_subsets.c says what is proved): pat[0..3] gets the list (bit T
 * for the set of piles T), *piles the piles of the family (bit i = pile i)
 * and *kmax K > 0 when the list is every set of 1..K of them (a subsets
 * family, Moore's Nim_K), else 0 (a patterns family). The caller must also
 * know that no domain or symmetry applies. */
int ns_rules_subsets_of(const ns_rules_prog *p, const ns_rfam *f, int k, uint32_t *piles, int *kmax, uint64_t *pat);

#endif
