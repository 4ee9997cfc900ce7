/* ns_sweep.c - see ns_sweep.h. */
#include "analysis/ns_sweep.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/ns_census.h"
#include "analysis/ns_check.h"
#include "analysis/ns_patterns.h"
#include "core/ns_omp.h"
#include "engine/ns_engine.h"
#include "game/ns_build.h"

ns_sweep_ranges *ns_sweep_ranges_new(void)
{
    ns_sweep_ranges *r = calloc(1, sizeof *r);
    if (r)
        r->nvariants = 1;
    return r;
}

void ns_sweep_ranges_free(ns_sweep_ranges *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->naxes; i++) {
        free(r->ax[i].v);
        free(r->ax[i].mask);
    }
    free(r);
}

/* "lo..hi" at *s (whole text up to end, or up to stop): 1 when parsed */
static int parse_span(const char *s, size_t len, int64_t *lo, int64_t *hi)
{
    char buf[64];
    if (len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *dots = strstr(buf, "..");
    if (!dots)
        return 0;
    *dots = '\0';
    return ns_parse_i64(buf, lo) == 0 && ns_parse_i64(dots + 2, hi) == 0;
}

/* C(n, k), capped at cap + 1 */
static uint64_t choose_capped(int n, int k, uint64_t cap)
{
    uint64_t c = 1;
    for (int i = 1; i <= k; i++) {
        c = c * (uint64_t)(n - k + i) / (uint64_t)i;   /* exact: C(n-k+i, i) */
        if (c > cap)
            return cap + 1;
    }
    return c;
}

/* the k-subsets of {0..n-1} as masks, lexicographic, appended at m[*at] */
static void k_subsets(int n, int k, uint64_t *m, size_t *at)
{
    int idx[NS_SWEEP_MAX_SET];
    for (int i = 0; i < k; i++)
        idx[i] = i;
    for (;;) {
        uint64_t x = 0;
        for (int i = 0; i < k; i++)
            x |= (uint64_t)1 << idx[i];
        m[(*at)++] = x;
        int i = k - 1;
        while (i >= 0 && idx[i] == n - k + i)
            i--;
        if (i < 0)
            return;
        idx[i]++;
        for (int j = i + 1; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

static ns_err parse_subsets(ns_sweep_axis *ax, const char *val, uint64_t cap, ns_error *err)
{
    const char *open = val + strlen("subsets(");
    const size_t len = strlen(open);
    if (len < 1 || open[len - 1] != ')')
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected subsets(lo..hi) or subsets(lo..hi,k)", ax->name, val);
    const char *comma = memchr(open, ',', len - 1);
    const size_t span_len = comma ? (size_t)(comma - open) : len - 1;
    int64_t lo, hi, k = -1;
    if (!parse_span(open, span_len, &lo, &hi))
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected subsets(lo..hi) or subsets(lo..hi,k)", ax->name, val);
    if (comma) {
        char kb[32];
        const size_t kl = (size_t)(open + len - 1 - (comma + 1));
        if (kl == 0 || kl >= sizeof kb)
            return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected an element count k after the comma", ax->name, val);
        memcpy(kb, comma + 1, kl);
        kb[kl] = '\0';
        if (ns_parse_i64(kb, &k))
            return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected an element count k after the comma, got '%s'",
                                ax->name, val, kb);
    }
    if (lo > hi)
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: empty range %" PRId64 "..%" PRId64 " (expected lo <= hi)",
                            ax->name, val, lo, hi);
    if (hi - lo + 1 > NS_SWEEP_MAX_SET)
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: a base set of %" PRId64 " elements is too large (at most %d)",
                            ax->name, val, hi - lo + 1, NS_SWEEP_MAX_SET);
    const int n = (int)(hi - lo + 1);
    if (comma && (k < 1 || k > n))
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected 1 <= k <= %d, got %" PRId64, ax->name, val, n, k);
    uint64_t count = 0;
    if (k > 0)
        count = choose_capped(n, (int)k, cap);
    else
        count = n >= 40 || ((uint64_t)1 << n) - 1 > cap ? cap + 1 : ((uint64_t)1 << n) - 1;
    if (count > cap)
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: too many sets (more than %" PRIu64 " variants in all, the most a sweep takes is %d)",
                            ax->name, val, cap, NS_SWEEP_MAX_VARIANTS);
    if (!(ax->mask = malloc((size_t)count * sizeof *ax->mask)))
        return ns_error_set(err, NS_ENOMEM, "-D %s=%s: out of memory", ax->name, val);
    size_t at = 0;
    if (k > 0)
        k_subsets(n, (int)k, ax->mask, &at);
    else
        for (int kk = 1; kk <= n; kk++)
            k_subsets(n, kk, ax->mask, &at);
    ax->kind = 1;
    ax->n = (size_t)count;
    ax->base_lo = lo;
    return NS_OK;
}

static ns_err parse_ints(ns_sweep_axis *ax, const char *val, uint64_t cap, ns_error *err)
{
    int64_t lo, hi;
    if (strstr(val, "..")) {
        if (!parse_span(val, strlen(val), &lo, &hi))
            return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected a range lo..hi of integers", ax->name, val);
        if (lo > hi)
            return ns_error_set(err, NS_EINVAL, "-D %s=%s: empty range (expected lo <= hi)", ax->name, val);
        if ((uint64_t)hi - (uint64_t)lo >= cap)
            return ns_error_set(err, NS_EINVAL, "-D %s=%s: too many values (more than %" PRIu64 " variants in all, the most a sweep takes is %d)",
                                ax->name, val, cap, NS_SWEEP_MAX_VARIANTS);
        ax->n = (size_t)(hi - lo + 1);
        if (!(ax->v = malloc(ax->n * sizeof *ax->v)))
            return ns_error_set(err, NS_ENOMEM, "-D %s=%s: out of memory", ax->name, val);
        for (size_t i = 0; i < ax->n; i++)
            ax->v[i] = lo + (int64_t)i;
        return NS_OK;
    }
    size_t n = 1;
    for (const char *c = val; *c; c++)
        n += *c == ',';
    if (n > cap)
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: too many values (more than %" PRIu64 " variants in all, the most a sweep takes is %d)",
                            ax->name, val, cap, NS_SWEEP_MAX_VARIANTS);
    if (!(ax->v = malloc(n * sizeof *ax->v)))
        return ns_error_set(err, NS_ENOMEM, "-D %s=%s: out of memory", ax->name, val);
    const char *p = val;
    for (size_t i = 0; i < n; i++) {
        const char *e = strchr(p, ',');
        const size_t l = e ? (size_t)(e - p) : strlen(p);
        char b[32];
        if (l == 0 || l >= sizeof b)
            return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected integers separated by commas", ax->name, val);
        memcpy(b, p, l);
        b[l] = '\0';
        if (ns_parse_i64(b, &ax->v[i]))
            return ns_error_set(err, NS_EINVAL, "-D %s=%s: '%s' is not an integer", ax->name, val, b);
        for (size_t j = 0; j < i; j++)
            if (ax->v[j] == ax->v[i])
                return ns_error_set(err, NS_EINVAL, "-D %s=%s: %" PRId64 " given twice", ax->name, val, ax->v[i]);
        p = e ? e + 1 : p + l;
    }
    ax->n = n;
    return NS_OK;
}

/* "octal(D)" or "octal(lo..hi)": the census's codes of lo .. hi digits */
static ns_err parse_octal(ns_sweep_axis *ax, const char *val, uint64_t cap, ns_error *err)
{
    const char *open = val + strlen("octal(");
    const size_t len = strlen(open);
    int64_t lo, hi;
    char b[32];
    if (len < 2 || open[len - 1] != ')' || len - 1 >= sizeof b)
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected octal(D) or octal(lo..hi), D the code digits",
                            ax->name, val);
    memcpy(b, open, len - 1);
    b[len - 1] = '\0';
    if (strstr(b, "..") ? !parse_span(b, len - 1, &lo, &hi) : ns_parse_i64(b, &lo) != 0)
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected octal(D) or octal(lo..hi), D the code digits",
                            ax->name, val);
    if (!strstr(b, ".."))
        hi = lo;
    if (lo < 1 || hi > NS_CENSUS_MAX_DIGITS || lo > hi)
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: expected code digits 1 <= lo <= hi <= %d", ax->name, val,
                            NS_CENSUS_MAX_DIGITS);
    uint64_t n = 0;
    for (int64_t d = lo; d <= hi; d++)
        n += ns_census_count((int)d);
    if (n > cap)
        return ns_error_set(err, NS_EINVAL, "-D %s=%s: too many codes (more than %" PRIu64 " variants in all, the most a sweep takes is %d)",
                            ax->name, val, cap, NS_SWEEP_MAX_VARIANTS);
    ax->kind = 3;
    ax->n = (size_t)n;
    ax->digits_lo = (int)lo;
    ax->digits_hi = (int)hi;
    return NS_OK;
}

ns_err ns_sweep_ranges_add(ns_sweep_ranges *r, const char *assign, ns_error *err)
{
    const char *eq = strchr(assign, '=');
    if (!eq || eq == assign || (size_t)(eq - assign) >= NS_PARAM_NAME_LEN || !eq[1])
        return ns_error_set(err, NS_EINVAL, "-D %s: expected name=RANGE (lo..hi, v1,v2,.., subsets(lo..hi,k), subsets(lo..hi), octal(D))",
                            assign);
    if (r->naxes >= NS_PARAMS_MAX)
        return ns_error_set(err, NS_EINVAL, "-D %s: at most %d parameters", assign, NS_PARAMS_MAX);
    ns_sweep_axis ax = {0};
    memcpy(ax.name, assign, (size_t)(eq - assign));
    const char *val = eq + 1;
    if (strlen(val) >= NS_PARAM_TEXT_LEN)
        return ns_error_set(err, NS_EINVAL, "-D %s: the range is too long (at most %d characters)", ax.name,
                            NS_PARAM_TEXT_LEN - 1);
    snprintf(ax.text, sizeof ax.text, "%s", val);
    for (int i = 0; i < r->naxes; i++)
        if (strcmp(r->ax[i].name, ax.name) == 0)
            return ns_error_set(err, NS_EINVAL, "-D %s: parameter '%s' given twice", assign, ax.name);
    const uint64_t cap = NS_SWEEP_MAX_VARIANTS / r->nvariants;
    ns_err rc;
    if (strncmp(val, "subsets(", 8) == 0)
        rc = parse_subsets(&ax, val, cap, err);
    else if (strncmp(val, "octal(", 6) == 0)
        rc = parse_octal(&ax, val, cap, err);
    else if (strchr(val, '.') && !strstr(val, "..")) {
        ax.kind = 2;   /* a code: one value */
        ax.n = 1;
        rc = NS_OK;
    } else
        rc = parse_ints(&ax, val, cap, err);
    if (!rc && ax.n > cap)
        rc = ns_error_set(err, NS_EINVAL, "-D %s: %zu values make more than %d variants in all", assign, ax.n,
                          NS_SWEEP_MAX_VARIANTS);
    if (rc) {
        free(ax.v);
        free(ax.mask);
        return rc;
    }
    r->ax[r->naxes++] = ax;
    r->nvariants *= ax.n;
    return NS_OK;
}

ns_err ns_sweep_ranges_variant(const ns_sweep_ranges *r, uint64_t i, ns_params *ps, ns_error *err)
{
    memset(ps, 0, sizeof *ps);
    if (i >= r->nvariants)
        return ns_error_set(err, NS_EINTERNAL, "sweep: variant %" PRIu64 " of %" PRIu64, i, r->nvariants);
    /* the last axis varies fastest */
    size_t idx[NS_PARAMS_MAX];
    for (int a = r->naxes - 1; a >= 0; a--) {
        idx[a] = (size_t)(i % r->ax[a].n);
        i /= r->ax[a].n;
    }
    for (int a = 0; a < r->naxes; a++) {
        const ns_sweep_axis *ax = &r->ax[a];
        ns_err rc;
        if (ax->kind == 2) {
            rc = ns_params_set_text(ps, ax->name, ax->text, err);
        } else if (ax->kind == 3) {
            size_t j = idx[a];
            int d = ax->digits_lo;
            while (j >= ns_census_count(d))
                j -= ns_census_count(d++);
            char code[NS_CENSUS_CODE_LEN];
            ns_census_code(d, j, code);
            rc = ns_params_set_text(ps, ax->name, code, err);
        } else if (ax->kind == 1) {
            int64_t v[64];
            int n = 0;
            for (int j = 0; j < 64; j++)
                if (ax->mask[idx[a]] >> j & 1)
                    v[n++] = ax->base_lo + j;
            rc = ns_params_set(ps, ax->name, v, n, err);
        } else {
            rc = ns_params_set(ps, ax->name, &ax->v[idx[a]], 1, err);
        }
        if (rc)
            return rc;
    }
    return NS_OK;
}

ns_err ns_sweep_build_variant(void *user, uint64_t i, ns_game **g, ns_error *err)
{
    const ns_sweep_spec *b = user;
    ns_params ps;
    ns_err rc;
    *g = NULL;
    if ((rc = ns_sweep_ranges_variant(b->r, i, &ps, err)) || (rc = ns_game_build(b->spec, &ps, 0, g, err)))
        return rc;
    const int64_t bounds[2] = {b->size, b->size};
    if ((*g)->k <= 2 && (rc = ns_game_set_bounds(*g, bounds, err))) {
        ns_game_free(*g);
        *g = NULL;
    }
    return rc;
}

/* ---- the driver ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* append text to buf at *u, never past len */
static void cf_put(char *buf, size_t len, size_t *u, const char *text)
{
    if (*u < len)
        *u += (size_t)snprintf(buf + *u, len - *u, "%s", text);
}

void ns_sweep_cf_text(const ns_recog *r, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    if (r->iv.lo_den == 0)
        return;
    /* the terms and, for a quadratic irrational, where its period starts */
    const int64_t *v = r->kind != NS_RECOG_NONE ? r->ccf : r->cf;
    const int n = r->kind == NS_RECOG_QUADRATIC ? r->pre + r->per : r->kind == NS_RECOG_RATIONAL ? r->ccf_n : r->nterms;
    const int open = r->kind == NS_RECOG_QUADRATIC ? r->pre : -1;
    const char *tail = r->kind == NS_RECOG_QUADRATIC ? ")]" : "]";
    size_t u = 0;
    cf_put(buf, len, &u, "[");
    for (int i = 0; i < n; i++) {
        char term[48];
        snprintf(term, sizeof term, "%s%s%" PRId64, i == 0 ? "" : i == 1 ? "; " : ", ", i == open ? "(" : "", v[i]);
        if (i == open && i == 0)
            snprintf(term, sizeof term, "(%" PRId64, v[i]);
        /* room for this term and the longest ending, ", ...)]" */
        if (u + strlen(term) + strlen(tail) + 8 >= len) {
            cf_put(buf, len, &u, ", ...");
            break;
        }
        cf_put(buf, len, &u, term);
    }
    cf_put(buf, len, &u, tail);
}

/* row->checks: every theorem of ns_check that applies to g, run on t */
static ns_err summarise_checks(const ns_game *g, const ns_table *t, ns_sweep_row *row, ns_error *err)
{
    size_t u = 0;
    const size_t len = sizeof row->checks;
    row->checks[0] = '\0';
    ns_check_result *r = malloc(sizeof *r);
    if (!r)
        return ns_error_set(err, NS_ENOMEM, "sweep checks: out of memory");
    ns_err rc = NS_OK;
    for (const ns_check_theorem *const *th = ns_check_theorems; *th; th++) {
        int applies = 0;
        ns_error e = {0};
        const ns_err c = ns_check_run(*th, g, t, r, &applies, &e);
        if (!applies && (!c || c == NS_EINVAL))
            continue;
        if (c) {
            rc = ns_error_set(err, c, "sweep check %s: %s", (*th)->name, e.msg);
            break;
        }
        char item[64];
        if (r->mismatches)
            snprintf(item, sizeof item, "%s%s:FAIL(%" PRIu64 ")", u ? "," : "", (*th)->name, r->mismatches);
        else
            snprintf(item, sizeof item, "%s%s:ok", u ? "," : "", (*th)->name);
        if (u + strlen(item) + 5 > len) {   /* never cut a verdict: ",..." says more applied */
            snprintf(row->checks + u, len - u, ",...");
            break;
        }
        u += (size_t)snprintf(row->checks + u, len - u, "%s", item);
    }
    free(r);
    return rc;
}

/* two piles: the P-positions as a sequence (slopes, complementarity,
 * Beatty brackets, constants) and the additive periods of the first rows */
static ns_err summarise_two(const ns_table *t, ns_sweep_row *row, ns_error *err)
{
    ns_pseq s;
    ns_error e2 = {0};
    if (ns_patterns_pseq(t, &s, &e2) == NS_OK) {
        if (s.ok) {
            if (s.fit_a.ok)
                row->slope_a = s.fit_a.slope;
            if (s.fit_b.ok)
                row->slope_b = s.fit_b.slope;
            row->complementary = s.complementary;
            row->beatty = s.beatty_a && s.beatty_b;
            if (s.rec_a.kind != NS_RECOG_NONE)
                snprintf(row->const_a, sizeof row->const_a, "%s", s.rec_a.c.text);
            if (s.rec_b.kind != NS_RECOG_NONE)
                snprintf(row->const_b, sizeof row->const_b, "%s", s.rec_b.c.text);
            ns_sweep_cf_text(&s.rec_a, row->cf_a, sizeof row->cf_a);
            ns_sweep_cf_text(&s.rec_b, row->cf_b, sizeof row->cf_b);
        }
        ns_pseq_free(&s);
    } else if (e2.code == NS_ENOMEM) {
        return ns_error_set(err, NS_ENOMEM, "%s", e2.msg);
    }
    if (t->pn_only)
        return NS_OK;
    /* the first rows only: a view of them (rows are contiguous) */
    ns_table view = *t;
    view.bounds[0] = t->bounds[0] < NS_SWEEP_ADDITIVE_ROWS ? t->bounds[0] : NS_SWEEP_ADDITIVE_ROWS;
    view.ncells = (uint64_t)view.bounds[0] * (uint64_t)t->bounds[1];
    ns_row_period rp[NS_SWEEP_ADDITIVE_ROWS];
    ns_err rc = ns_patterns_additive_rows(&view, 0, rp, err);
    if (rc)
        return rc;
    for (int64_t x = 0; x < view.bounds[0]; x++)
        if (rp[x].found) {
            row->rows_additive++;
            if (rp[x].p > row->additive_pmax)
                row->additive_pmax = rp[x].p;
        }
    return NS_OK;
}

ns_err ns_sweep_summarise(const ns_game *g, const ns_table *t, ns_sweep_row *row, ns_error *err)
{
    const double seconds = row->seconds;
    memset(row, 0, sizeof *row);
    row->seconds = seconds;
    row->piles = t->k;
    row->size = t->bounds[0];
    row->slope_a = row->slope_b = NAN;
    const uint32_t inv = ns_table_invalid(t);
    for (uint64_t c = 0; c < t->ncells; c++) {
        const uint32_t v = ns_table_get(t, c);
        row->p_positions += v == 0;
        if (v != inv && (int64_t)v > row->max_value)
            row->max_value = v;
    }
    /* the checks, the P-positions and the rows read every cell: a symmetric game's table
     * holds each class of positions once, so they read a copy with the
     * mirrored cells filled (as `check` and `patterns` read its file) */
    ns_table *full = NULL;
    const ns_table *ft = t;
    ns_err rc = NS_OK;
    if (g->nsym) {
        if (!(full = ns_table_new(t->k, t->bounds, t->elem, t->pn_only, err)))
            return err->code ? err->code : NS_ENOMEM;
        memcpy(full->data, t->data, (size_t)t->ncells * (size_t)t->elem);
        ns_sym_fill(full, g->nsym, g->sym);
        ft = full;
    }
    if ((rc = summarise_checks(g, ft, row, err)))
        goto done;
    if (t->k == 1) {
        if (g->octal) {
            rc = ns_sweep_summarise_octal(g, t, row, err);
            goto done;
        }
        ns_period p;
        if ((rc = ns_patterns_period(g, t, 0, &p, err)))
            goto done;
        if (p.found) {
            row->preperiod = p.preperiod;
            row->period = p.period;
            row->saltus = p.saltus;
            row->proven = p.proven;
        }
        goto done;
    }
    rc = summarise_two(ft, row, err);
done:
    ns_table_free(full);
    return rc;
}

/* Build, solve and summarise variant i; *g and *t are the caller's (also on
 * failure: free both). */
static ns_err solve_one(uint64_t i, const ns_sweep_job *job, ns_sweep_row *row, ns_game **g, ns_table **t,
                        ns_error *err)
{
    const double t0 = now_s();
    ns_err rc = job->build(job->user, i, g, err);
    if (rc)
        return rc;
    if ((*g)->k != 1 && (*g)->k != 2)
        return ns_error_set(err, NS_EINVAL, "the game has %d piles: a sweep takes one- or two-pile games", (*g)->k);
    if (!(*t = ns_engine_table_new(*g, 0, err)))
        return err->code ? err->code : NS_ENOMEM;
    ns_engine_opts opts = {.threads = job->inner_threads > 1 ? job->inner_threads : 1};
    /* a take-and-break game stops at a proven period, the rest follows from it */
    ns_sweep_until until = {.t = *t, .octal = (*g)->octal};
    if ((*g)->octal && (*g)->k == 1 && !opts.pn_only) {
        opts.checkpoint = ns_sweep_octal_stop;
        opts.checkpoint_user = &until;
    }
    if (job->fill && job->fill(job->fill_user, i, *g, *t))
        rc = NS_OK;
    else
        rc = ns_engine_run(*g, *t, &opts, err);
    if (rc == NS_EINTR && until.at > 0) {
        ns_sweep_octal_extend(*t, &until);
        memset(err, 0, sizeof *err);
        rc = NS_OK;
    }
    if (rc || (rc = ns_sweep_summarise(*g, *t, row, err)))
        return rc;
    row->seconds = now_s() - t0;
    return NS_OK;
}

/* a finished variant waiting for its turn in the ordered stage */
typedef struct held {
    int ready;
    ns_sweep_row row;
    ns_game *g;
    ns_table *t;
} held;

static void held_clear(held *h)
{
    ns_table_free(h->t);
    ns_game_free(h->g);
    h->t = NULL;
    h->g = NULL;
    h->ready = 0;
}

ns_err ns_sweep_run(const ns_sweep_job *job, ns_sweep_row *rows, ns_error *err)
{
    if (!job->build || job->first > job->n)
        return ns_error_set(err, NS_EINVAL, "sweep: no builder, or first variant %" PRIu64 " past %" PRIu64, job->first,
                            job->n);
    const int threads = job->threads > 0 ? job->threads : ns_omp_max_threads();
    const uint64_t first = job->first, n = job->n, total = n - first;
    const uint64_t window = job->window ? job->window : 4 * (uint64_t)threads;
    /* the ordered stage: a ring of window + threads slots, slot i % cap */
    const uint64_t cap = window + (uint64_t)threads + 1;
    held *ring = NULL;
    if (job->each && total && !(ring = calloc(cap, sizeof *ring)))
        return ns_error_set(err, NS_ENOMEM, "sweep: out of memory for %" PRIu64 " held variants", cap);
    int failed = 0;
    uint64_t ndone = 0, next = first, first_bad = UINT64_MAX;
    ns_error firste = {0};
    const long long lo = (long long)first, hi = (long long)n;
    NS_OMP_FOR_DYNAMIC1(threads)
    for (long long ii = lo; ii < hi; ii++) {
        int stop;
        NS_PRAGMA(omp atomic read)
        stop = failed;
        if (stop)
            continue;
        if (ring) {
            /* do not run more than window ahead of the next to deliver: the
             * variants before ii were all handed out (dynamic schedule, in
             * order), so next advances */
            for (;;) {
                uint64_t nx;
                NS_PRAGMA(omp atomic read)
                nx = next;
                NS_PRAGMA(omp atomic read)
                stop = failed;
                if (stop || (uint64_t)ii < nx + window)
                    break;
                const struct timespec ts = {0, 200000};
                nanosleep(&ts, NULL);
            }
            if (stop)
                continue;
        }
        ns_error e = {0};
        ns_sweep_row row = {0};
        ns_game *g = NULL;
        ns_table *t = NULL;
        const ns_err rc = solve_one((uint64_t)ii, job, &row, &g, &t, &e);
        if (rows && !rc)
            rows[ii - lo] = row;
        if (!ring || rc) {
            ns_table_free(t);
            ns_game_free(g);
            t = NULL;
            g = NULL;
        }
        NS_PRAGMA(omp critical(ns_sweep))
        {
            if (rc) {
                /* the lowest failing variant's message, whatever the order */
                if ((uint64_t)ii < first_bad) {
                    first_bad = (uint64_t)ii;
                    ns_error_set(&firste, rc, "variant %lld: %s", ii, e.msg);
                }
                NS_PRAGMA(omp atomic write)
                failed = 1;
            } else {
                ndone++;
                int halt = 0;
                if (ring) {
                    held *h = &ring[(uint64_t)ii % cap];
                    h->ready = 1;
                    h->row = row;
                    h->g = g;
                    h->t = t;
                    /* deliver every ready variant in order */
                    while (!failed && !halt && next < n && ring[next % cap].ready) {
                        held *d = &ring[next % cap];
                        halt = job->each(job->each_user, next, &d->row, d->g, d->t);
                        held_clear(d);
                        NS_PRAGMA(omp atomic update)
                        next++;
                    }
                }
                if (!halt && job->progress && !failed)
                    halt = job->progress(job->progress_user, ndone, total);
                if (halt) {
                    if (first_bad == UINT64_MAX)
                        ns_error_set(&firste, NS_EINTR, "interrupted after %" PRIu64 " of %" PRIu64 " variants",
                                     (ring ? next : first + ndone), n);
                    NS_PRAGMA(omp atomic write)
                    failed = 1;
                }
            }
        }
    }
    if (ring)
        for (uint64_t k = 0; k < cap; k++)
            held_clear(&ring[k]);
    free(ring);
    if (failed)
        return ns_error_set(err, firste.code, "%s", firste.msg);
    return NS_OK;
}
