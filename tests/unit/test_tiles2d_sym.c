/* test_tiles2d_sym.c - the two-pile Grundy kernel's symmetric path (square
 * box, moves along the row, the column and the diagonal: only x <= y is
 * computed, row x and column x share one set, values are mirrored) against
 * the general engine, cell for cell: Wythoff and two-pile Nim, normal and
 * misere, sizes below, at and across the tile size (128), 1 to 3 threads. */
#include <stdio.h>
#include <string.h>

#include "ns_params.h"
#include "ns_presets.h"
#include "ns_sieve.h"
#include "testutil.h"

static void check(const char *name, const char *params, int64_t n, int misere, int threads)
{
    ns_error err = {0};
    ns_params ps = {0};
    CHECK(ns_params_parse_list(&ps, params, &err) == NS_OK);
    ns_game *g = ns_preset_build(name, &ps, 2, &err);
    CHECK(g != NULL);
    if (!g)
        return;
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    int64_t b[2] = {n, n};
    CHECK(ns_game_set_bounds(g, b, &err) == NS_OK);
    ns_sieve_opts o = {.threads = threads};
    CHECKF(strcmp(ns_sieve_kernel_name(g, &o), "tiles2d") == 0, "%s %lld: expected the tiles2d kernel, got %s", name, (long long)n,
           ns_sieve_kernel_name(g, &o));
    ns_table *a = ns_sieve_table_new(g, 0, &err), *r = ns_sieve_table_new(g, 0, &err);
    if (a && r && ns_sieve_run(g, a, &o, &err) == NS_OK && ns_sieve_run_general(g, r, &o, &err) == NS_OK) {
        uint64_t diff = 0;
        for (uint64_t i = 0; i < a->ncells; i++)
            diff += ns_table_get(a, i) != ns_table_get(r, i);
        CHECKF(diff == 0, "%s %s %lld^2%s, %d threads: %llu cells differ from the general engine", name, params,
               (long long)n, misere ? " misere" : "", threads, (unsigned long long)diff);
    } else {
        CHECKF(0, "%s: solve failed: %s", name, err.msg);
    }
    ns_table_free(a);
    ns_table_free(r);
    ns_game_free(g);
}

int main(void)
{
    const int64_t sizes[] = {1, 2, 127, 128, 129, 300, 517};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int mis = 0; mis <= 1; mis++)
            for (int th = 1; th <= 3; th++) {
                check("wythoff", "", sizes[si], mis, th);
                check("nim", "piles=2", sizes[si], mis, th);
            }
    return TEST_REPORT();
}
