/* fuzz_rules.c - libFuzzer target for the rule-set language.
 *
 * Each input is compiled as a rule file. When it compiles, the game gets a
 * small box (3 per pile) and the options of a few positions are enumerated,
 * which runs the evaluator, the general families and the domain. Any crash,
 * sanitizer report, or error message that does not start with the file
 * name is a failure. Built and run by tools/fuzz.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_game.h"
#include "game/ns_rules.h"

static int count(void *user, const int64_t *opt)
{
    (void)opt;
    (*(uint64_t *)user)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ns_params ps;
    memset(&ps, 0, sizeof ps);
    ns_error err;
    ns_error_clear(&err);
    ns_game *g = NULL;
    if (ns_rules_compile(text, "fuzz.rules", &ps, 0, &g, &err) != NS_OK) {
        /* every error is one line naming the file */
        if (strncmp(err.msg, "fuzz.rules", 10) != 0 || strchr(err.msg, '\n'))
            abort();
        free(text);
        return 0;
    }
    int64_t b[NS_MAX_DIM];
    for (int i = 0; i < g->k; i++)
        b[i] = 3;
    if (ns_game_set_bounds(g, b, &err) == NS_OK) {
        (void)ns_game_max_options(g);
        uint64_t cells = ns_game_cells(g), n = 0;
        /* the first position, the last, and one in between */
        uint64_t pick[3] = {0, cells - 1, cells / 2};
        for (int j = 0; j < 3; j++) {
            int64_t s[NS_MAX_DIM];
            uint64_t idx = pick[j];
            for (int d = g->k - 1; d >= 0; d--) {
                s[d] = (int64_t)(idx % 3);
                idx /= 3;
            }
            if (ns_game_is_position(g, s))
                (void)ns_game_foreach_option(g, s, count, &n, &err);
        }
    }
    ns_game_free(g);
    free(text);
    return 0;
}
