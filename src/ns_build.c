/* ns_build.c - see ns_build.h */
#include "ns_build.h"

#include <string.h>
#include <sys/stat.h>

#include "ns_presets.h"
#include "ns_rules.h"

static int looks_like_file(const char *spec)
{
    struct stat st;
    size_t n = strlen(spec);
    if (strchr(spec, '/') || (n > 6 && strcmp(spec + n - 6, ".rules") == 0))
        return 1;
    return stat(spec, &st) == 0 && S_ISREG(st.st_mode);
}

ns_err ns_game_build(const char *spec, const ns_params *ps, int k_hint, ns_game **out,
                     ns_error *err)
{
    *out = NULL;
    if (looks_like_file(spec))
        return ns_rules_compile_file(spec, ps, k_hint, out, err);
    ns_game *g = ns_preset_build(spec, ps, k_hint, err);
    if (!g)
        return err && err->code ? err->code : NS_EINVAL;
    *out = g;
    return NS_OK;
}

ns_err ns_game_from_meta(const ns_meta *m, int k, const int64_t *bounds, ns_game **out,
                         ns_error *err)
{
    ns_params ps = {0};
    ns_err rc = ns_params_parse_list(&ps, m->params, err);
    if (rc)
        return rc;
    ns_game *g = NULL;
    if (m->rules_text) {
        rc = ns_rules_compile(m->rules_text, "(rules stored in the file)", &ps, k, &g, err);
        if (rc)
            return rc;
    } else {
        g = ns_preset_build(m->game, &ps, k, err);
        if (!g)
            return err && err->code ? err->code : NS_EFORMAT;
    }
    if (g->k != k) {
        ns_game_free(g);
        return ns_error_set(err, NS_EFORMAT, "the file's game has %d piles but its table has %d dimensions", g->k, k);
    }
    g->play = m->play;
    rc = ns_game_set_bounds(g, bounds, err);
    if (rc) {
        ns_game_free(g);
        return rc;
    }
    *out = g;
    return NS_OK;
}
