/* ns_census.c - see ns_census.h. */
#include "analysis/ns_census.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_group.h"
#include "analysis/ns_sweep.h"
#include "game/ns_octal.h"

void ns_census_free(ns_census *c)
{
    if (!c)
        return;
    free(c->code);
    free(c->period);
    free(c->preperiod);
    free(c->saltus);
    free(c->proven);
    free(c->max_value);
    free(c->group);
    free(c);
}

/* the builder: code i of the census's list, bounds set */
typedef struct census_run {
    ns_census *c;
    ns_group *gr;
    ns_error gerr;      /* a grouping failure (the callback returns non-zero) */
    ns_census_progress_fn progress;
    void *user;
} census_run;

static ns_err build_code(void *user, uint64_t i, ns_game **g, ns_error *err)
{
    const census_run *r = user;
    ns_octal o;
    ns_err rc;
    *g = NULL;
    if ((rc = ns_octal_parse(r->c->code[i], &o, err)))
        return rc;
    if (!(*g = ns_octal_game_new("octal", &o, err)))
        return err->code ? err->code : NS_ENOMEM;
    if ((rc = ns_game_set_bounds(*g, &r->c->size, err))) {
        ns_game_free(*g);
        *g = NULL;
    }
    return rc;
}

/* the ordered callback: the row's columns, and the code's group */
static int take_code(void *user, uint64_t i, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    census_run *r = user;
    ns_census *c = r->c;
    (void)g;
    uint64_t first;
    if (ns_group_add(r->gr, i, t, &first, &r->gerr))
        return 1;
    c->group[i] = (int64_t)first;
    c->max_value[i] = (uint32_t)row->max_value;
    c->period[i] = row->period;
    c->preperiod[i] = row->preperiod;
    c->saltus[i] = row->saltus;
    c->proven[i] = (uint8_t)row->proven;
    return 0;
}

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    const census_run *r = user;
    return r->progress(r->user, (size_t)done, (size_t)total);
}

ns_census *ns_census_run(int digits, int64_t size, int threads, ns_census_driver_fn driver,
                         ns_census_progress_fn progress, void *user, ns_error *err)
{
    const size_t n = ns_census_count(digits);
    if (!n) {
        ns_error_set(err, NS_EINVAL, "census: expected 1 to %d code digits, got %d", NS_CENSUS_MAX_DIGITS, digits);
        return NULL;
    }
    if (size < 1) {
        ns_error_set(err, NS_EINVAL, "census: expected a size of at least 1 heap size, got %lld", (long long)size);
        return NULL;
    }
    census_run r = {.progress = progress, .user = user};
    ns_census *c = calloc(1, sizeof *c);
    if (!c)
        goto nomem;
    c->digits = digits;
    c->size = size;
    c->ncodes = n;
    r.c = c;
    if (!(c->code = calloc(n, sizeof *c->code)) || !(c->period = calloc(n, sizeof *c->period)) ||
        !(c->preperiod = calloc(n, sizeof *c->preperiod)) || !(c->saltus = calloc(n, sizeof *c->saltus)) ||
        !(c->proven = calloc(n, sizeof *c->proven)) || !(c->max_value = calloc(n, sizeof *c->max_value)) ||
        !(c->group = calloc(n, sizeof *c->group)) || !(r.gr = ns_group_new()))
        goto nomem;
    for (size_t i = 0; i < n; i++)
        ns_census_code(digits, i, c->code[i]);

    const ns_sweep_job job = {.n = n, .build = build_code, .user = &r, .threads = threads, .each = take_code,
                              .each_user = &r, .progress = progress ? on_progress : NULL, .progress_user = &r};
    ns_error e = {0};
    const ns_err rc = (driver ? driver : ns_sweep_run)(&job, NULL, &e);
    if (rc) {
        if (r.gerr.code)
            ns_error_set(err, r.gerr.code, "census: %s", r.gerr.msg);
        else
            ns_error_set(err, rc, "census: %s", e.msg);
        goto fail;
    }
    c->ngroups = ns_group_count(r.gr);
    for (size_t i = 0; i < n; i++)
        c->nproven += c->proven[i];
    ns_group_free(r.gr);
    return c;
nomem:
    ns_error_set(err, NS_ENOMEM, "census: out of memory for %zu codes", n);
fail:
    ns_group_free(r.gr);
    ns_census_free(c);
    return NULL;
}
