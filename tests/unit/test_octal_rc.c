/* test_octal_rc.c - the rare/common engine (`rare-common`,
 * engine/ns_sequence.c) against the plain mex (`sequence`, itself checked
 * against a naive solver and the OEIS in test_octal.c): identical
 * sequences on many codes at several lengths, including codes where the
 * mask changes and where the method is dropped for want of sparse space;
 * Grundy's game to 2^16; identical at 1, 2 and 3 threads; a resumed run
 * equals an uninterrupted one. The tests also check that the method
 * really ran (heaps done by it, scans, mask changes) so that the
 * comparisons are not between two plain runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "game/ns_octal.h"
#include "game/ns_presets.h"
#include "testutil.h"
#include "tsolve.h"

/* Run the engine named rc ? "rare-common" : "sequence" on g into t with
 * o, its statistics into *st (the tests' and the benchmark's way to pick
 * one engine of the two). */
static ns_err seq_run_stats(const ns_game *g, ns_table *t, const ns_engine_opts *o, int rc, ns_seq_stats *st,
                            ns_error *err)
{
    ns_engine_opts oo = *o;
    oo.seq_stats = st;
    const ns_engine *e = ns_engine_find(rc ? "rare-common" : "sequence");
    if (!e)
        return ns_error_set(err, NS_EINTERNAL, "no engine %s", rc ? "rare-common" : "sequence");
    return ns_engine_run_with(e, g, t, &oo, err);
}

static ns_game *build(const char *preset, const char *params, int64_t n)
{
    return ns_tbuild1(preset, params, n);
}

/* G(0..n-1) of g by the method (rc 1) or the plain mex (rc 0) */
static ns_table *run(const ns_game *g, int rc, int threads, ns_seq_stats *st)
{
    ns_error err = {0};
    ns_table *t = ns_engine_table_new(g, 0, &err);
    ns_engine_opts o = {.threads = threads};
    if (!t || seq_run_stats(g, t, &o, rc, st, &err)) {
        fprintf(stderr, "%s: %s\n", g->name, err.msg);
        ns_table_free(t);
        return NULL;
    }
    return t;
}

static int64_t first_diff(const ns_table *a, const ns_table *b)
{
    for (int64_t i = 0; i < a->bounds[0]; i++)
        if (ns_table_get(a, (uint64_t)i) != ns_table_get(b, (uint64_t)i))
            return i;
    return -1;
}

typedef struct tally {
    int runs, used, scanned, changed;
} tally;

/* rc equals plain on preset/params at n; counts what the method did */
static void same(const char *preset, const char *params, int64_t n, int threads, tally *ty)
{
    ns_game *g = build(preset, params, n);
    CHECKF(g != NULL, "%s %s", preset, params);
    if (!g)
        return;
    ns_seq_stats st, st0;
    ns_table *p = run(g, 0, 1, &st0);
    ns_table *r = run(g, 1, threads, &st);
    CHECKF(p && r, "%s %s N = %lld: a run failed", preset, params, (long long)n);
    if (p && r) {
        const int64_t d = first_diff(p, r);
        CHECKF(d < 0, "%s %s N = %lld, %d threads: G(%lld) = %u by rare/common, %u by the plain mex", preset, params,
               (long long)n, threads, (long long)d, d >= 0 ? ns_table_get(r, (uint64_t)d) : 0,
               d >= 0 ? ns_table_get(p, (uint64_t)d) : 0);
    }
    CHECK(st0.rc_heaps == 0);
    if (ty) {
        ty->runs++;
        ty->used += st.rc_heaps > 0;
        ty->scanned += st.scans > 0;
        ty->changed += st.mask_changes > 1;
    }
    ns_table_free(p);
    ns_table_free(r);
    ns_game_free(g);
}

/* octal codes (no digit above 7) with one to four digits after the point,
 * and sometimes d0 = 4 (split without taking) */
static void random_code(char *buf)
{
    const int nd = 1 + (int)(ns_test_rng() % 4);
    size_t w = 0;
    buf[w++] = ns_test_rng() % 6 == 0 ? '4' : '0';
    buf[w++] = '.';
    for (int i = 0; i < nd; i++)
        buf[w++] = (char)('0' + ns_test_rng() % 8);
    buf[w] = '\0';
}

static void test_codes(void)
{
    /* codes of the literature (sparse and not), then random ones */
    static const char *known[] = {"0.77", "0.137", "0.07", "0.1777", "0.177", "0.117", "0.115", "0.127",
                                  "0.6",  "0.16",  "0.165", "0.4",   "0.56",  "0.644", "4.37", "0.754", "0.356"};
    static const int64_t lens[] = {700, 5000, 30000};
    tally ty = {0};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        for (size_t l = 0; l < 3; l++) {
            char params[32];
            snprintf(params, sizeof params, "code=%s", known[i]);
            same("octal", params, lens[l], 1 + (int)((i + l) % 3), &ty);
        }
    for (int it = 0; it < 60; it++) {
        char code[16], params[32];
        random_code(code);
        snprintf(params, sizeof params, "code=%s", code);
        const int64_t n = it % 4 == 0 ? 12000 : 600 + (int64_t)(ns_test_rng() % 3000);
        ns_game *g = build("octal", params, 10);
        char why[NS_ENGINE_WHY];
        ns_engine_opts o = {0};
        const ns_engine *rc = ns_engine_find("rare-common");
        const int applies = g && rc && rc->applies(g, &o, why, sizeof why);
        ns_game_free(g);
        if (applies)
            same("octal", params, n, 1 + it % 3, &ty);
    }
    printf("rare/common: %d runs, the method ran in %d, scanned all splits in %d, changed its mask in %d\n", ty.runs,
           ty.used, ty.scanned, ty.changed);
    /* the comparisons cover the method, its full scans and mask changes */
    CHECKF(ty.used >= ty.runs / 3, "the method ran in only %d of %d runs", ty.used, ty.runs);
    CHECK(ty.scanned >= 5);
    CHECK(ty.changed >= 3);
}

static void test_grundy(void)
{
    tally ty = {0};
    same("grundys-game", "", 1 << 16, 2, &ty);
    CHECK(ty.used == 1 && ty.scanned == 1);
}

static void test_threads(void)
{
    static const struct {
        const char *preset, *params;
        int64_t n;
    } cases[] = {{"octal", "code=0.1777", 150000}, {"grundys-game", "", 60000}, {"octal", "code=0.16", 40000}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ns_game *g = build(cases[i].preset, cases[i].params, cases[i].n);
        if (!g)
            continue;
        ns_seq_stats st;
        ns_table *t1 = run(g, 1, 1, &st);
        CHECK(st.rc_heaps > 0);
        for (int th = 2; th <= 3; th++) {
            ns_table *tt = run(g, 1, th, &st);
            CHECKF(t1 && tt && ns_table_equal(t1, tt), "%s %s N = %lld: %d threads differ from 1", cases[i].preset,
                   cases[i].params, (long long)cases[i].n, th);
            ns_table_free(tt);
        }
        ns_table_free(t1);
        ns_game_free(g);
    }
}

typedef struct stop_at {
    uint64_t at;
} stop_at;

static int stop_cb(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    return done >= ((stop_at *)user)->at;
}

/* stop the door's run (rare-common) after some units, lose the rest,
 * resume on another number of threads */
static void test_resume(void)
{
    static const char *codes[] = {"code=0.1777", "code=0.16"};
    for (int c = 0; c < 2; c++) {
        const int64_t n = 70000;
        ns_game *g = build("octal", codes[c], n);
        if (!g)
            continue;
        ns_error err = {0};
        ns_engine_choice ch;
        ns_engine_opts probe = {0};
        ns_engine_choose(g, &probe, &ch);
        CHECK(ch.engine && strcmp(ch.engine->name, "rare-common") == 0);
        ns_seq_stats st;
        ns_table *full = run(g, 0, 2, &st);
        ns_table *t = ns_engine_table_new(g, 0, &err);
        stop_at s = {7};
        ns_engine_opts o = {.threads = 2, .checkpoint = stop_cb, .checkpoint_user = &s};
        CHECK(t && ns_engine_run(g, t, &o, &err) == NS_EINTR);
        for (int64_t i = 7 * 4096; t && i < n; i++)
            ns_table_set(t, (uint64_t)i, 0);
        ns_engine_opts o2 = {.threads = 3};
        CHECK(t && ns_engine_resume(g, t, &o2, 7, &err) == NS_OK);
        CHECKF(full && t && ns_table_equal(full, t), "%s: resumed run differs at %lld", codes[c],
               full && t ? (long long)first_diff(full, t) : -1LL);
        ns_table_free(t);
        ns_table_free(full);
        ns_game_free(g);
    }
}

/* Blocks of the method may run past a unit's end (several units a
 * synchronisation): the checkpoint callback still sees every unit once, in
 * order, and when it sees unit u the heaps of units 1..u are final (equal
 * to the plain mex's). 0.1777 to 70,000 on 1 and 2 threads: its blocks
 * reach a quarter of the heap size, up to four units. */
typedef struct unit_log {
    const ns_table *t, *ref;
    uint64_t last, total;
    int out_of_order, not_final;
} unit_log;

static int unit_cb(void *user, uint64_t done, uint64_t total)
{
    unit_log *l = user;
    l->total = total;
    if (done != l->last + 1)
        l->out_of_order++;
    l->last = done;
    const int64_t end = (int64_t)done * NS_SEQ_UNIT < l->t->bounds[0] ? (int64_t)done * NS_SEQ_UNIT : l->t->bounds[0];
    for (int64_t i = (int64_t)(done - 1) * NS_SEQ_UNIT; i < end; i++)
        if (ns_table_get(l->t, (uint64_t)i) != ns_table_get(l->ref, (uint64_t)i)) {
            l->not_final++;
            break;
        }
    return 0;
}

static void test_units(void)
{
    const int64_t n = 70000;
    ns_game *g = build("octal", "code=0.1777", n);
    CHECK(g != NULL);
    if (!g)
        return;
    ns_seq_stats st;
    ns_table *ref = run(g, 0, 2, &st);
    for (int th = 1; th <= 2 && ref; th++) {
        ns_error err = {0};
        ns_table *t = ns_engine_table_new(g, 0, &err);
        unit_log l = {.t = t, .ref = ref};
        ns_engine_opts o = {.threads = th, .checkpoint = unit_cb, .checkpoint_user = &l};
        CHECKF(t && seq_run_stats(g, t, &o, 1, &st, &err) == NS_OK, "0.1777, %d threads: %s", th, err.msg);
        const uint64_t units = (uint64_t)((n + NS_SEQ_UNIT - 1) / NS_SEQ_UNIT);
        CHECKF(l.last == units && l.total == units && l.out_of_order == 0,
               "0.1777, %d threads: units reported up to %llu of %llu, %d out of order", th,
               (unsigned long long)l.last, (unsigned long long)units, l.out_of_order);
        CHECKF(l.not_final == 0, "0.1777, %d threads: %d units not final when reported", th, l.not_final);
        CHECK(st.rc_heaps > 0);
        CHECK(t && ns_table_equal(t, ref));
        ns_table_free(t);
    }
    ns_table_free(ref);
    ns_game_free(g);
}

/* which engine the door picks, and why not the method */
static void test_door(void)
{
    static const struct {
        const char *code, *engine, *why;
    } cases[] = {{"code=0.77", "rare-common", NULL},
                 {"code=0.137", "rare-common", NULL},
                 {"code=0.3f", "sequence", "three heaps"},
                 {"code=0.333", "sequence", "no move splits"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ns_game *g = build("octal", cases[i].code, 100);
        if (!g)
            continue;
        ns_engine_opts o = {0};
        ns_engine_choice c;
        ns_engine_choose(g, &o, &c);
        CHECKF(c.engine && strcmp(c.engine->name, cases[i].engine) == 0, "%s: engine %s", cases[i].code,
               c.engine ? c.engine->name : "none");
        if (cases[i].why) {
            int found = 0;
            for (int k = 0; k < c.nskipped; k++)
                found |= strcmp(c.skipped[k]->name, "rare-common") == 0 && strstr(c.why[k], cases[i].why) != NULL;
            CHECKF(found, "%s: the reason for passing over rare-common", cases[i].code);
        }
        ns_game_free(g);
    }
}

int main(void)
{
    test_door();
    test_codes();
    test_grundy();
    test_threads();
    test_resume();
    test_units();
    return TEST_REPORT();
}
