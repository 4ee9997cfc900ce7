/* test_ckpt_resume.c - checkpoint and resume through ns_engine_run and ns_engine_resume, for
 * games that reach every kernel (rows-pn, tiles2d, general).
 *
 * For each game: an uninterrupted solve is the reference. Then, for stop
 * points u spread over the kernel's units (first, last, and between), a
 * solve whose checkpoint callback copies the table at its first call with
 * at least u units done (a kernel may offer checkpoints after several
 * units at once: the tile kernel sizes its ranges by time) and stops; a
 * second solve resumes from that copy with resume_units = the units done.
 * The resumed table must equal the reference cell for cell, at 1 and 2
 * threads (the stop with one thread count, the resume with the other).
 * The copy's cells of unfinished units are overwritten with garbage first,
 * so a kernel that trusted them would be caught. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "engine/ns_engine.h"
#include "testutil.h"
#include "tsolve.h"

typedef struct stopper {
    uint64_t at;        /* stop when at least this many units are done */
    uint64_t stopped;   /* units done at the stop */
    uint64_t total;     /* units_total seen */
    int calls;
    int copied;
    int monotone;       /* units_done never decreased */
    uint64_t last;
    const ns_table *t;
    void *copy;         /* table data when the stop came; owned */
} stopper;

static int stop_cb(void *user, uint64_t done, uint64_t total)
{
    stopper *s = user;
    if (s->calls && done < s->last)
        s->monotone = 0;
    s->last = done;
    s->calls++;
    s->total = total;
    if (done >= s->at && !s->copied) {
        s->stopped = done;
        size_t bytes = (size_t)s->t->ncells * (size_t)s->t->elem;
        s->copy = malloc(bytes);
        if (s->copy)
            memcpy(s->copy, s->t->data, bytes);
        s->copied = 1;
        return 1;
    }
    return 0;
}

static int count_cb(void *user, uint64_t done, uint64_t total)
{
    stopper *s = user;
    (void)done;
    s->total = total;
    s->calls++;
    return 0;
}

static ns_game *build(const char *name, const char *params, int k, const int64_t *bounds, int misere)
{
    ns_error err = {0};
    ns_params ps = {0};
    if (ns_params_parse_list(&ps, params, &err))
        return NULL;
    ns_game *g = ns_preset_build(name, &ps, k, &err);
    if (!g)
        return NULL;
    g->play = misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    if (ns_game_set_bounds(g, bounds, &err)) {
        ns_game_free(g);
        return NULL;
    }
    return g;
}

/* The cells of unfinished units hold whatever the stopped run left (often
 * the table's initial zeros). A resume must not read them: every cell that
 * does not hold its final value yet gets garbage. */
static void scribble(ns_table *t, const ns_table *ref)
{
    const uint32_t inv = ns_table_invalid(t);
    for (uint64_t i = 0; i < t->ncells; i++)
        if (ns_table_get(t, i) != ns_table_get(ref, i))
            ns_table_set(t, i, (uint32_t)(i * 2654435761u) % (t->pn_only ? 2u : (inv < 7 ? inv : 7u)));
}

static void check_game(const char *name, const char *params, int k, const int64_t *bounds, int misere,
                       int pn_only)
{
    ns_error err = {0};
    ns_game *g = build(name, params, k, bounds, misere);
    CHECKF(g != NULL, "%s [%s]: cannot build", name, params);
    if (!g)
        return;
    ns_table *ref = ns_engine_table_new(g, pn_only, &err);
    stopper cnt = {0};
    ns_engine_opts o = {.threads = 2, .pn_only = pn_only, .checkpoint = count_cb, .checkpoint_user = &cnt};
    CHECK(ref && ns_engine_run(g, ref, &o, &err) == NS_OK);
    const char *kernel = ns_test_engine_name(g, &o);
    CHECKF(cnt.calls > 0, "%s: kernel %s never called the checkpoint callback", name, kernel);
    const uint64_t total = cnt.total;
    uint64_t stops[8] = {1, total / 5, total / 3, total / 2, (3 * total) / 4, total > 1 ? total - 1 : 1};
    int nstops = 6;
    for (int si = 0; si < nstops && total > 0; si++) {
        if (stops[si] < 1 || stops[si] > total)
            continue;
        for (int th = 1; th <= 2; th++) {
            uint64_t u = stops[si];
            ns_table *t = ns_engine_table_new(g, pn_only, &err);
            stopper s = {.at = u, .t = t, .monotone = 1};
            ns_engine_opts so = {.threads = th, .pn_only = pn_only, .checkpoint = stop_cb, .checkpoint_user = &s};
            ns_err rc = t ? ns_engine_run(g, t, &so, &err) : NS_ENOMEM;
            CHECKF(s.copied && rc == NS_EINTR, "%s (%s): stop at unit %llu of %llu: rc %d, copied %d", name, kernel,
                   (unsigned long long)u, (unsigned long long)total, (int)rc, s.copied);
            CHECKF(s.monotone, "%s (%s): units_done went backwards", name, kernel);
            if (s.copy && t) {
                memcpy(t->data, s.copy, (size_t)t->ncells * (size_t)t->elem);
                scribble(t, ref);
                u = s.stopped;
                ns_engine_opts ro = {.threads = 3 - th, .pn_only = pn_only};
                rc = ns_engine_resume(g, t, &ro, u, &err);
                CHECKF(rc == NS_OK, "%s (%s): resume at %llu failed: %s", name, kernel, (unsigned long long)u,
                       err.msg);
                uint64_t diff = 0;
                for (uint64_t i = 0; i < t->ncells; i++)
                    diff += ns_table_get(t, i) != ns_table_get(ref, i);
                CHECKF(diff == 0, "%s [%s]%s%s (%s): resumed at unit %llu of %llu (%d then %d threads): %llu cells differ",
                       name, params, misere ? " misere" : "", pn_only ? " P/N" : "", kernel, (unsigned long long)u,
                       (unsigned long long)total, th, 3 - th, (unsigned long long)diff);
            }
            free(s.copy);
            ns_table_free(t);
        }
    }
    printf("%-14s %-10s %s%s: %s kernel, %llu units, resumed at 6 points\n", name, params, pn_only ? "P/N" : "G",
           misere ? " misere" : "", kernel, (unsigned long long)total);
    ns_table_free(ref);
    ns_game_free(g);
}

int main(void)
{
    const int64_t sq[2] = {700, 700}, rect[2] = {517, 1030}, small3[3] = {26, 26, 26}, fib[2] = {200, 200};
    const int64_t stair[3] = {24, 24, 24}, tall[2] = {2100, 700}, tall2[2] = {1800, 333};
    /* two-pile P/N rows (units of 256 rows) */
    check_game("wythoff", "", 2, tall, 0, 1);
    check_game("wythoff", "", 2, tall2, 0, 1);
    check_game("nim", "piles=2", 2, tall2, 0, 1);
    check_game("a-wythoff", "a=3", 2, tall, 0, 1);
    /* two-pile Grundy tiles */
    check_game("wythoff", "", 2, sq, 0, 0);
    check_game("wythoff", "", 2, rect, 1, 0);
    check_game("nim", "piles=2", 2, rect, 0, 0);
    /* the general engine */
    check_game("nim", "piles=3", 3, small3, 0, 0);
    check_game("a-wythoff", "a=2", 2, rect, 0, 0);
    check_game("euclid", "", 2, sq, 0, 0);
    check_game("fibonacci-nim", "", 2, fib, 0, 0);
    check_game("staircase", "piles=3", 3, stair, 0, 0);
    check_game("moore", "piles=3;k=2", 3, small3, 1, 0);
    return TEST_REPORT();
}
