/* ns_census.c - see ns_census.h. */
#include "analysis/ns_census.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_period.h"
#include "core/ns_omp.h"
#include "engine/ns_engine.h"
#include "game/ns_octal.h"
#include "game/ns_table.h"

size_t ns_census_count(int digits)
{
    if (digits < 1 || digits > NS_CENSUS_MAX_DIGITS)
        return 0;
    size_t n = 7;
    for (int i = 1; i < digits; i++)
        n *= 8;
    return n;
}

/* The codes are the base-8 numbers d1..dD with dD != 0, in increasing
 * order: write i = 7q + r (0 <= r < 7), the i-th is 8q + r + 1. */
void ns_census_code(int digits, size_t i, char buf[NS_CENSUS_CODE_LEN])
{
    size_t lead = 1;
    for (int k = 1; k < digits; k++)
        lead *= 8;
    const size_t v = i / 7 * 8 + i % 7 + 1;
    buf[0] = '0';
    buf[1] = '.';
    size_t p = lead;
    for (int k = 0; k < digits; k++, p /= 8)
        buf[2 + k] = (char)('0' + v / p % 8);
    buf[2 + digits] = '\0';
}

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

/* Solve code to n heap sizes on one thread; *seq gets the sequence in the
 * narrowest cells that hold it (caller frees). */
static ns_err solve_one(const char *code, int64_t n, ns_table **seq, ns_period *per, ns_error *err)
{
    ns_octal o;
    ns_game *g = NULL;
    ns_table *t = NULL, *s = NULL;
    ns_err rc;
    *seq = NULL;
    if ((rc = ns_octal_parse(code, &o, err)))
        goto fail;
    if (!(g = ns_octal_game_new("octal", &o, err)) || (rc = ns_game_set_bounds(g, &n, err)) ||
        !(t = ns_engine_table_new(g, 0, err))) {
        rc = err->code ? err->code : NS_ENOMEM;
        goto fail;
    }
    ns_engine_opts opts = {.threads = 1};
    if ((rc = ns_engine_run(g, t, &opts, err)) || (rc = ns_period_find(t, g->octal, per, err)))
        goto fail;
    const int elem = ns_table_elem_for(per->max_value);
    if (elem == t->elem) {
        s = t;
        t = NULL;
    } else {
        if (!(s = ns_table_new(1, &n, elem, 0, err))) {
            rc = err->code ? err->code : NS_ENOMEM;
            goto fail;
        }
        for (uint64_t i = 0; i < (uint64_t)n; i++)
            ns_table_set(s, i, ns_table_get(t, i));
    }
    *seq = s;
    rc = NS_OK;
fail:
    ns_table_free(t);
    ns_game_free(g);
    return rc;
}

/* FNV-1a over the values as 32-bit numbers (independent of the width) */
static uint64_t seq_hash(const ns_table *t)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint32_t v = ns_table_get(t, i);
        for (int b = 0; b < 4; b++, v >>= 8) {
            h ^= v & 0xFFu;
            h *= 0x100000001b3ull;
        }
    }
    return h;
}

static int seq_equal(const ns_table *a, const ns_table *b)
{
    return a->ncells == b->ncells && a->elem == b->elem &&
           memcmp(a->data, b->data, (size_t)a->ncells * (size_t)a->elem) == 0;
}

typedef struct census_run {
    ns_census *c;
    ns_table **seq;     /* finished, not yet grouped, or a group's own */
    uint64_t *hash;
    uint8_t *done;
    size_t *reps;       /* the codes that opened a group, in order */
    size_t next;        /* codes 0..next-1 are grouped */
    size_t ndone;
} census_run;

static void run_free(census_run *r, size_t n)
{
    if (r->seq)
        for (size_t i = 0; i < n; i++)
            ns_table_free(r->seq[i]);
    free(r->seq);
    free(r->hash);
    free(r->done);
    free(r->reps);
}

/* group every finished code that has no unfinished code before it */
static void group_ready(census_run *r)
{
    ns_census *c = r->c;
    while (r->next < c->ncodes && r->done[r->next]) {
        const size_t j = r->next++;
        c->group[j] = (int64_t)j;
        for (size_t k = 0; k < c->ngroups; k++) {
            const size_t q = r->reps[k];
            if (r->hash[q] == r->hash[j] && c->max_value[q] == c->max_value[j] && seq_equal(r->seq[q], r->seq[j])) {
                c->group[j] = (int64_t)q;
                break;
            }
        }
        if (c->group[j] == (int64_t)j) {
            r->reps[c->ngroups++] = j;
        } else {
            ns_table_free(r->seq[j]);
            r->seq[j] = NULL;
        }
    }
}

ns_census *ns_census_run(int digits, int64_t size, int threads, ns_census_progress_fn progress, void *user,
                         ns_error *err)
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
    if (threads <= 0)
        threads = ns_omp_max_threads();
    census_run r = {0};
    ns_census *c = calloc(1, sizeof *c);
    if (!c)
        goto nomem;
    c->digits = digits;
    c->size = size;
    c->ncodes = n;
    r.c = c;
    if (!(c->code = calloc(n, sizeof *c->code)) || !(c->period = calloc(n, sizeof *c->period)) ||
        !(c->preperiod = calloc(n, sizeof *c->preperiod)) || !(c->saltus = calloc(n, sizeof *c->saltus)) || !(c->proven = calloc(n, sizeof *c->proven)) ||
        !(c->max_value = calloc(n, sizeof *c->max_value)) || !(c->group = calloc(n, sizeof *c->group)) ||
        !(r.seq = calloc(n, sizeof *r.seq)) || !(r.hash = calloc(n, sizeof *r.hash)) ||
        !(r.done = calloc(n, sizeof *r.done)) || !(r.reps = calloc(n, sizeof *r.reps)))
        goto nomem;
    for (size_t i = 0; i < n; i++)
        ns_census_code(digits, i, c->code[i]);

    int failed = 0;
    ns_error first = {0};
    const long long nn = (long long)n;
    NS_OMP_FOR_DYNAMIC1(threads)
    for (long long ii = 0; ii < nn; ii++) {
        const size_t i = (size_t)ii;
        int stop;
        NS_PRAGMA(omp atomic read)
        stop = failed;
        if (stop)
            continue;
        ns_error e = {0};
        ns_period per;
        ns_table *s = NULL;
        const ns_err rc = solve_one(c->code[i], size, &s, &per, &e);
        uint64_t h = rc ? 0 : seq_hash(s);
        NS_PRAGMA(omp critical(ns_census))
        {
            if (rc) {
                if (!failed) {
                    ns_error_set(&first, rc, "census: code %s: %s", c->code[i], e.msg);
                    NS_PRAGMA(omp atomic write)
                    failed = 1;
                }
            } else {
                r.seq[i] = s;
                r.hash[i] = h;
                c->max_value[i] = per.max_value;
                c->period[i] = per.found ? per.period : 0;
                c->preperiod[i] = per.found ? per.preperiod : 0;
                c->saltus[i] = per.found ? per.saltus : 0;
                c->proven[i] = per.found && per.proven;
                r.done[i] = 1;
                r.ndone++;
                group_ready(&r);
                if (progress && !failed && progress(user, r.ndone, n, c->code[i])) {
                    ns_error_set(&first, NS_EINTR, "census: interrupted after %zu of %zu codes", r.ndone, n);
                    NS_PRAGMA(omp atomic write)
                    failed = 1;
                }
            }
        }
    }
    run_free(&r, n);
    if (failed) {
        ns_error_set(err, first.code, "%s", first.msg);
        ns_census_free(c);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        c->nproven += c->proven[i];
    return c;
nomem:
    run_free(&r, n);
    ns_census_free(c);
    ns_error_set(err, NS_ENOMEM, "census: out of memory for %zu codes", n);
    return NULL;
}
