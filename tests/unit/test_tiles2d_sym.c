/* test_tiles2d_sym.c - the two-pile Grundy kernel (tiles2d) and its three
 * ways to find a cell's mex (ns_mex_method: the summaries of full words,
 * the default; the scan, AVX-512 where the processor has it; the scan four
 * words a step) against the general engine, cell for cell:
 *   - the symmetric path (square box, moves along the row, the column and
 *     the diagonal: only x <= y is computed, row x and column x share one
 *     set, values are mirrored): Wythoff and two-pile Nim, normal and
 *     misere, sizes below, at and across the tile size (128), 1 to 3
 *     threads, every method;
 *   - the plain path with three sets (Wythoff in rectangles), two (two-pile
 *     Nim in a rectangle) and five (the rule file wythoff-twice.rules: the
 *     general summary mex over any number of sets);
 *   - Wythoff at N = 4500: values past 6000, so a scan takes several
 *     32-word steps and the summaries span two words; the three methods
 *     and the general engine (whose line records widen from 128 values to
 *     8192 on the way, rebuilt each time) agree cell for cell, and the
 *     zeros are exactly Wythoff's P-positions
 *     (floor(k phi), floor(k phi) + k), in exact integers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_build.h"
#include "game/ns_params.h"
#include "engine/ns_engine.h"
#include "testutil.h"
#include "tsolve.h"

static const char *const method_name[] = {"summaries", "scan", "narrow scan"};

static ns_game *load(const char *spec, const char *params, int64_t n0, int64_t n1, int misere)
{
    ns_error err = {0};
    ns_params ps = {0};
    char path[1024];
    if (strchr(spec, '.')) {
        const char *src = getenv("NS_SOURCE_DIR");
        snprintf(path, sizeof path, "%s/data/rules/%s", src ? src : ".", spec);
        spec = path;
    }
    CHECK(ns_params_parse_list(&ps, params, &err) == NS_OK);
    ns_game *g = NULL;
    CHECKF(ns_game_build(spec, &ps, 2, &g, &err) == NS_OK, "%s: %s", spec, err.msg);
    if (!g)
        return NULL;
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    int64_t b[2] = {n0, n1};
    CHECK(ns_game_set_bounds(g, b, &err) == NS_OK);
    return g;
}

static void check(const char *name, const char *params, int64_t n0, int64_t n1, int misere, int threads,
                  ns_mex_method method)
{
    ns_error err = {0};
    ns_game *g = load(name, params, n0, n1, misere);
    if (!g)
        return;
    ns_engine_opts o = {.threads = threads, .mex_scan = method};
    CHECKF(strcmp(ns_test_engine_name(g, &o), "tiles2d") == 0, "%s %lld: expected the tiles2d kernel, got %s", name,
           (long long)n0, ns_test_engine_name(g, &o));
    ns_table *a = ns_engine_table_new(g, 0, &err), *r = ns_engine_table_new(g, 0, &err);
    if (a && r && ns_engine_run(g, a, &o, &err) == NS_OK && ns_engine_run_with(ns_engine_find("general"), g, r, &o, &err) == NS_OK) {
        uint64_t diff = 0;
        for (uint64_t i = 0; i < a->ncells; i++)
            diff += ns_table_get(a, i) != ns_table_get(r, i);
        CHECKF(diff == 0, "%s %s %lldx%lld%s, %d threads, %s: %llu cells differ from the general engine", name, params,
               (long long)n0, (long long)n1, misere ? " misere" : "", threads, method_name[method],
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

static void check_methods(int64_t n)
{
    ns_error err = {0};
    ns_game *g = load("wythoff", "", n, n, 0);
    if (!g)
        return;
    /* t[0..2]: tiles2d with each method; t[3]: the general engine */
    ns_table *t[4] = {0};
    int ok = 1;
    for (int m = 0; m < 4; m++) {
        ns_engine_opts o = {.threads = 2, .mex_scan = (ns_mex_method)(m % 3)};
        t[m] = ns_engine_table_new(g, 0, &err);
        ok = ok && t[m] && (m < 3 ? ns_engine_run(g, t[m], &o, &err) : ns_engine_run_with(ns_engine_find("general"), g, t[m], &o, &err)) == NS_OK;
    }
    if (ok) {
        uint64_t diff[4] = {0}, zeros = 0, pp = 0;
        uint32_t max = 0;
        for (uint64_t i = 0; i < t[0]->ncells; i++) {
            const uint32_t v = ns_table_get(t[0], i);
            for (int m = 1; m < 4; m++)
                diff[m] += v != ns_table_get(t[m], i);
            zeros += v == 0;
            max = v > max ? v : max;
        }
        for (int m = 1; m < 4; m++)
            CHECKF(diff[m] == 0, "wythoff %lld^2: %llu cells differ between the %s and the %s", (long long)n,
                   (unsigned long long)diff[m], method_name[0], m < 3 ? method_name[m] : "general engine");
        CHECKF(max > 6000, "wythoff %lld^2: largest value %u, expected past 6000", (long long)n, max);
        for (int64_t k = 0;; k++) {
            const int64_t x = lower_wythoff(k), y = x + k;
            if (y >= n)
                break;
            CHECKF(ns_table_get(t[0], (uint64_t)(x * n + y)) == 0 && ns_table_get(t[0], (uint64_t)(y * n + x)) == 0,
                   "wythoff: (%lld, %lld) should be a P-position", (long long)x, (long long)y);
            pp += k ? 2 : 1;
        }
        CHECKF(zeros == pp, "wythoff %lld^2: %llu zeros, expected the %llu P-positions", (long long)n,
               (unsigned long long)zeros, (unsigned long long)pp);
    } else {
        CHECKF(0, "wythoff %lld: solve failed: %s", (long long)n, err.msg);
    }
    for (int m = 0; m < 4; m++)
        ns_table_free(t[m]);
    ns_game_free(g);
}

int main(void)
{
    check_methods(4500);
    const int64_t sizes[] = {1, 2, 127, 128, 129, 300, 517};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int mis = 0; mis <= 1; mis++)
            for (int th = 1; th <= 3; th++)
                for (int m = 0; m < 3; m++) {
                    check("wythoff", "", sizes[si], sizes[si], mis, th, (ns_mex_method)m);
                    check("nim", "piles=2", sizes[si], sizes[si], mis, th, (ns_mex_method)m);
                }
    for (int m = 0; m < 3; m++)
        for (int mis = 0; mis <= 1; mis++) {
            check("wythoff", "", 300, 517, mis, 1 + m, (ns_mex_method)m);
            check("wythoff", "", 129, 40, mis, 3 - m, (ns_mex_method)m);
            check("nim", "piles=2", 200, 333, mis, 2, (ns_mex_method)m);
            check("wythoff-twice.rules", "", 400, 400, mis, 1 + m, (ns_mex_method)m);
            check("wythoff-twice.rules", "", 130, 300, mis, 2, (ns_mex_method)m);
        }
    return TEST_REPORT();
}
