/* ns_build.h - build a game from what the user names: a preset or a rule
 * file. (The game a table file was made from: ns_game_from_meta in
 * store/ns_h5.h.) */
#ifndef NS_BUILD_H
#define NS_BUILD_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_params.h"

/* spec is a preset name ("wythoff") or the path of a rule file (any spec
 * that contains '/' or ends in ".rules", or names an existing file). k_hint
 * as in ns_preset.build. Bounds are not set. */
ns_err ns_game_build(const char *spec, const ns_params *ps, int k_hint, ns_game **out,
                     ns_error *err);

#endif
