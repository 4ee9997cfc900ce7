/* ns_meta.c - the game a table file was made from (see ns_h5.h) */
#include "store/ns_h5.h"

#include <stdio.h>

#include "game/ns_presets.h"
#include "game/ns_rules.h"

void ns_meta_game_label(const ns_meta *m, char *buf, size_t len)
{
    if (len == 0)
        return;
    if (!m->rules_text)
        snprintf(buf, len, "%s", m->game);
    else if (m->rules_file[0])
        snprintf(buf, len, "%s (rule file %s)", m->game, m->rules_file);
    else
        snprintf(buf, len, "%s (rule file)", m->game);
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
    /* ns_h5_read fills the mirrored cells of a symmetric game's table: its
     * readers see every cell as a position, with the moves as written */
    g->sym_whole = 1;
    rc = ns_game_set_bounds(g, bounds, err);
    if (rc) {
        ns_game_free(g);
        return rc;
    }
    *out = g;
    return NS_OK;
}
