/* ns_octal.h - take-and-break heap games: octal and hexadecimal codes
 * (Guy and Smith 1956), and Grundy's game.
 *
 * A position is a sum of heaps; its value is the XOR of the heaps' values,
 * so the whole game is one Grundy sequence G(0), G(1), ... over the heap
 * size. Such a game is an ns_game of one pile (the heap size) with no move
 * families and g->octal set: its options are sums of heaps, which the pile
 * families cannot express, so only the sequence engine
 * (engine/ns_sequence.c) solves it; the other engines refuse it.
 *
 * Codes (Guy-Smith notation) d0.d1d2...dk: digit d_t (0-9, a-f) says what
 * removing t tokens from one heap may leave, by its bits:
 *   1: no heap (t is the whole heap),  2: one non-empty heap,
 *   4: two non-empty heaps,            8: three non-empty heaps
 * (a digit above 7 makes the code hexadecimal). d0 is taking no tokens:
 * only splitting makes sense there, so it may use bits 4 and 8 only; it
 * may be left out (".77" is "0.77"). The code is finite: repeating
 * digits ("0.(7)", "0.7...") are not accepted yet. Trailing zeros do not
 * count: tmax is the last non-zero digit.
 *
 * Grundy's game: split one heap into two non-empty heaps of different
 * sizes (no digits).
 *
 * Rule files with a 'heap' statement (data/rules/README.md) give
 * NS_TB_RULE: their moves are enumerated by the rule's compiled code. */
#ifndef NS_OCTAL_H
#define NS_OCTAL_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_params.h"

#define NS_OCTAL_MAX_DIGITS 64 /* d_0 .. d_63 */

typedef enum { NS_TB_CODE = 0, NS_TB_GRUNDY = 1, NS_TB_RULE = 2 } ns_tb_kind;

#define NS_HEAP_MAX_PARTS 8 /* most heaps one move may leave (rule files) */

/* One option of a heap of n: take tokens go, the heaps parts[0 .. np)
 * (non-empty, in increasing order) stay. Return non-zero to stop. */
typedef int (*ns_heap_opt_fn)(void *user, int64_t take, const int64_t *parts, int np);

/* A rule file's split moves (game/ns_rules_heap.c): call fn on every
 * option of a heap of n. Returns 0, 1 when fn stopped it, or -1 with err
 * set (a run-time fault of the rule: a part outside [0, n), a division by
 * zero, ...). Safe from many threads at once. */
typedef int (*ns_heap_rule_fn)(const void *rule, int64_t n, ns_heap_opt_fn fn, void *user, ns_error *err);

typedef struct ns_octal {
    ns_tb_kind kind;
    char code[NS_PARAM_TEXT_LEN]; /* canonical code "0.77" (lower case, no
                                     trailing zeros), or "grundy" */
    int tmax;                     /* last t with d[t] != 0 (0 when none) */
    uint8_t d[NS_OCTAL_MAX_DIGITS];/* d[t]: bits 1, 2, 4, 8 as above */
    int max_heaps;                /* most heaps one move leaves: 0..3
                                     (rule files: up to NS_HEAP_MAX_PARTS) */
    /* NS_TB_RULE only: the compiled split moves of a rule file (borrowed:
     * the game owns them), and a bound on the options of a heap of n */
    const void *rule;
    ns_heap_rule_fn rule_options;
    uint64_t (*rule_max_options)(const void *rule, int64_t n);
} ns_octal;

/* Parse a code. On error, one line naming the code, the character and its
 * 1-based position, and what was expected. */
ns_err ns_octal_parse(const char *text, ns_octal *out, ns_error *err);

/* Grundy's game's descriptor. */
void ns_octal_grundy(ns_octal *out);

/* An upper bound on the number of options of any heap smaller than n (so
 * on any of their Grundy values), saturated at UINT64_MAX / 4. */
uint64_t ns_octal_max_options(const ns_octal *o, int64_t n);

/* Every option of a heap of n, in a fixed order (codes: by tokens taken,
 * then by the smallest part; rule files: as the file enumerates them).
 * Returns 0, 1 when fn stopped, -1 with err set (rule files only). */
int ns_octal_foreach_option(const ns_octal *o, int64_t n, ns_heap_opt_fn fn, void *user, ns_error *err);

/* A one-pile game named name with a copy of *o as its descriptor (owned by
 * the game). Bounds are not set. NULL with err set on no memory. */
ns_game *ns_octal_game_new(const char *name, const ns_octal *o, ns_error *err);

/* The presets (ns_presets.c): "octal" with -D code=..., "grundys-game". */
ns_game *ns_octal_build_preset(const ns_params *ps, int k_hint, ns_error *err);
ns_game *ns_grundys_game_build_preset(const ns_params *ps, int k_hint, ns_error *err);

#endif
