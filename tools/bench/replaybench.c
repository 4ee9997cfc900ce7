/* replaybench.c - nimsieve-bench-replay: the two figures per rank that the
 * MPI tile kernel's cost rests on (README, "Across MPI ranks: scaling"):
 * computing a cell (the mex and the line sets) and replaying one (a cell
 * another rank computed: its value goes into the line sets, no mex), both
 * on one thread of this machine, in the same run.
 *
 * usage: nimsieve-bench-replay GAME_PRESET N
 * prints one line: "compute <s> replay <s> cells <cells computed>": the
 * engine run on an in-memory table, then ns_engine_resume with every unit
 * (tile anti-diagonal) done, which replays the whole table. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/ns_engine.h"
#include "game/ns_params.h"
#include "game/ns_presets.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: nimsieve-bench-replay GAME_PRESET N\n");
        return 2;
    }
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = ns_preset_build(argv[1], &ps, 2, &err);
    const int64_t n = strtoll(argv[2], NULL, 10);
    const int64_t b[2] = {n, n};
    ns_table *t = NULL;
    ns_engine_plan plan;
    ns_engine_opts o = {.threads = 1};
    int rc = 1;
    if (!g || n < 1 || ns_game_set_bounds(g, b, &err) || ns_engine_plan_for(g, &o, &plan, &err) ||
        !(t = ns_engine_table_new(g, 0, &err)))
        goto out;
    if (!plan.engine->stream_unit) {
        fprintf(stderr, "nimsieve-bench-replay: the %s engine has no tiles\n", plan.engine->name);
        goto out;
    }
    const int64_t unit = plan.engine->stream_unit(), tiles = (n + unit - 1) / unit;
    const double t0 = now_s();
    if (ns_engine_run(g, t, &o, &err))
        goto out;
    const double t1 = now_s();
    if (ns_engine_resume(g, t, &o, (uint64_t)(2 * tiles - 1), &err))
        goto out;
    const double t2 = now_s();
    printf("compute %.4f replay %.4f cells %" PRIu64 "\n", t1 - t0, t2 - t1, plan.cells);
    rc = 0;
out:
    if (rc && err.msg[0])
        fprintf(stderr, "nimsieve-bench-replay: %s\n", err.msg);
    ns_table_free(t);
    ns_game_free(g);
    return rc;
}
