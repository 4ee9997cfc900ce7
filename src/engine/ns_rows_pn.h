/* ns_rows_pn.h - fast P/N sieve for two-pile games made only of rays.
 *
 * Applies when: P/N table, k = 2, normal play, no domain restriction, and
 * every family is a ray with direction (-a, dy), a >= 1, whose first option
 * lies in an earlier row, or the plain row ray (0,-1). Wythoff, a-Wythoff,
 * two-pile Nim and rule files made of such rays qualify. ns_sieve_run uses it
 * by itself; the result is the same table the general sieve would give. */
#ifndef NS_ROWS_PN_H
#define NS_ROWS_PN_H

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "engine/ns_sieve.h"
#include "game/ns_table.h"

int ns_rows_pn_eligible(const ns_game *g, const ns_sieve_opts *o);
/* Fills t, or with o->rows_sink (t NULL) hands the rows to it. */
ns_err ns_rows_pn_run(const ns_game *g, ns_table *t, const ns_sieve_opts *o, ns_error *err);

/* Rows of a block (the unit of checkpoints, and what a rows sink gets). */
int64_t ns_rows_pn_block(void);

/* Memory the kernel keeps besides the table: line flags and row bitmaps. */
uint64_t ns_rows_pn_line_bytes(const ns_game *g);

#endif
