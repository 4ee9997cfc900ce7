/* test_rules_presets.c - every rule file in data/rules compiles; each one
 * that has a built-in preset gives the preset's table bit for bit (Grundy
 * and P/N, normal and misere play, several parameters and boxes); the
 * variant wythoff-twice equals a naive solver written here from its
 * rules; the files' families have the expected classes (Wythoff's are
 * rays); the stored rule text and parameters rebuild the same game; the
 * preset `check` recognises each file as (game/ns_shipped_rules.h, with its
 * parameter mapping) gives the same tables, and the built-in texts are the
 * files. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_check.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "game/ns_rules.h"
#include "engine/ns_engine.h"
#include "game/ns_shipped_rules.h"
#include "testutil.h"
#include "tsolve.h"

static char srcdir[4096];

static void rule_path(const char *file, char *buf, size_t len)
{
    snprintf(buf, len, "%s/data/rules/%s", srcdir, file);
}

static ns_game *load(const char *file, const char *params, int k_hint)
{
    char path[4200];
    ns_params ps = {0};
    ns_error err = {0};
    ns_game *g = NULL;
    rule_path(file, path, sizeof path);
    if (ns_params_parse_list(&ps, params, &err) || ns_rules_compile_file(path, &ps, k_hint, &g, &err)) {
        fprintf(stderr, "%s [%s]: %s\n", file, params, err.msg);
        return NULL;
    }
    return g;
}

/* Solve g (bounds already set or given) with play and kind; NULL on error. */
static ns_table *solve(ns_game *g, const int64_t *bounds, int misere, int pn_only)
{
    ns_error err = {0};
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    if (ns_game_set_bounds(g, bounds, &err)) {
        fprintf(stderr, "set_bounds: %s\n", err.msg);
        return NULL;
    }
    ns_table *t = ns_engine_table_new(g, pn_only, &err);
    if (!t) {
        fprintf(stderr, "table: %s\n", err.msg);
        return NULL;
    }
    ns_engine_opts opts = {.threads = 2, .pn_only = pn_only};
    if (ns_engine_run(g, t, &opts, &err)) {
        fprintf(stderr, "sieve: %s\n", err.msg);
        ns_table_free(t);
        return NULL;
    }
    return t;
}

typedef struct pcase {
    const char *file, *rparams;     /* rule file and its parameters */
    int k_hint;                     /* bounds given (0: the file's pile count) */
    const char *preset, *pparams;
    int k;
    int64_t bounds[NS_MAX_DIM];
} pcase;

static const pcase cases[] = {
    {"nim.rules", "", 0, "nim", "", 3, {7, 9, 6}},
    {"nim.rules", "k=1", 0, "nim", "piles=1", 1, {25}},
    {"nim.rules", "k=2", 0, "nim", "piles=2", 2, {30, 21}},
    {"nim.rules", "", 4, "nim", "piles=4", 4, {5, 4, 6, 3}},
    {"wythoff.rules", "", 0, "wythoff", "", 2, {40, 40}},
    {"wythoff.rules", "", 2, "wythoff", "", 2, {17, 45}},
    {"wythoff.rules", "", 0, "wythoff", "", 2, {300, 70}},
    {"a-wythoff.rules", "", 0, "a-wythoff", "", 2, {40, 40}},
    {"a-wythoff.rules", "a=1", 0, "a-wythoff", "a=1", 2, {30, 33}},
    {"a-wythoff.rules", "a=3", 0, "a-wythoff", "a=3", 2, {35, 28}},
    {"a-wythoff.rules", "a=5", 0, "a-wythoff", "a=5", 2, {25, 19}},
    {"bash.rules", "", 0, "bash", "", 1, {60}},
    {"bash.rules", "m=1", 0, "bash", "m=1", 1, {20}},
    {"bash.rules", "m=7", 0, "bash", "m=7", 1, {61}},
    {"subtraction.rules", "", 0, "subtraction", "", 1, {80}},
    {"subtraction.rules", "S=2,5,6", 0, "subtraction", "set=2,5,6", 1, {70}},
    {"subtraction.rules", "S=16,1,8,2,4", 0, "subtraction", "set=16,1,8,2,4", 1, {100}},
    {"moore.rules", "", 0, "moore", "", 3, {6, 7, 5}},
    {"moore.rules", "n=2;k=2", 0, "moore", "piles=2;k=2", 2, {15, 12}},
    {"moore.rules", "n=3;k=1", 0, "moore", "piles=3;k=1", 3, {6, 6, 6}},
    {"moore.rules", "k=3", 4, "moore", "piles=4;k=3", 4, {4, 3, 4, 3}},
    {"staircase.rules", "", 0, "staircase", "", 3, {8, 8, 8}},
    {"staircase.rules", "k=1", 0, "staircase", "piles=1", 1, {20}},
    {"staircase.rules", "k=2", 0, "staircase", "piles=2", 2, {12, 9}},
    {"staircase.rules", "", 4, "staircase", "piles=4", 4, {7, 6, 5, 4}},
    {"euclid.rules", "", 0, "euclid", "", 2, {25, 25}},
    {"euclid.rules", "", 0, "euclid", "", 2, {13, 31}},
    {"fibonacci-nim.rules", "", 0, "fibonacci-nim", "", 2, {30, 30}},
};

static void test_presets(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const pcase *pc = &cases[c];
        for (int misere = 0; misere <= 1; misere++) {
            for (int pn = 0; pn <= 1; pn++) {
                ns_game *g = load(pc->file, pc->rparams, pc->k_hint);
                ns_table *a = g ? solve(g, pc->bounds, misere, pn) : NULL;
                ns_table *b = ns_tsolve(pc->preset, pc->pparams, pc->k, pc->bounds, misere, pn, 2);
                CHECKF(g && g->k == pc->k, "%s [%s]: %d piles", pc->file, pc->rparams, g ? g->k : -1);
                CHECKF(a && b && ns_table_equal(a, b), "%s [%s] vs %s [%s] %s %s: tables differ", pc->file, pc->rparams, pc->preset,
                       pc->pparams, misere ? "misere" : "normal", pn ? "P/N" : "Grundy");
                /* the preset `check` takes the file for (ns_check_recognise,
                 * through ns_rules_preset_maps) gives the same table */
                ns_game *pg = NULL;
                char how[300];
                ns_error err = {0};
                ns_table *c = NULL;
                if (a && ns_check_recognise(g, &pg, how, sizeof how, &err) == NS_OK && pg)
                    c = solve(pg, pc->bounds, misere, pn);
                CHECKF(pg && strcmp(pg->name, pc->preset) == 0 && strstr(how, pc->file) != NULL,
                       "%s [%s]: not recognised as the preset %s (%s)", pc->file, pc->rparams, pc->preset, err.msg);
                CHECKF(a && c && ns_table_equal(a, c), "%s [%s] %s %s: the recognised preset's table differs", pc->file,
                       pc->rparams, misere ? "misere" : "normal", pn ? "P/N" : "Grundy");
                ns_table_free(c);
                ns_game_free(pg);
                ns_table_free(a);
                ns_table_free(b);
                ns_game_free(g);
            }
        }
    }
}

/* ---- the variant, against a naive solver of its own rules ---- */

#define VN 24

static unsigned naive_twice(int x, int y, int misere, unsigned memo[VN][VN], int seen[VN][VN])
{
    if (seen[x][y])
        return memo[x][y];
    unsigned char has[4 * VN * 2 + 2] = {0};
    int any = 0;
    static const int dir[5][2] = {{1, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 1}};
    for (int d = 0; d < 5; d++)
        for (int t = 1; x - dir[d][0] * t >= 0 && y - dir[d][1] * t >= 0; t++) {
            has[naive_twice(x - dir[d][0] * t, y - dir[d][1] * t, misere, memo, seen)] = 1;
            any = 1;
        }
    unsigned m = 0;
    while (has[m])
        m++;
    if (misere && !any)
        m = 1;
    seen[x][y] = 1;
    memo[x][y] = m;
    return m;
}

static void test_variant(void)
{
    const int64_t bounds[2] = {VN, VN};
    for (int misere = 0; misere <= 1; misere++) {
        static unsigned memo[VN][VN];
        static int seen[VN][VN];
        memset(seen, 0, sizeof seen);
        ns_game *g = load("wythoff-twice.rules", "", 0);
        ns_table *t = g ? solve(g, bounds, misere, 0) : NULL;
        CHECK(t != NULL);
        uint64_t bad = 0;
        for (int x = 0; t && x < VN; x++)
            for (int y = 0; y < VN; y++) {
                int64_t s[NS_MAX_DIM] = {x, y};
                bad += ns_table_get(t, ns_table_index(t, s)) != naive_twice(x, y, misere, memo, seen);
            }
        CHECKF(bad == 0, "wythoff-twice %s: %llu cells differ from the naive solver", misere ? "misere" : "normal",
               (unsigned long long)bad);
        /* (0,0) is P; (1,2) and (2,1) are N (one move to (0,0)) */
        if (t) {
            int64_t s0[NS_MAX_DIM] = {0, 0}, s1[NS_MAX_DIM] = {1, 2};
            CHECK(ns_table_get(t, ns_table_index(t, s0)) == (misere ? 1u : 0u));
            CHECK(ns_table_get(t, ns_table_index(t, s1)) != 0 || misere);
        }
        ns_table_free(t);
        ns_game_free(g);
    }
}

/* ---- classes of the families ---- */

static int count_kind(const ns_game *g, ns_fam_kind k)
{
    int n = 0;
    for (int i = 0; i < g->nfam; i++)
        n += g->fam[i].kind == k;
    return n;
}

static int has_ray(const ns_game *g, int64_t d0, int64_t d1, int64_t e0, int64_t e1)
{
    for (int i = 0; i < g->nfam; i++) {
        const ns_family *f = &g->fam[i];
        if (f->kind == NS_FAM_RAY && f->dir[0] == d0 && f->dir[1] == d1 && f->base[0] == e0 && f->base[1] == e1)
            return 1;
    }
    return 0;
}

static void test_classes(void)
{
    ns_game *g = load("wythoff.rules", "", 0);
    CHECK(g && g->nfam == 3 && count_kind(g, NS_FAM_RAY) == 3);
    CHECK(g && has_ray(g, -1, 0, -1, 0) && has_ray(g, 0, -1, 0, -1) && has_ray(g, -1, -1, -1, -1));
    ns_game_free(g);

    g = load("a-wythoff.rules", "a=3", 0);
    CHECK(g && g->nfam == 2 + 5 && count_kind(g, NS_FAM_RAY) == 7);
    /* delta = l - k = -2 starts at k = 3: base (-3, -1) */
    CHECK(g && has_ray(g, -1, -1, -3, -1) && has_ray(g, -1, -1, -1, -3) && has_ray(g, -1, -1, -1, -1));
    ns_game_free(g);

    g = load("wythoff-twice.rules", "", 0);
    CHECK(g && g->nfam == 5 && count_kind(g, NS_FAM_RAY) == 5);
    CHECK(g && has_ray(g, -1, -2, -1, -2) && has_ray(g, -2, -1, -2, -1));
    ns_game_free(g);

    g = load("nim.rules", "k=5", 0);
    CHECK(g && g->k == 5 && g->nfam == 5 && count_kind(g, NS_FAM_RAY) == 5);
    ns_game_free(g);

    g = load("staircase.rules", "", 0);
    CHECK(g && g->nfam == 3 && count_kind(g, NS_FAM_RAY) == 3 && g->valid != NULL);
    CHECK(g && g->rank_w[0] == 1 && g->rank_w[1] == 2 && g->rank_w[2] == 3);
    ns_game_free(g);

    g = load("bash.rules", "m=4", 0);
    CHECK(g && g->nfam == 1 && g->fam[0].kind == NS_FAM_FINITE && g->fam[0].noffsets == 4);
    ns_game_free(g);

    g = load("subtraction.rules", "", 0);
    CHECK(g && g->nfam == 1 && g->fam[0].kind == NS_FAM_FINITE && g->fam[0].noffsets == 3);
    ns_game_free(g);

    const char *general[] = {"euclid.rules", "moore.rules"};
    for (int i = 0; i < 2; i++) {
        g = load(general[i], "", 0);
        CHECKF(g && g->nfam >= 1 && count_kind(g, NS_FAM_GENERAL) == g->nfam, "%s: general families", general[i]);
        ns_game_free(g);
    }
    g = load("fibonacci-nim.rules", "", 0);
    CHECK(g && g->rank_w[0] == 1 && g->rank_w[1] == 0);
    CHECK(g && g->nfam == 1 && g->fam[0].kind == NS_FAM_PREFIX && g->fam[0].axis == 1);
    ns_game_free(g);
}

/* ---- every file compiles and solves; the stored text rebuilds it ---- */

static void test_all_files(void)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/data/rules", srcdir);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 7 || strcmp(de->d_name + l - 6, ".rules") != 0)
            continue;
        n++;
        ns_game *g = load(de->d_name, "", 0);
        CHECKF(g != NULL, "%s does not compile", de->d_name);
        if (!g)
            continue;
        int64_t b[NS_MAX_DIM];
        for (int i = 0; i < g->k; i++)
            b[i] = 7;
        /* a loopy game (wythoff-loopy.rules) has P/N/draw tables only */
        const int pn = g->loopy;
        ns_table *t = solve(g, b, 0, pn);
        CHECKF(t != NULL, "%s does not solve on 7^k", de->d_name);
        /* rebuild from the stored text and parameters, as from a table file */
        char ptext[1024];
        ns_params ps = {0};
        ns_error err = {0};
        ns_game *h = NULL;
        ns_params_format(&g->params, ptext, sizeof ptext);
        int ok = g->rules_text && ns_params_parse_list(&ps, ptext, &err) == 0 &&
                 ns_rules_compile(g->rules_text, "(stored)", &ps, g->k, &h, &err) == 0;
        CHECKF(ok, "%s: stored rules do not rebuild: %s", de->d_name, err.msg);
        ns_table *u = ok ? solve(h, b, 0, pn) : NULL;
        CHECKF(t && u && ns_table_equal(t, u), "%s: the rebuilt game differs", de->d_name);
        ns_table_free(t);
        ns_table_free(u);
        ns_game_free(h);
        ns_game_free(g);
    }
    if (d)
        closedir(d);
    CHECKF(n >= 10, "only %d rule files in %s", n, dir);
}

/* ---- the files `check` recognises as presets ---- */

static void test_shipped(void)
{
    /* every map entry: the built-in text is the file on disk, its `game`
     * statement names the preset, and the cases above solve it */
    int nmaps = 0;
    for (const ns_rules_preset_map *m = ns_rules_preset_maps; m->file; m++) {
        nmaps++;
        const char *text = NULL;
        for (const ns_shipped_rules_text *st = ns_shipped_rules_texts; st->file; st++)
            if (strcmp(st->file, m->file) == 0)
                text = st->text;
        CHECKF(text != NULL, "%s: not built in", m->file);
        char path[4200], line[128];
        rule_path(m->file, path, sizeof path);
        FILE *f = fopen(path, "rb");
        static char disk[1 << 16];
        size_t n = f ? fread(disk, 1, sizeof disk - 1, f) : 0;
        disk[n] = 0;
        if (f)
            fclose(f);
        CHECKF(text && strcmp(text, disk) == 0, "%s: the built-in text differs from the file", m->file);
        snprintf(line, sizeof line, "\ngame %s\n", m->preset);
        CHECKF(text && strstr(text, line) != NULL, "%s: no statement 'game %s'", m->file, m->preset);
        CHECK(ns_preset_find(m->preset) != NULL);
        int cased = 0;
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
            cased += strcmp(cases[c].file, m->file) == 0 && strcmp(cases[c].preset, m->preset) == 0;
        CHECKF(cased > 0, "%s: no cell-by-cell case", m->file);
        CHECK(ns_shipped_rules_preset(text, NULL) == m);
    }
    CHECK(nmaps == 9);
    /* a variant among the files is not a preset; an edited copy is not recognised */
    const char *other = NULL;
    ns_game *g = load("wythoff-twice.rules", "", 0);
    CHECK(g && ns_shipped_rules_preset(g->rules_text, &other) == NULL && other && strcmp(other, "wythoff-twice.rules") == 0);
    ns_game_free(g);
    g = load("wythoff.rules", "", 0);
    static char edited[1 << 16];
    snprintf(edited, sizeof edited, "%s# edited\n", g ? g->rules_text : "");
    CHECK(ns_shipped_rules_preset(edited, &other) == NULL && other == NULL);
    ns_game_free(g);
    /* ns_check_run on rule-file tables: a-wythoff.rules a=3 passes the
     * preset's theorem; the variant is refused, naming the file */
    const int64_t b[2] = {60, 60};
    g = load("a-wythoff.rules", "a=3", 0);
    ns_table *t = g ? solve(g, b, 0, 1) : NULL;
    ns_check_result r;
    ns_error err = {0};
    int applies = -1;
    CHECKF(t && ns_check_run(ns_check_find("a-wythoff"), g, t, &r, &applies, &err) == NS_OK && applies == 1 &&
               r.mismatches == 0 && r.checked == 3600,
           "a-wythoff.rules a=3: %s", err.msg);
    int named = 0;
    for (int i = 0; t && i < r.nnotes; i++)
        named += strstr(r.notes[i], "data/rules/a-wythoff.rules") != NULL && strstr(r.notes[i], "test_rules_presets") != NULL;
    CHECK(named == 1);
    ns_table_free(t);
    ns_game_free(g);
    g = load("wythoff-twice.rules", "", 0);
    t = g ? solve(g, b, 0, 0) : NULL;
    CHECK(t && ns_check_run(ns_check_find("wythoff-golden"), g, t, &r, &applies, &err) == NS_EINVAL && applies == 0 &&
          strstr(err.msg, "wythoff-twice.rules (unchanged), which is not a preset") != NULL);
    ns_table_free(t);
    ns_game_free(g);
}

static void test_params_recorded(void)
{
    ns_game *g = load("nim.rules", "", 5);
    const ns_param *p = g ? ns_params_get(&g->params, "k") : NULL;
    CHECK(g && g->k == 5 && p && p->n == 1 && p->v[0] == 5);
    ns_game_free(g);
    g = load("subtraction.rules", "S=2,9", 0);
    p = g ? ns_params_get(&g->params, "S") : NULL;
    CHECK(p && p->n == 2 && p->v[0] == 2 && p->v[1] == 9);
    ns_game_free(g);
    g = load("a-wythoff.rules", "", 0);
    p = g ? ns_params_get(&g->params, "a") : NULL;
    CHECK(p && p->n == 1 && p->v[0] == 2);
    CHECK(g && g->rules_text && strcmp(g->name, "a-wythoff") == 0); /* the declared name (issue 15) */
    ns_game_free(g);
}

int main(void)
{
    const char *s = getenv("NS_SOURCE_DIR");
    snprintf(srcdir, sizeof srcdir, "%s", s ? s : ".");
    test_presets();
    test_variant();
    test_classes();
    test_all_files();
    test_params_recorded();
    test_shipped();
    return TEST_REPORT();
}
