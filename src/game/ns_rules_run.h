/* ns_rules_run.h - the rule-set language at run time: general move
 * families enumerated per position, the domain test, option-count bounds.
 *
 * A runtime owns the elaborated program and is owned by the game it serves
 * (ns_game_own). Its callbacks only read it, with all evaluation state on
 * the stack, so the sieve may call them from many threads at once. */
#ifndef NS_RULES_RUN_H
#define NS_RULES_RUN_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_rules_elab.h"

typedef struct ns_rules_rt ns_rules_rt;

/* Create a runtime that takes over *prog (left zeroed) and copies fname.
 * Returns NULL when memory is short. Free with ns_rules_rt_free (or hand it
 * to the game with ns_game_own(g, rt, ns_rules_rt_free, ...)). */
ns_rules_rt *ns_rules_rt_new(ns_rules_prog *prog, const char *fname);
void ns_rules_rt_free(void *rt);

/* The program (mutable until the game is complete: classification may add
 * expression nodes). */
ns_rules_prog *ns_rules_rt_prog(ns_rules_rt *rt);

/* Serve game g (borrowed: it owns rt): messages quote g->rules_text, the
 * checks use its bounds, rank and domain. */
void ns_rules_rt_attach(ns_rules_rt *rt, const ns_game *g);

/* Add family fam of the program (neither a ray nor a finite set) to g
 * with a bound on its options: as a prefix family when ns_rules_prefix_of
 * (ns_rules_classify.h) accepts it, else as a general family. */
ns_err ns_rules_rt_add_general(ns_rules_rt *rt, ns_game *g, int fam, const char *label, ns_error *err);

/* After the last family: compile the expressions evaluated at run time to
 * bytecode (those beyond the code limit keep the tree evaluator). */
ns_err ns_rules_rt_finish(ns_rules_rt *rt, ns_error *err);

/* ns_valid_fn for the program's domain (ctx: the runtime). A position where
 * a domain condition cannot be evaluated (overflow) is not in the domain. */
int ns_rules_rt_valid(const void *ctx, int k, const int64_t *s);

#endif
