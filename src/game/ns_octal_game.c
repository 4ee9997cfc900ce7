/* ns_octal_game.c - the game of a take-and-break descriptor, and the
 * presets "octal" and "grundys-game" (see ns_octal.h). Apart from
 * ns_octal.c, which ns_game.c calls for the value bound. */
#include "game/ns_octal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ns_game *ns_octal_game_new(const char *name, const ns_octal *o, ns_error *err)
{
    ns_game *g = ns_game_new(name, 1);
    ns_octal *copy = malloc(sizeof *copy);
    if (!g || !copy) {
        ns_game_free(g);
        free(copy);
        ns_error_set(err, NS_ENOMEM, "out of memory");
        return NULL;
    }
    *copy = *o;
    if (ns_game_own(g, copy, free, err)) {
        ns_game_free(g);
        return NULL;
    }
    g->octal = copy;
    snprintf(g->coord_names[0], sizeof g->coord_names[0], "heap");
    return g;
}

static int one_heap(const char *name, int k_hint, ns_error *err)
{
    if (k_hint > 1) {
        ns_error_set(err, NS_EINVAL, "%s is a game of one heap size (a sum of heaps is the XOR of their values) but %d "
                     "bounds were given", name, k_hint);
        return -1;
    }
    return 0;
}

ns_game *ns_octal_build_preset(const ns_params *ps, int k_hint, ns_error *err)
{
    for (int i = 0; i < ps->n; i++)
        if (strcmp(ps->p[i].name, "code") != 0) {
            ns_error_set(err, NS_EINVAL, "octal has no parameter '%s' (expected -D code=0.77)", ps->p[i].name);
            return NULL;
        }
    if (one_heap("octal", k_hint, err))
        return NULL;
    const ns_param *p = ns_params_get(ps, "code");
    ns_octal o;
    if (!p) {
        ns_error_set(err, NS_EINVAL, "octal needs its code: expected -D code=d0.d1d2... such as -D code=0.77 (Kayles)");
        return NULL;
    }
    if (p->n != 0) {
        ns_error_set(err, NS_EINVAL, "octal code '%" PRId64 "%s': no '.': expected d0.d1d2... such as 0.77", p->v[0],
                     p->n > 1 ? ",..." : "");
        return NULL;
    }
    if (ns_octal_parse(p->text, &o, err))
        return NULL;
    return ns_octal_game_new("octal", &o, err);
}

ns_game *ns_grundys_game_build_preset(const ns_params *ps, int k_hint, ns_error *err)
{
    if (ps->n > 0) {
        ns_error_set(err, NS_EINVAL, "grundys-game has no parameter '%s'", ps->p[0].name);
        return NULL;
    }
    if (one_heap("grundys-game", k_hint, err))
        return NULL;
    ns_octal o;
    ns_octal_grundy(&o);
    return ns_octal_game_new("grundys-game", &o, err);
}
