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

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "engine/ns_sieve.h"
#include "game/ns_table.h"

int ns_tiles2d_eligible(const ns_game *g, const ns_sieve_opts *o);

/* max_value: the plan's bound on any value (ns_sieve_plan.max_value).
 * t == NULL: streaming, the tiles go to o->tile_sink (ns_sieve.h). */
ns_err ns_tiles2d_run(const ns_game *g, ns_table *t, uint64_t max_value, const ns_sieve_opts *o,
                      ns_error *err);

/* Bytes of the per-line sets ns_tiles2d_run allocates for g (bounds set).
 * Streaming needs these and a few tiles per thread, no table. */
uint64_t ns_tiles2d_line_bytes(const ns_game *g, uint64_t max_value);

/* The tile side. */
int64_t ns_tiles2d_tile(void);

#endif
