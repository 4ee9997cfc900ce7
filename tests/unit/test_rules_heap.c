/* test_rules_heap.c - rule files of take-and-break heap games ('heap n',
 * game/ns_rules_heap.c) solved by the sequence engine.
 *
 * References: a naive solver written here (each rule's moves spelled out
 * as the heaps they leave, values by recursion over smaller heaps), the
 * OEIS terms of Kayles (A002186) and Grundy's game (A002188), and the
 * presets (octal 0.77, grundys-game). Bad heap rule files must fail with
 * one message naming what was expected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_octal.h"
#include "game/ns_params.h"
#include "game/ns_rules.h"
#include "game/ns_rules_info.h"
#include "tsolve.h"
#include "testutil.h"

static char *read_rules(const char *name)
{
    const char *src = getenv("NS_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/data/rules/%s", src ? src : ".", name);
    char *text = NULL;
    ns_error err = {0};
    if (ns_rules_read_file(path, &text, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    return text;
}

/* ---- naive: G(0..n-1) of a game given by its list of options ---- */

typedef enum { G_KAYLES, G_GRUNDY, G_CLOSE } naive_game;

static int *naive(naive_game which, int64_t d, int64_t k, int n)
{
    int *g = calloc((size_t)n, sizeof *g);
    char *seen = malloc((size_t)n + 2);
    for (int h = 0; h < n; h++) {
        memset(seen, 0, (size_t)n + 2);
        for (int a = 0; a <= h; a++)
            for (int b = a; a + b <= h; b++) {
                const int t = h - a - b; /* tokens taken; a <= b the heaps left */
                int ok = 0;
                if (which == G_KAYLES)
                    ok = t == 1 || t == 2;
                else if (which == G_GRUNDY)
                    ok = t == 0 && a >= 1 && a < b;
                else
                    ok = (t == 0 && a >= 1 && b - a <= d) || (a == 0 && t >= 1 && t <= k);
                if (ok && (g[a] ^ g[b]) <= n)
                    seen[g[a] ^ g[b]] = 1;
            }
        int v = 0;
        while (seen[v])
            v++;
        g[h] = v;
    }
    free(seen);
    return g;
}

static ns_table *solve_text(const char *text, const char *params, int64_t n, int threads, ns_game **gout)
{
    ns_params ps = {0};
    ns_error err = {0};
    ns_game *g = NULL;
    if (params[0] && ns_params_parse_list(&ps, params, &err)) {
        fprintf(stderr, "params %s: %s\n", params, err.msg);
        return NULL;
    }
    if (ns_rules_compile(text, "(test)", &ps, 1, &g, &err)) {
        fprintf(stderr, "compile: %s\n", err.msg);
        return NULL;
    }
    ns_table *t = ns_tsolve_built(g, &n, 0, 0, threads, &err);
    if (!t)
        fprintf(stderr, "solve: %s\n", err.msg);
    if (gout)
        *gout = g;
    else
        ns_game_free(g);
    return t;
}

static int same_as(const ns_table *t, const int *ref, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (ns_table_get(t, (uint64_t)i) != (uint32_t)ref[i]) {
            fprintf(stderr, "%s: G(%d) = %u, expected %d\n", what, i, ns_table_get(t, (uint64_t)i), ref[i]);
            return 0;
        }
    return 1;
}

static void test_presets(void)
{
    static const int A002186[] = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7};
    static const int A002188[] = {0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0};
    const int n = 600;
    for (int w = 0; w < 2; w++) {
        char *text = read_rules(w == 0 ? "kayles.rules" : "grundys-game.rules");
        CHECK(text != NULL);
        if (!text)
            continue;
        int *ref = naive(w == 0 ? G_KAYLES : G_GRUNDY, 0, 0, n);
        const int64_t b = n;
        ns_table *p = w == 0 ? ns_tsolve("octal", "code=0.77", 1, &b, 0, 0, 2)
                             : ns_tsolve("grundys-game", "", 1, &b, 0, 0, 2);
        CHECK(p != NULL);
        for (int threads = 1; threads <= 3; threads++) {
            ns_game *g = NULL;
            ns_table *t = solve_text(text, "", n, threads, &g);
            CHECK(t != NULL);
            if (!t)
                continue;
            CHECK(g->octal && g->octal->kind == NS_TB_RULE);
            CHECK(same_as(t, ref, n, w == 0 ? "kayles.rules vs naive" : "grundys-game.rules vs naive"));
            CHECK(same_as(t, w == 0 ? A002186 : A002188, 24, "against OEIS"));
            if (p)
                CHECK(memcmp(t->data, p->data, (size_t)n * (size_t)t->elem) == 0 && t->elem == p->elem);
            ns_table_free(t);
            ns_game_free(g);
        }
        ns_table_free(p);
        free(ref);
        free(text);
    }
}

static void test_split_close(void)
{
    char *text = read_rules("split-close.rules");
    CHECK(text != NULL);
    if (!text)
        return;
    const int n = 500;
    for (int d = 0; d <= 4; d++)
        for (int k = 0; k <= 2; k++) {
            char params[64];
            snprintf(params, sizeof params, "d=%d;k=%d", d, k);
            int *ref = naive(G_CLOSE, d, k, n);
            ns_table *t = solve_text(text, params, n, 2, NULL);
            CHECK(t != NULL);
            if (t)
                CHECK(same_as(t, ref, n, params));
            ns_table_free(t);
            free(ref);
        }
    /* the default: d = 2, k = 0 */
    int *ref = naive(G_CLOSE, 2, 0, n);
    ns_table *t = solve_text(text, "", n, 1, NULL);
    CHECK(t && same_as(t, ref, n, "split-close defaults"));
    ns_table_free(t);
    free(ref);
    free(text);
}

/* the bound on the options (it sizes the table's cells) holds */
static int count_one(void *u, int64_t take, const int64_t *parts, int np)
{
    (void)take, (void)parts, (void)np;
    ++*(uint64_t *)u;
    return 0;
}

static void test_bound(void)
{
    char *text = read_rules("kayles.rules");
    ns_game *g = NULL;
    ns_error err = {0};
    CHECK(text && ns_rules_compile(text, "kayles.rules", NULL, 1, &g, &err) == NS_OK);
    if (g) {
        for (int64_t n = 1; n < 200; n += 7) {
            uint64_t most = 0;
            for (int64_t h = 0; h < n; h++) {
                uint64_t c = 0;
                CHECK(ns_octal_foreach_option(g->octal, h, count_one, &c, &err) == 0);
                most = c > most ? c : most;
            }
            CHECK(ns_octal_max_options(g->octal, n) >= most);
        }
    }
    ns_game_free(g);
    free(text);
}

/* compile-time and run-time errors: one message naming what was expected */
static void bad(const char *text, const char *want, int64_t n)
{
    ns_game *g = NULL;
    ns_error err = {0};
    ns_err rc = ns_rules_compile(text, "bad.rules", NULL, 1, &g, &err);
    if (rc == NS_OK) {
        ns_table *t = ns_tsolve_built(g, &n, 0, 0, 2, &err);
        CHECK(t == NULL);
        ns_table_free(t);
        ns_game_free(g);
    }
    if (!strstr(err.msg, want) || strchr(err.msg, '\n')) {
        fprintf(stderr, "for:\n%s\nexpected a message with '%s', got '%s'\n", text, want, err.msg);
        CHECK(0);
    }
}

static void test_errors(void)
{
    bad("heap n\nmove n -> (n, 0) for a in 1..1\n", "bad.rules:2:12: the move leaves a heap of 1: every heap a move "
        "leaves must be smaller than the heap it came from (0 to 0; 0 is no heap) at heap 1 (a = 1)", 10);
    bad("heap n\nmove n -> (a, a) for a in 1..n - 1\n", "the move leaves 4 tokens, more than the heap's 3", 10);
    bad("heap n\nmove n -> (a, n / (a - 1)) for a in 1..n - 1\n", "bad.rules:2:17: division by zero at heap 2 (a = 1)",
        10);
    bad("heap n\nrank n\nmove n -> n - 1 for t in 1..1 where n >= 1\n", "bad.rules:2:6: a heap game has no 'rank'", 5);
    bad("heap n\nheap m\nmove n -> n - 1 for t in 1..1\n", "bad.rules:2:1: a second 'heap' statement", 5);
    bad("heap n m\nmove n -> n - 1 for t in 1..1\n", "'heap' declares one heap by its name", 5);
    bad("heap n\nplay misere\nmove n -> n - 1 for t in 1..1 where n >= 1\n", "normal play only", 5);
    bad("heap n\nmove n -> (1, 1, 1, 1, 1, 1, 1, 1, 1) for t in 1..1\n", "leaves 1 to 8 heaps, found 9", 5);
    bad("piles n\nmove n -> (a, n - a) for a in 1..n/2\n", "wrong arity", 5);
}

int main(void)
{
    test_presets();
    test_split_close();
    test_bound();
    test_errors();
    return TEST_REPORT();
}
