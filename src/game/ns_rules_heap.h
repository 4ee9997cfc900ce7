/* ns_rules_heap.h - rule files of take-and-break heap games: a 'heap n'
 * statement instead of 'piles', and moves whose right side lists the heaps
 * a move leaves (data/rules/README.md, "Heap games"):
 *
 *   heap n
 *   move n -> (a, n - t - a)   for t in 1..2, a in 0..(n - t)/2     # Kayles
 *
 * Internal to the rule compiler (ns_rules.c calls it once the program is
 * elaborated): the game is a one-pile ns_game with g->octal of kind
 * NS_TB_RULE (game/ns_octal.h), whose options a runtime enumerates heap by
 * heap, so the sequence engine solves it. */
#ifndef NS_RULES_HEAP_H
#define NS_RULES_HEAP_H

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_rules_elab.h"
#include "game/ns_rules_info.h"
#include "game/ns_rules_lex.h"

/* Build the game of program *prog (prog->heap set), taken over (left
 * zeroed, also on failure); src is the rule text and its file name (the
 * game keeps a copy of the text). info, when not NULL, is filled as for
 * ns_rules_compile_info. On success *out owns the new game. */
ns_err ns_rules_heap_build(const ns_src *src, ns_rules_prog *prog, ns_game **out, ns_rules_info *info,
                           ns_error *err);

#endif
