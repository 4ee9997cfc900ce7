/* ns_rules.c - placeholder until the rule-set language lands (issue 3). */
#include "ns_rules.h"

#include <stddef.h>

ns_err ns_rules_compile(const char *text, const char *fname, const ns_params *ps,
                        int k_hint, ns_game **out, ns_error *err)
{
    (void)text; (void)ps; (void)k_hint;
    *out = NULL;
    return ns_error_set(err, NS_EINVAL, "%s: rule files are not supported yet", fname);
}

ns_err ns_rules_compile_file(const char *path, const ns_params *ps, int k_hint,
                             ns_game **out, ns_error *err)
{
    return ns_rules_compile(NULL, path, ps, k_hint, out, err);
}
