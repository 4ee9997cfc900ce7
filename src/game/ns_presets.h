/* ns_presets.h - built-in games, selectable by name.
 *
 * Each preset is a const descriptor in one NULL-terminated list. build()
 * turns parameters into an ns_game (bounds not yet set); the number of
 * coordinates may come from a parameter ("piles") or, when the caller gives
 * explicit bounds, from their count (k_hint > 0). */
#ifndef NS_PRESETS_H
#define NS_PRESETS_H

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_params.h"

typedef struct ns_preset {
    const char *name;        /* REQUIRED: e.g. "wythoff" */
    const char *summary;     /* REQUIRED: one line for --help */
    const char *params_help; /* REQUIRED: "a=2 (a >= 1)" or "" */
    /* REQUIRED: build the game; k_hint is the number of bounds the user gave
     * (0 = not given). Returns NULL and fills err on bad parameters. */
    ns_game *(*build)(const ns_params *ps, int k_hint, ns_error *err);
} ns_preset;

/* NULL-terminated list of all presets. */
extern const ns_preset *const ns_presets[];

/* Find by name; NULL if none. */
const ns_preset *ns_preset_find(const char *name);

/* Build preset name with params; the game records name and params. */
ns_game *ns_preset_build(const char *name, const ns_params *ps, int k_hint, ns_error *err);

#endif
