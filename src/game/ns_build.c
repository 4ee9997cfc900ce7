/* ns_build.c - see ns_build.h */
#include "game/ns_build.h"

#include <string.h>
#include <sys/stat.h>

#include "game/ns_presets.h"
#include "game/ns_rules.h"

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
