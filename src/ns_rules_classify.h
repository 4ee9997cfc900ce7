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

#include "ns_error.h"
#include "ns_game.h"
#include "ns_rules_elab.h"

/* sum p_i s_i + sum n_i N_i + t*ray + c; an atom is "lin >= 0". */
typedef struct ns_lin {
    int64_t p[NS_MAX_DIM];
    int64_t n[NS_MAX_DIM];
    int64_t t;
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
    char why[160];          /* GENERAL: why it is not a ray or finite set */
} ns_rclass;

/* Classify family f of p (k piles). dom/ndom: the domain as linear atoms
 * when dom_linear (else the domain is not linear, and families need no
 * domain proof only when there is no domain: has_domain == 0). The IR pool
 * of p may grow. Returns NS_OK (out filled; GENERAL on any doubt) or
 * NS_ENOMEM. */
ns_err ns_rules_classify(ns_rules_prog *p, const ns_rfam *f, int k, int has_domain, int dom_linear,
                         const ns_lin *dom, int ndom, ns_rclass *out, ns_error *err);

void ns_rclass_free(ns_rclass *c);

#endif
