/* tsolve.h - solve a preset with the engine in one call, for the tests. */
#ifndef NS_TEST_TSOLVE_H
#define NS_TEST_TSOLVE_H

#include <stdint.h>

#include "game/ns_game.h"
#include "game/ns_table.h"

/* Build preset name with the parameters in params_text ("a=2;set=1,3,4",
 * "" for none), set bounds (k values), play (misere != 0), and fill a new
 * table by ns_engine_run with the given threads (<= 0: default) and pn_only.
 * Returns the table (caller frees with ns_table_free) or NULL after
 * printing the error to stderr prefixed by the preset name. */
ns_table *ns_tsolve(const char *name, const char *params_text, int k, const int64_t *bounds,
                    int misere, int pn_only, int threads);

/* The same, but also hands back the game (caller frees it with
 * ns_game_free) for calls such as ns_naive_cell. *game is NULL on failure. */
ns_table *ns_tsolve_game(const char *name, const char *params_text, int k, const int64_t *bounds,
                         int misere, int pn_only, int threads, ns_game **game);

/* Build preset name with params_text ("piles=3;k=2", "" for none) for k
 * coordinates (0: the preset's own count) and set its bounds. NULL after
 * printing the error. */
ns_game *ns_tbuild(const char *name, const char *params_text, int k, const int64_t *bounds);

/* Build preset name with params_text ("code=0.77", "" for none) and one
 * bound n (one-pile games, heap games). NULL after printing the error. */
ns_game *ns_tbuild1(const char *name, const char *params_text, int64_t n);

/* A heap game: preset (octal, grundys-game, ..) with "code=CODE" as its
 * parameters (code NULL: none), written into params (for messages), and
 * one bound n: ns_tbuild1's game, NULL after printing the error. */
ns_game *ns_tbuild_code(const char *preset, const char *code, int64_t n, char params[32]);

/* Name of the engine ns_engine_run picks for g and o. */
struct ns_engine_opts;
const char *ns_test_engine_name(const ns_game *g, const struct ns_engine_opts *o);

/* Solve a game built elsewhere (a rule file: borrowed, not freed): set
 * the play (misere != 0) and the bounds (k = g->k values), then fill a new
 * table as ns_tsolve does. Returns the table (caller frees) or NULL with
 * the error in *err (nothing printed). */
ns_table *ns_tsolve_built(ns_game *g, const int64_t *bounds, int misere, int pn_only, int threads, ns_error *err);
/* Compile the rule text (no -D parameters), set bounds (k values) and play,
 * and fill a new table with the engine as above. *game (OPTIONAL, may be
 * NULL) gets the game (caller frees). NULL after printing the error. */
ns_table *ns_tsolve_rules(const char *text, int k, const int64_t *bounds, int misere, int pn_only,
                          int threads, ns_game **game);

/* Fill a new table for g (its bounds) with the engine named engine and the
 * options o: cells of elem bytes, or (elem 0) the engine's own table (a
 * sequence's starts at one byte and widens). NULL after printing the error
 * prefixed by the game's name. */
ns_table *ns_trun_engine(const ns_game *g, const char *engine, int elem, const struct ns_engine_opts *o);

/* 3-pile Nim's table t (bounds b): how many cells with s0 + s1 + s2 < below
 * (UINT64_MAX: every cell) differ from Bouton's s0 ^ s1 ^ s2; 0 for NULL. */
uint64_t ns_tnim3_bad(const ns_table *t, const int64_t b[3], uint64_t below);

/* The first i < n where t's cell i differs from ref[i], -1 when none. */
int64_t ns_tfirst_diff(const ns_table *t, const uint32_t *ref, int64_t n);

/* ns_trun_engine, then ns_tfirst_diff against ref (n values): the table
 * (NULL when the run failed; caller frees), why "" when it equals ref,
 * else a line saying what went wrong (the run, or the first value that
 * differs). Nothing printed but ns_trun_engine's error. */
ns_table *ns_trun_compare(const ns_game *g, const char *engine, int elem, const struct ns_engine_opts *o,
                          const uint32_t *ref, int64_t n, char why[128]);

#endif
