/* test_sweep_conj.c - conjectures from a sweep's catalogue (issue 20):
 * synthetic catalogues with known laws (exact integer linear laws, closed
 * forms of slopes), noisy ones that must give no law, and a real a-Wythoff
 * sweep a = 1..10 whose slopes must be Fraenkel's alpha = (2 - a +
 * sqrt(a^2 + 4))/2 and beta = alpha + a, ranked first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_sweep.h"
#include "analysis/ns_sweep_conj.h"
#include "game/ns_build.h"
#include "testutil.h"

enum { MAXN = 64 };

static void set_int(ns_params *ps, const char *name, int64_t v)
{
    ns_error e = {0};
    ns_params_set(ps, name, &v, 1, &e);
}

/* the statement of field `field` and kind `kind`, the first one, or NULL */
static const ns_conj *find(const ns_conj *c, size_t n, ns_conj_kind kind, const char *field)
{
    for (size_t i = 0; i < n; i++)
        if (c[i].kind == kind && strcmp(c[i].field, field) == 0)
            return &c[i];
    return NULL;
}

static size_t count(const ns_conj *c, size_t n, ns_conj_kind kind, const char *field)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += c[i].kind == kind && strcmp(c[i].field, field) == 0;
    return k;
}

/* one pile, a = 1..20: period 2a + 3, preperiod 0, every period proven */
static void test_linear_one_param(void)
{
    ns_params ps[MAXN];
    int64_t pp[MAXN], pre[MAXN], per[MAXN];
    uint8_t prov[MAXN];
    const size_t n = 20;
    for (size_t i = 0; i < n; i++) {
        memset(&ps[i], 0, sizeof ps[i]);
        set_int(&ps[i], "a", (int64_t)i + 1);
        per[i] = 2 * ((int64_t)i + 1) + 3;
        pre[i] = 0;
        pp[i] = 1000 / per[i];
        prov[i] = 1;
    }
    ns_conj_data d = {.n = n, .piles = 1, .size = 1000, .params = ps, .p_positions = pp, .preperiod = pre,
                      .period = per, .proven = prov};
    ns_conj *c = NULL;
    size_t nc = 0;
    ns_error err = {0};
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    const ns_conj *lin = find(c, nc, NS_CONJ_LINEAR, "period");
    CHECK(lin && lin->m == 2 && lin->c == 3 && lin->covered == n && lin->x_lo == 1 && lin->x_hi == 20 &&
          lin->all_proven);
    CHECK(lin && strstr(lin->text, "period = 2a + 3 for a = 1..20") && strstr(lin->text, "observed"));
    const ns_conj *k = find(c, nc, NS_CONJ_CONSTANT, "preperiod");
    CHECK(k && k->value == 0 && k->covered == n);
    CHECK(find(c, nc, NS_CONJ_CONSTANT, "periodic") != NULL);
    CHECK(find(c, nc, NS_CONJ_CONSTANT, "proven") != NULL);
    CHECK(count(c, nc, NS_CONJ_CONSTANT, "period") == 0);
    for (size_t i = 0; i < nc; i++)
        CHECKF(strstr(c[i].text, "proven") == NULL || c[i].all_proven, "%s", c[i].text);
    /* ranked: covered descending */
    for (size_t i = 1; i < nc; i++)
        CHECK(c[i - 1].covered >= c[i].covered);
    free(c);

    /* one period not proven: the law no longer says "each period proven" */
    prov[7] = 0;
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    lin = find(c, nc, NS_CONJ_LINEAR, "period");
    CHECK(lin && !lin->all_proven && !strstr(lin->text, "proven"));
    CHECK(find(c, nc, NS_CONJ_CONSTANT, "proven") == NULL);
    free(c);

    /* noise: one value off by one -> no linear law for period */
    prov[7] = 1;
    per[12] += 1;
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    CHECK(count(c, nc, NS_CONJ_LINEAR, "period") == 0);
    free(c);

    /* random noise in -1..1 on every value: no law (the chance that noise
     * leaves a line is checked by the naive fit below) */
    for (int rep = 0; rep < 50; rep++) {
        for (size_t i = 0; i < n; i++)
            per[i] = 2 * ((int64_t)i + 1) + 3 + (int64_t)(ns_test_rng() % 3) - 1;
        /* naive: is there any integer line through all points? */
        int line = 0;
        const int64_t m = per[1] - per[0];
        line = 1;
        for (size_t i = 0; i < n; i++)
            line &= per[i] == per[0] + m * (int64_t)i;
        CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
        CHECK((count(c, nc, NS_CONJ_LINEAR, "period") > 0) == (line && m != 0));
        free(c);
    }

    /* floor(3a/2): not an integer linear law */
    for (size_t i = 0; i < n; i++)
        per[i] = 3 * ((int64_t)i + 1) / 2;
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    CHECK(count(c, nc, NS_CONJ_LINEAR, "period") == 0);
    free(c);

    /* a period of 0 (none found) in a variant: not periodic, no law */
    for (size_t i = 0; i < n; i++)
        per[i] = 2 * ((int64_t)i + 1) + 3;
    per[4] = 0;
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    CHECK(count(c, nc, NS_CONJ_LINEAR, "period") == 0);
    CHECK(find(c, nc, NS_CONJ_CONSTANT, "periodic") == NULL);
    free(c);
}

/* two parameters: a = 1..6, m = 2,3,5 (m outer): period = m a + 1 */
static void test_linear_groups(void)
{
    ns_params ps[MAXN];
    int64_t pp[MAXN], pre[MAXN], per[MAXN];
    uint8_t prov[MAXN];
    const int64_t ms[3] = {2, 3, 5};
    size_t n = 0;
    for (int j = 0; j < 3; j++)
        for (int64_t a = 1; a <= 6; a++, n++) {
            memset(&ps[n], 0, sizeof ps[n]);
            set_int(&ps[n], "m", ms[j]);
            set_int(&ps[n], "a", a);
            per[n] = ms[j] * a + 1;
            pre[n] = 4;
            pp[n] = 7;
            prov[n] = 0;
        }
    ns_conj_data d = {.n = n, .piles = 1, .size = 500, .params = ps, .p_positions = pp, .preperiod = pre,
                      .period = per, .proven = prov};
    ns_conj *c = NULL;
    size_t nc = 0;
    ns_error err = {0};
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    int each = 0, bylaw = 0, law[3] = {0, 0, 0};
    for (size_t i = 0; i < nc; i++) {
        if (c[i].kind != NS_CONJ_LINEAR || strcmp(c[i].field, "period") != 0 || strcmp(c[i].param, "a") != 0)
            continue;
        if (c[i].m == 0 && c[i].covered == n && c[i].groups == 3 && !c[i].by[0])
            each++;
        /* the laws' slope m and intercept 1 are exactly linear in m: period = m a + 1 */
        if (c[i].by[0]) {
            bylaw++;
            CHECKF(strcmp(c[i].by, "m") == 0 && c[i].coef_linear == 3u && c[i].coef_m[0] == 1 &&
                       c[i].coef_c[0] == 0 && c[i].coef_m[1] == 0 && c[i].coef_c[1] == 1 && c[i].covered == n,
                   "%s", c[i].text);
            CHECKF(strstr(c[i].text, "period = m a + c with m = m, c = 1 for a = 1..6 and every m = 2..5"), "%s",
                   c[i].text);
        }
        for (int j = 0; j < 3; j++)
            law[j] += c[i].m == ms[j] && c[i].c == 1 && c[i].covered == 6 && c[i].groups == 1;
        CHECKF(strstr(c[i].text, "proven") == NULL, "%s", c[i].text);
    }
    CHECK(each == 1 && bylaw == 1 && law[0] == 1 && law[1] == 1 && law[2] == 1);
    /* period in m for fixed a: m a + 1 with m = 2, 3, 5 is linear in m with slope a */
    size_t in_m = 0;
    for (size_t i = 0; i < nc; i++)
        in_m += c[i].kind == NS_CONJ_LINEAR && strcmp(c[i].param, "m") == 0 && c[i].m >= 1 && c[i].c == 1;
    CHECK(in_m == 5);   /* six laws (a = 1..6), at most MAX_LAWS_PER_PAIR = 5 listed */
    CHECK(find(c, nc, NS_CONJ_CONSTANT, "preperiod") && find(c, nc, NS_CONJ_CONSTANT, "preperiod")->value == 4);
    CHECK(find(c, nc, NS_CONJ_CONSTANT, "p_positions") && find(c, nc, NS_CONJ_CONSTANT, "p_positions")->value == 7);
    free(c);
}

static double fraenkel_alpha(double a) { return (2.0 - a + sqrt(a * a + 4.0)) / 2.0; }

/* two piles, synthetic: slopes of known closed forms, within the tolerance */
static void test_closed_synthetic(void)
{
    ns_params ps[MAXN];
    int64_t pp[MAXN];
    double sa[MAXN], sb[MAXN];
    const size_t n = 10;
    const int64_t K = 2000;
    for (size_t i = 0; i < n; i++) {
        const double a = (double)(i + 1);
        memset(&ps[i], 0, sizeof ps[i]);
        set_int(&ps[i], "a", (int64_t)i + 1);
        pp[i] = 2 * K + 1;
        /* off by half the tolerance, alternately */
        const double off = (i % 2 ? 0.5 : -0.5) * ns_conj_slope_tol(K);
        sa[i] = fraenkel_alpha(a) + off;
        sb[i] = (1.0 + a) / 2.0 - off;
    }
    ns_conj_data d = {.n = n, .piles = 2, .size = 100000, .params = ps, .p_positions = pp, .slope_a = sa,
                      .slope_b = sb};
    ns_conj *c = NULL;
    size_t nc = 0;
    ns_error err = {0};
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    const ns_conj *f = find(c, nc, NS_CONJ_CLOSED, "slope_a");
    CHECK(f && f->p == 2 && f->q == -1 && f->r == 1 && f->s == 0 && f->t == 4 && f->u == 2);
    CHECK(f && f->max_dev <= ns_conj_slope_tol(K) && f->max_dev >= 0.4 * ns_conj_slope_tol(K));
    CHECK(f && strstr(f->text, "slope_a = (2 - a + sqrt(a^2 + 4))/2 for a = 1..10") && strstr(f->text, "observed"));
    f = find(c, nc, NS_CONJ_CLOSED, "slope_b");
    CHECK(f && f->p == 1 && f->q == 1 && f->r == 0 && f->u == 2);
    CHECK(f && strstr(f->text, "slope_b = (1 + a)/2"));
    free(c);

    /* twice the tolerance off at one variant: no form for slope_a is the
     * true one (a simpler or other form may not match either) */
    sa[3] = fraenkel_alpha(4.0) + 2.0 * ns_conj_slope_tol(K);
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    f = find(c, nc, NS_CONJ_CLOSED, "slope_a");
    CHECK(!f || !(f->p == 2 && f->q == -1 && f->r == 1 && f->s == 0 && f->t == 4 && f->u == 2));
    free(c);

    /* noise: random slopes in [1, 3) with a tight tolerance -> no form */
    for (int rep = 0; rep < 20; rep++) {
        for (size_t i = 0; i < n; i++) {
            sa[i] = 1.0 + 2.0 * (double)(ns_test_rng() % 1000000) / 1e6;
            sb[i] = 2.0 + 2.0 * (double)(ns_test_rng() % 1000000) / 1e6;
            pp[i] = 2 * 100000 + 1;
        }
        CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
        CHECK(count(c, nc, NS_CONJ_CLOSED, "slope_a") == 0 && count(c, nc, NS_CONJ_CLOSED, "slope_b") == 0);
        free(c);
    }
}

/* two piles, two parameters (synthetic, exact forms): per group of y a
 * closed form in x.
 *   shared: slope_a = (2 - x + sqrt(x^2 + 4))/2 whatever y is -> one
 *           statement over all groups;
 *   linear coefficients: slope_b = (y + x + sqrt(x^2 + 4))/2, y = 1..3 ->
 *           p = y, q = 1, r = 1, s = 0, t = 4, u = 2 for every y;
 *   one group off by twice the tolerance -> that group has no such form,
 *           so no statement claims all groups. */
static void test_closed_groups(void)
{
    ns_params ps[MAXN];
    int64_t pp[MAXN];
    double sa[MAXN], sb[MAXN];
    const int64_t K = 2000;
    size_t n = 0;
    for (int64_t y = 1; y <= 3; y++)
        for (int64_t x = 1; x <= 6; x++, n++) {
            memset(&ps[n], 0, sizeof ps[n]);
            set_int(&ps[n], "y", y);
            set_int(&ps[n], "x", x);
            pp[n] = 2 * K + 1;
            const double off = (n % 2 ? 0.5 : -0.5) * ns_conj_slope_tol(K), xd = (double)x;
            sa[n] = fraenkel_alpha(xd) + off;
            sb[n] = ((double)y + xd + sqrt(xd * xd + 4.0)) / 2.0 - off;
        }
    ns_conj_data d = {.n = n, .piles = 2, .size = 100000, .params = ps, .p_positions = pp, .slope_a = sa,
                      .slope_b = sb};
    ns_conj *c = NULL;
    size_t nc = 0;
    ns_error err = {0};
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    int shared = 0, full = 0, differ = 0;
    for (size_t i = 0; i < nc; i++) {
        const ns_conj *q = &c[i];
        if (q->kind != NS_CONJ_CLOSED || strcmp(q->param, "x") != 0)
            continue;
        if (strcmp(q->field, "slope_a") == 0) {
            /* no statement of slope_a in x depends on y */
            CHECKF(!q->by[0] && q->forms <= 1, "%s", q->text);
            if (q->covered == n && q->groups == 3 && q->p == 2 && q->q == -1 && q->r == 1 && q->s == 0 &&
                q->t == 4 && q->u == 2) {
                shared++;
                CHECKF(strstr(q->text, "slope_a = (2 - x + sqrt(x^2 + 4))/2 for x = 1..6, the same form for each "
                                       "value of y (3 groups): observed for all 18 variants"),
                       "%s", q->text);
            }
        } else {
            if (q->forms == 3 && !q->by[0] && q->covered == n) {
                differ++;
                CHECKF(strstr(q->text, "y=1: (1 + x + sqrt(x^2 + 4))/2; y=2: (2 + x + sqrt(x^2 + 4))/2; "
                                       "y=3: (3 + x + sqrt(x^2 + 4))/2") && strstr(q->text, "observed"),
                       "%s", q->text);
            }
            if (q->by[0]) {
                full++;
                CHECK(strcmp(q->by, "y") == 0 && q->coef_linear == 0x3fu && q->y_lo == 1 && q->y_hi == 3);
                const int64_t m[6] = {1, 0, 0, 0, 0, 0}, cc[6] = {0, 1, 1, 0, 4, 2};
                for (int j = 0; j < 6; j++)
                    CHECKF(q->coef_m[j] == m[j] && q->coef_c[j] == cc[j], "coef %d: %lld y + %lld", j,
                           (long long)q->coef_m[j], (long long)q->coef_c[j]);
                CHECKF(strstr(q->text, "with p = y, q = 1, r = 1, s = 0, t = 4, u = 2 for every y = 1..3"), "%s",
                       q->text);
            }
        }
    }
    CHECK(shared == 1 && full == 1 && differ == 1);
    free(c);

    /* y = 2, x = 4: slope_b off by twice the tolerance */
    sb[6 + 3] += 2.0 * ns_conj_slope_tol(K);
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    for (size_t i = 0; i < nc; i++)
        if (c[i].kind == NS_CONJ_CLOSED && strcmp(c[i].field, "slope_b") == 0 && strcmp(c[i].param, "x") == 0) {
            CHECKF(!c[i].by[0] && c[i].covered < n, "%s", c[i].text);
            CHECKF(c[i].groups < 3, "%s", c[i].text);
        }
    free(c);
}

/* tol(K): the bound 1.5 K / (K^2 - 1) is reached by the worst e_i in
 * [0, 1) (e_i = 1 on the first half, 0 on the second) up to 1 - epsilon */
static void test_tolerance(void)
{
    for (int64_t K = 2; K <= 200; K += 7) {
        double mi = 0, num = 0, den = 0;
        for (int64_t i = 1; i <= K; i++)
            mi += (double)i;
        mi /= (double)K;
        for (int64_t i = 1; i <= K; i++) {
            const double e = (double)i < mi ? 0.999999 : 0.0;
            num += ((double)i - mi) * e;
            den += ((double)i - mi) * ((double)i - mi);
        }
        CHECK(fabs(num / den) <= ns_conj_slope_tol(K) * (1 + 1e-12));
        CHECK(fabs(num / den) >= 0.99 * ns_conj_slope_tol(K) || K % 2);
    }
    CHECK(isinf(ns_conj_slope_tol(1)));
}

/* a real sweep: a-Wythoff a = 1..10 in [0,1024)^2 */
typedef struct bctx {
    ns_sweep_ranges *r;
} bctx;

static ns_err build(void *user, uint64_t i, ns_game **g, ns_error *err)
{
    const bctx *b = user;
    ns_params ps;
    ns_err rc;
    if ((rc = ns_sweep_ranges_variant(b->r, i, &ps, err)) || (rc = ns_game_build("a-wythoff", &ps, 0, g, err)))
        return rc;
    const int64_t bounds[2] = {1024, 1024};
    return ns_game_set_bounds(*g, bounds, err);
}

static void test_awythoff(void)
{
    ns_error err = {0};
    bctx b = {ns_sweep_ranges_new()};
    CHECK(b.r && ns_sweep_ranges_add(b.r, "a=1..10", &err) == NS_OK);
    const size_t n = 10;
    ns_sweep_row rows[10];
    ns_params ps[10];
    int64_t pp[10];
    double sa[10], sb[10];
    const ns_sweep_job job = {.n = n, .build = build, .user = &b, .threads = 2};
    CHECK(ns_sweep_run(&job, rows, &err) == NS_OK);
    for (size_t i = 0; i < n; i++) {
        CHECK(ns_sweep_ranges_variant(b.r, i, &ps[i], &err) == NS_OK);
        pp[i] = rows[i].p_positions;
        sa[i] = rows[i].slope_a;
        sb[i] = rows[i].slope_b;
    }
    ns_conj_data d = {.n = n, .piles = 2, .size = 1024, .params = ps, .p_positions = pp, .slope_a = sa,
                      .slope_b = sb};
    ns_conj *c = NULL;
    size_t nc = 0;
    CHECK(ns_sweep_conj_find(&d, &c, &nc, &err) == NS_OK);
    CHECK(nc >= 2);
    if (nc >= 2) {
        for (int j = 0; j < 2; j++) {
            CHECKF(c[j].kind == NS_CONJ_CLOSED && strcmp(c[j].field, j ? "slope_b" : "slope_a") == 0 &&
                       c[j].p == 2 && c[j].q == (j ? 1 : -1) && c[j].r == 1 && c[j].s == 0 && c[j].t == 4 &&
                       c[j].u == 2 && c[j].covered == n,
                   "%zu statements, #%d: %s", nc, j + 1, c[j].text);
        }
        printf("a-wythoff: %s\n", c[0].text);
    }
    /* independent: the slopes are within the tolerance of Fraenkel's form */
    for (size_t i = 0; i < n; i++) {
        const double a = (double)(i + 1), tol = ns_conj_slope_tol((pp[i] - 1) / 2);
        CHECK(fabs(sa[i] - fraenkel_alpha(a)) <= tol && fabs(sb[i] - fraenkel_alpha(a) - a) <= tol);
    }
    free(c);
    ns_sweep_ranges_free(b.r);
}

int main(void)
{
    test_tolerance();
    test_linear_one_param();
    test_linear_groups();
    test_closed_synthetic();
    test_closed_groups();
    test_awythoff();
    return TEST_REPORT();
}
