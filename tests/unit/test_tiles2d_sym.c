/* test_tiles2d_sym.c - the two-pile Grundy kernel's symmetric path (square
 * box, moves along the row, the column and the diagonal: only x <= y is
 * computed, row x and column x share one set, values are mirrored) against
 * the general engine, cell for cell: Wythoff and two-pile Nim, normal and
 * misere, sizes below, at and across the tile size (128), 1 to 3 threads,
 * with the wide (AVX-512, where the processor has it) and the narrow mex
 * scans; and at N = 2100 (values past 3000, so a wide scan takes several
 * steps), wide against narrow cell for cell and the zeros against Wythoff's
 * P-positions (floor(k phi), floor(k phi) + k) in exact integers. */
#include <stdio.h>
#include <string.h>

#include "ns_params.h"
#include "ns_presets.h"
#include "ns_sieve.h"
#include "testutil.h"

static void check(const char *name, const char *params, int64_t n, int misere, int threads, int narrow)
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
    ns_sieve_opts o = {.threads = threads, .mex_narrow = narrow};
    CHECKF(strcmp(ns_sieve_kernel_name(g, &o), "tiles2d") == 0, "%s %lld: expected the tiles2d kernel, got %s", name, (long long)n,
           ns_sieve_kernel_name(g, &o));
    ns_table *a = ns_sieve_table_new(g, 0, &err), *r = ns_sieve_table_new(g, 0, &err);
    if (a && r && ns_sieve_run(g, a, &o, &err) == NS_OK && ns_sieve_run_general(g, r, &o, &err) == NS_OK) {
        uint64_t diff = 0;
        for (uint64_t i = 0; i < a->ncells; i++)
            diff += ns_table_get(a, i) != ns_table_get(r, i);
        CHECKF(diff == 0, "%s %s %lld^2%s, %d threads%s: %llu cells differ from the general engine", name, params,
               (long long)n, misere ? " misere" : "", threads, narrow ? ", narrow scans" : "",
               (unsigned long long)diff);
    } else {
        CHECKF(0, "%s: solve failed: %s", name, err.msg);
    }
    ns_table_free(a);
    ns_table_free(r);
    ns_game_free(g);
}

/* floor(k * phi) = floor((k + sqrt(5 k^2)) / 2), in integers */
static int64_t lower_wythoff(int64_t k)
{
    int64_t r = 0;
    while ((r + 1) * (r + 1) <= 5 * k * k)
        r++;
    return (k + r) / 2;
}

static void check_wide(int64_t n)
{
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = ns_preset_build("wythoff", &ps, 2, &err);
    CHECK(g != NULL);
    if (!g)
        return;
    int64_t b[2] = {n, n};
    CHECK(ns_game_set_bounds(g, b, &err) == NS_OK);
    ns_sieve_opts wide = {.threads = 2}, narrow = {.threads = 2, .mex_narrow = 1};
    ns_table *a = ns_sieve_table_new(g, 0, &err), *r = ns_sieve_table_new(g, 0, &err);
    if (a && r && ns_sieve_run(g, a, &wide, &err) == NS_OK && ns_sieve_run(g, r, &narrow, &err) == NS_OK) {
        uint64_t diff = 0, zeros = 0, pp = 0;
        uint32_t max = 0;
        for (uint64_t i = 0; i < a->ncells; i++) {
            const uint32_t v = ns_table_get(a, i);
            diff += v != ns_table_get(r, i);
            zeros += v == 0;
            max = v > max ? v : max;
        }
        CHECKF(diff == 0, "wythoff %lld^2: %llu cells differ between the wide and the narrow scans", (long long)n,
               (unsigned long long)diff);
        CHECKF(max > 3000, "wythoff %lld^2: largest value %u, expected past 3000", (long long)n, max);
        for (int64_t k = 0;; k++) {
            const int64_t x = lower_wythoff(k), y = x + k;
            if (y >= n)
                break;
            CHECKF(ns_table_get(a, (uint64_t)(x * n + y)) == 0 && ns_table_get(a, (uint64_t)(y * n + x)) == 0,
                   "wythoff: (%lld, %lld) should be a P-position", (long long)x, (long long)y);
            pp += k ? 2 : 1;
        }
        CHECKF(zeros == pp, "wythoff %lld^2: %llu zeros, expected the %llu P-positions", (long long)n,
               (unsigned long long)zeros, (unsigned long long)pp);
    } else {
        CHECKF(0, "wythoff %lld: solve failed: %s", (long long)n, err.msg);
    }
    ns_table_free(a);
    ns_table_free(r);
    ns_game_free(g);
}

int main(void)
{
    check_wide(2100);
    const int64_t sizes[] = {1, 2, 127, 128, 129, 300, 517};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int mis = 0; mis <= 1; mis++)
            for (int th = 1; th <= 3; th++) {
                check("wythoff", "", sizes[si], mis, th, th == 2);
                check("nim", "piles=2", sizes[si], mis, th, th == 2);
            }
    return TEST_REPORT();
}
