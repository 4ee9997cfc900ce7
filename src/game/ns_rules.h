/* ns_rules.h - the rule-set language: parse a text and compile it into an
 * ns_game (see data/rules/README.md for the grammar).
 *
 * Errors come back as "FILE:LINE:COL: what was found, what was expected". */
#ifndef NS_RULES_H
#define NS_RULES_H

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_params.h"

/* Compile rule text. fname names the source in messages. ps overrides the
 * file's parameter defaults; k_hint > 0 is the number of bounds the user
 * gave (for a pile count left to the command line). On success *out owns a
 * new game whose rules_text holds a copy of text and whose params hold the
 * values used; the caller frees it with ns_game_free. */
ns_err ns_rules_compile(const char *text, const char *fname, const ns_params *ps,
                        int k_hint, ns_game **out, ns_error *err);

/* Read path and compile it. */
ns_err ns_rules_compile_file(const char *path, const ns_params *ps, int k_hint,
                             ns_game **out, ns_error *err);

#endif
