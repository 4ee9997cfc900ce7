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

/* Codes that follow from another. A code c' whose moves are those of a
 * code p plus moves that leave at most one heap (bits 1 and 2 of its
 * digits) has p's sequence exactly when no added option ever has the
 * value G_p(n) of its heap: then, heap by heap, c' has every option below
 * G_p(n) that p has and none equal to it. That check is linear in N; a
 * solve is about N^2 for the codes that never turn periodic (most of a
 * census's time: 0.764 .. 0.767 share one sequence, 0.454 .. 0.477
 * another). So before a code is solved, the codes before it with some of
 * its bits 1 and 2 taken away (its parents: those solved, whose tables are
 * kept, most bits taken away first) are checked, and the first whose
 * sequence it follows gives it its sequence. */
typedef struct census_run {
    ns_census *c;
    ns_group *gr;
    ns_error gerr;      /* a grouping failure (the callback returns non-zero) */
    ns_census_progress_fn progress;
    void *user;
    ns_table **seq;     /* the solved codes' tables, published when grouped (atomic) */
    uint8_t *derived;   /* code i took a parent's sequence (its table is not kept) */
    uint64_t nderived;  /* atomic */
} census_run;

/* Does t (the parent's sequence) satisfy the moves c adds to parent p:
 * no added single heap G(n - t) and no added whole heap 0 equals G(n)? */
static int follows(const char *c, const char *p, const ns_table *t)
{
    const int64_t N = t->bounds[0];
    const size_t len = strlen(c);
    for (size_t k = 2; k < len; k++) {
        const int added = (c[k] - '0') & ~(p[k] - '0');
        const int64_t tk = (int64_t)k - 1; /* digit d_tk */
        if ((added & 1) && tk < N && ns_table_get(t, (uint64_t)tk) == 0)
            return 0;
        if (added & 2)
            for (int64_t n = tk + 1; n < N; n++)
                if (ns_table_get(t, (uint64_t)(n - tk)) == ns_table_get(t, (uint64_t)n))
                    return 0;
    }
    return 1;
}

/* the census index of a code of the census's length (ns_census_code's
 * order: i = 7q + r for the base-8 value 8q + r + 1), or -1 when its last
 * digit is 0 (not a code of the census) */
static int64_t code_index(const char *code)
{
    uint64_t v = 0;
    for (const char *q = code + 2; *q; q++)
        v = 8 * v + (uint64_t)(*q - '0');
    return v % 8 ? (int64_t)(7 * (v / 8) + v % 8 - 1) : -1;
}

/* ns_sweep_fill_fn: code i from a parent's sequence, when it follows */
static int fill_code(void *user, uint64_t i, const ns_game *g, ns_table *t)
{
    census_run *r = user;
    (void)g;
    const char *code = r->c->code[i];
    const size_t len = strlen(code);
    /* its bits 1 and 2, two a digit: bit 2k, 2k + 1 of b */
    uint32_t b = 0;
    for (size_t k = 2; k < len; k++)
        b |= (uint32_t)((code[k] - '0') & 3) << (2 * (k - 2));
    /* the sub-masks of b, most bits taken away first */
    for (int bits = __builtin_popcount(b); bits >= 1; bits--)
        for (uint32_t m = b; m; m = (m - 1) & b) {
            if (__builtin_popcount(m) != bits)
                continue;
            char pc[NS_CENSUS_CODE_LEN];
            memcpy(pc, code, len + 1);
            for (size_t k = 2; k < len; k++)
                pc[k] = (char)(pc[k] - (int)(m >> (2 * (k - 2)) & 3));
            const int64_t p = code_index(pc);
            if (p < 0)
                continue;
            const ns_table *tp = __atomic_load_n(&r->seq[p], __ATOMIC_ACQUIRE);
            if (!tp || !follows(code, pc, tp))
                continue;
            ns_error err = {0};
            if (tp->elem > t->elem && ns_table_widen(t, tp->elem, 0, &err))
                return 0;
            for (uint64_t n = 0; n < tp->ncells; n++)
                ns_table_set(t, n, ns_table_get(tp, n));
            r->derived[i] = 1;
            __atomic_fetch_add(&r->nderived, 1, __ATOMIC_RELAXED);
            return 1;
        }
    return 0;
}

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
    if (!r->derived[i]) { /* solved: a parent for the codes after it */
        ns_error e = {0};
        ns_table *cp = ns_table_new(1, t->bounds, t->elem, 0, &e);
        if (cp) {
            memcpy(cp->data, t->data, (size_t)t->ncells * (size_t)t->elem);
            __atomic_store_n(&r->seq[i], cp, __ATOMIC_RELEASE);
        }
    }
    c->max_value[i] = (uint32_t)row->max_value;
    c->period[i] = row->period;
    c->preperiod[i] = row->preperiod;
    c->saltus[i] = row->saltus;
    c->proven[i] = (uint8_t)row->proven;
    return 0;
}

static void run_free(census_run *r, size_t n)
{
    for (size_t i = 0; r->seq && i < n; i++)
        ns_table_free(r->seq[i]);
    free(r->seq);
    free(r->derived);
    ns_group_free(r->gr);
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
    if (!(r.seq = calloc(n, sizeof *r.seq)) || !(r.derived = calloc(n, 1)))
        goto nomem;
    const ns_sweep_job job = {.n = n, .build = build_code, .user = &r, .threads = threads, .each = take_code,
                              .each_user = &r, .progress = progress ? on_progress : NULL, .progress_user = &r,
                              .fill = fill_code, .fill_user = &r};
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
    c->nderived = (size_t)r.nderived;
    run_free(&r, n);
    return c;
nomem:
    ns_error_set(err, NS_ENOMEM, "census: out of memory for %zu codes", n);
fail:
    run_free(&r, n);
    ns_census_free(c);
    return NULL;
}
