/* ns_shipped_rules.c - see ns_shipped_rules.h */
#include "game/ns_shipped_rules.h"

#include <string.h>

const ns_rules_preset_map ns_rules_preset_maps[] = {
    {.file = "nim.rules", .preset = "nim", .params = {{"k", "piles"}}},
    {.file = "wythoff.rules", .preset = "wythoff"},
    {.file = "a-wythoff.rules", .preset = "a-wythoff"},
    {.file = "bash.rules", .preset = "bash"},
    {.file = "subtraction.rules", .preset = "subtraction", .params = {{"S", "set"}}},
    {.file = "moore.rules", .preset = "moore", .params = {{"n", "piles"}}},
    {.file = "staircase.rules", .preset = "staircase", .params = {{"k", "piles"}}},
    {.file = "euclid.rules", .preset = "euclid"},
    {.file = "fibonacci-nim.rules", .preset = "fibonacci-nim"},
    {.file = NULL},
};

const ns_rules_preset_map *ns_shipped_rules_preset(const char *text, const char **file_out)
{
    if (file_out)
        *file_out = NULL;
    if (!text)
        return NULL;
    for (const ns_shipped_rules_text *s = ns_shipped_rules_texts; s->file; s++) {
        if (strcmp(s->text, text) != 0)
            continue;
        for (const ns_rules_preset_map *m = ns_rules_preset_maps; m->file; m++)
            if (strcmp(m->file, s->file) == 0)
                return m;
        if (file_out)
            *file_out = s->file;
        return NULL;
    }
    return NULL;
}

ns_err ns_rules_preset_params(const ns_rules_preset_map *m, const ns_params *rule_ps, ns_params *out,
                              ns_error *err)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < rule_ps->n; i++) {
        const ns_param *p = &rule_ps->p[i];
        const char *name = p->name;
        for (int j = 0; j < NS_RULES_MAP_PARAMS && m->params[j][0]; j++)
            if (strcmp(m->params[j][0], p->name) == 0)
                name = m->params[j][1];
        ns_err rc = ns_params_set(out, name, p->v, p->n, err);
        if (rc)
            return rc;
    }
    return NS_OK;
}
