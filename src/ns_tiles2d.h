/* ns_tiles2d.h - Grundy sieve for two-pile games of plain rays, in tiles
 * processed as a parallel wavefront.
 *
 * Applies when: Grundy values, k = 2, no domain restriction, and every
 * family is a plain ray (first option one step along it) along the row,
 * (0,-1), or with direction (-a, dy), a >= 1, dy <= 0. Wythoff, two-pile
 * Nim and rule files of such rays qualify. Normal and misere play.
 * ns_sieve_run uses it by itself; the table equals the general sieve's. */
#ifndef NS_TILES2D_H
#define NS_TILES2D_H

#include <stdint.h>

#include "ns_error.h"
#include "ns_game.h"
#include "ns_sieve.h"
#include "ns_table.h"

int ns_tiles2d_eligible(const ns_game *g, const ns_sieve_opts *o);

/* max_value: the plan's bound on any value (ns_sieve_plan.max_value). */
ns_err ns_tiles2d_run(const ns_game *g, ns_table *t, uint64_t max_value, const ns_sieve_opts *o,
                      ns_error *err);

#endif
