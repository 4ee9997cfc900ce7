/* ns_build.h - build a game from what the user names: a preset or a rule
 * file, or from the metadata stored in a table file. */
#ifndef NS_BUILD_H
#define NS_BUILD_H

#include <stdint.h>

#include "ns_error.h"
#include "ns_game.h"
#include "ns_h5.h"
#include "ns_params.h"

/* spec is a preset name ("wythoff") or the path of a rule file (any spec
 * that contains '/' or ends in ".rules", or names an existing file). k_hint
 * as in ns_preset.build. Bounds are not set. */
ns_err ns_game_build(const char *spec, const ns_params *ps, int k_hint, ns_game **out,
                     ns_error *err);

/* Rebuild the game a table file was made from (preset + params, or the
 * stored rule text + params), with its play convention and bounds. */
ns_err ns_game_from_meta(const ns_meta *m, int k, const int64_t *bounds, ns_game **out,
                         ns_error *err);

#endif
