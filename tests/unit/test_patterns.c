/* test_patterns.c - pattern finding on engine tables, checked against
 * independent sources:
 *   periods of subtraction games against a naive mex recursion written
 *     here, over a much longer stretch than the table (out of sample), and
 *     the proof bound n0 + smax + p - 1 exactly at the table's edge;
 *   additive periods of Wythoff rows found in a 160 x 160 table hold in a
 *     160 x 700 table; rows 0, 1, 2 have (y0, p) = (0, 1), (0, 3), (0, 3)
 *     (G(0,y) = y; G(1,y): 1,2,0,4,5,3,... as in OEIS A317205);
 *   Wythoff's P-positions: b_n - a_n = n, complementary, slopes phi and
 *     phi^2 recognised as (1+sqrt(5))/2 and (3+sqrt(5))/2; a-Wythoff a = 2:
 *     sqrt(2) and 2+sqrt(2), differences 2n (Fraenkel) (the recogniser
 *     itself: test_constant.c);
 *   the P-positions lie within f/phi / sqrt(1+phi^2) < 0.34 of y = phi x
 *     (b_n - phi a_n = frac(n phi) / phi). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_exact.h"
#include "analysis/ns_patterns.h"
#include "testutil.h"
#include "tsolve.h"

/* G(0..n-1) of the subtraction game S by the plain recursion */
static uint32_t *naive_sub(const int64_t *S, int ns, int64_t n)
{
    uint32_t *g = malloc((size_t)n * sizeof *g);
    for (int64_t i = 0; i < n; i++) {
        uint64_t seen = 0;
        for (int j = 0; j < ns; j++)
            if (S[j] <= i)
                seen |= 1ull << g[i - S[j]];
        uint32_t m = 0;
        while (seen & (1ull << m))
            m++;
        g[i] = m;
    }
    return g;
}

static void sub_case(const char *set_text, const int64_t *S, int ns, int64_t size)
{
    int64_t smax = 0;
    for (int j = 0; j < ns; j++)
        smax = S[j] > smax ? S[j] : smax;
    char params[80];
    snprintf(params, sizeof params, "set=%s", set_text);
    const int64_t b[1] = {size};
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game("subtraction", params, 1, b, 0, 0, 0, &g);
    CHECK(t != NULL);
    if (!t)
        return;
    ns_period p;
    ns_error e = {0};
    CHECK(ns_patterns_period(g, t, 0, &p, &e) == NS_OK);
    CHECKF(p.found && p.saltus == 0, "S={%s}: no period found", set_text);
    const int64_t L = 20000;
    uint32_t *v = naive_sub(S, ns, L);
    /* the period holds far beyond the table, the preperiod is minimal, and
     * no smaller period holds from anywhere in the long sequence's tail */
    int64_t bad = 0;
    for (int64_t n = p.preperiod; n + p.period < L; n++)
        bad += v[n + p.period] != v[n];
    CHECKF(bad == 0, "S={%s}: period %" PRId64 " from %" PRId64 " fails %" PRId64 " times", set_text, p.period,
           p.preperiod, bad);
    if (p.preperiod > 0)
        CHECK(v[p.preperiod - 1 + p.period] != v[p.preperiod - 1]);
    for (int64_t q = 1; q < p.period; q++) {
        int holds = 1;
        for (int64_t n = L / 2; n + q < L && holds; n++)
            holds = v[n + q] == v[n];
        CHECKF(!holds, "S={%s}: smaller period %" PRId64 " holds", set_text, q);
    }
    CHECK(p.smax == smax);
    CHECK(p.proven == (p.preperiod + smax + p.period - 1 <= size - 1));
    free(v);
    ns_table_free(t);
    ns_game_free(g);
}

static void test_periods(void)
{
    const int64_t s1[] = {1, 3, 4}, s2[] = {2, 5, 6}, s3[] = {3, 4, 9}, s4[] = {1, 4, 10};
    sub_case("1,3,4", s1, 3, 300);
    sub_case("2,5,6", s2, 3, 600);
    sub_case("3,4,9", s3, 3, 2000);
    sub_case("1,4,10", s4, 3, 2000);

    /* S = {1,3,4}: 0 1 0 1 2 3 2 repeated (period 7, no preperiod); the proof
     * needs n0 + smax + p - 1 = 10, so a table of 11 cells proves it */
    const int64_t b11[1] = {11}, b10[1] = {10};
    ns_game *g = NULL;
    ns_table *t = ns_tsolve_game("subtraction", "set=1,3,4", 1, b11, 0, 0, 0, &g);
    ns_period p;
    CHECK(t && ns_patterns_period(g, t, 0, &p, NULL) == NS_OK);
    CHECK(p.found && p.period == 7 && p.preperiod == 0 && p.proven && p.proof_needs == 10);
    ns_table_free(t);
    ns_game_free(g);
    t = ns_tsolve_game("subtraction", "set=1,3,4", 1, b10, 0, 0, 0, &g);
    CHECK(t && ns_patterns_period(g, t, 0, &p, NULL) == NS_OK);
    CHECK(!p.found || !p.proven);
    ns_table_free(t);
    ns_game_free(g);

    /* Bash m=3: period 4, in Grundy, P/N and misere tables */
    const int64_t b100[1] = {100};
    for (int pn = 0; pn <= 1; pn++)
        for (int mis = 0; mis <= 1; mis++) {
            t = ns_tsolve_game("bash", "m=3", 1, b100, mis, pn, 0, &g);
            CHECK(t && ns_patterns_period(g, t, 0, &p, NULL) == NS_OK);
            CHECKF(p.found && p.period == 4 && p.preperiod == 0 && p.proven, "bash pn=%d misere=%d: p=%" PRId64, pn, mis,
                   p.period);
            ns_table_free(t);
            ns_game_free(g);
        }
    /* one-pile Nim: G(n) = n, arithmetic period 1 with saltus 1, not proven */
    t = ns_tsolve_game("nim", "piles=1", 1, b100, 0, 0, 0, &g);
    CHECK(t && ns_patterns_period(g, t, 0, &p, NULL) == NS_OK);
    CHECK(p.found && p.period == 1 && p.saltus == 1 && p.preperiod == 0 && !p.proven);
    ns_table_free(t);
    ns_game_free(g);
    /* sequence API: no period in 0,1,2,...; none either in a random-looking one */
    uint32_t seq[64];
    for (int i = 0; i < 64; i++)
        seq[i] = (uint32_t)((i * 2654435761u) >> 27);
    ns_patterns_period_seq(seq, 64, -1, 0, 0, &p);
    CHECK(!p.found);
}

static void test_rows(void)
{
    const int64_t b[2] = {160, 160}, big[2] = {160, 700};
    ns_table *t = ns_tsolve("wythoff", "", 2, b, 0, 0, 0);
    ns_table *T = ns_tsolve("wythoff", "", 2, big, 0, 0, 0);
    CHECK(t && T);
    if (!t || !T)
        return;
    ns_row_period *rows = calloc(160, sizeof *rows);
    CHECK(ns_patterns_additive_rows(t, 0, rows, NULL) == NS_OK);
    CHECK(rows[0].found && rows[0].y0 == 0 && rows[0].p == 1);
    CHECK(rows[1].found && rows[1].y0 == 0 && rows[1].p == 3);
    CHECK(rows[2].found && rows[2].y0 == 0 && rows[2].p == 3);
    int nfound = 0;
    int64_t bad = 0;
    for (int64_t x = 0; x < 160; x++) {
        if (!rows[x].found)
            continue;
        nfound++;
        for (int64_t y = rows[x].y0; y + rows[x].p < 700; y++) {
            int64_t s0[NS_MAX_DIM] = {x, y}, s1[NS_MAX_DIM] = {x, y + rows[x].p};
            bad += (int64_t)ns_table_get(T, ns_table_index(T, s1)) - (int64_t)ns_table_get(T, ns_table_index(T, s0)) !=
                   rows[x].p;
        }
    }
    CHECKF(bad == 0, "%" PRId64 " failures of the found row periods in the larger table", bad);
    CHECK(nfound >= 5);
    ns_table *pn = ns_tsolve("wythoff", "", 2, b, 0, 1, 0);
    ns_error e = {0};
    CHECK(ns_patterns_additive_rows(pn, 0, rows, &e) == NS_EINVAL);
    free(rows);
    ns_table_free(pn);
    ns_table_free(t);
    ns_table_free(T);
}

static void test_pseq(void)
{
    const int64_t b[2] = {400, 400};
    ns_table *t = ns_tsolve("wythoff", "", 2, b, 0, 1, 0);
    ns_pseq s;
    CHECK(t && ns_patterns_pseq(t, &s, NULL) == NS_OK && s.ok);
    int64_t n = 0;
    while (ns_floor_phi2(n + 1) < 400)
        n++;
    CHECK(s.n == n && s.origin_p && s.diagonal == 0);
    int bad = 0;
    for (int64_t i = 0; i < s.n; i++)
        bad += s.a[i] != ns_floor_phi(i + 1) || s.b[i] != ns_floor_phi2(i + 1);
    CHECK(bad == 0);
    CHECK(s.complementary && s.repeated == -1);
    /* every v up to the first a_n whose partner is >= 400 is covered */
    int64_t m = 1;
    while (ns_floor_phi2(m) < 400)
        m++;
    CHECK(s.cover_to == ns_floor_phi(m) - 1);
    CHECK(s.diff_is_index && s.diff_step == 1 && s.diff_increasing);
    double phi = (1 + sqrt(5.0)) / 2;
    CHECK(fabs(s.fit_a.slope - phi) < 4 * s.fit_a.slope_se + 1e-9);
    CHECK(fabs(s.fit_b.slope - phi * phi) < 4 * s.fit_b.slope_se + 1e-9);
    CHECKF(s.rec_a.kind == NS_RECOG_QUADRATIC && strcmp(s.rec_a.c.text, "(1+sqrt(5))/2") == 0, "a: '%s'", s.rec_a.c.text);
    CHECKF(s.rec_b.kind == NS_RECOG_QUADRATIC && strcmp(s.rec_b.c.text, "(3+sqrt(5))/2") == 0, "b: '%s'", s.rec_b.c.text);
    CHECKF(strcmp(s.rec_line.c.text, "(1+sqrt(5))/2") == 0, "line: '%s'", s.rec_line.c.text);
    CHECK(fabs(s.beatty_sum - 1) < 1e-3);
    ns_pseq_free(&s);
    ns_table_free(t);

    t = ns_tsolve("a-wythoff", "a=2", 2, b, 0, 1, 0);
    CHECK(t && ns_patterns_pseq(t, &s, NULL) == NS_OK && s.ok);
    CHECK(s.diff_is_index && s.diff_step == 2 && s.complementary);
    CHECKF(strcmp(s.rec_a.c.text, "sqrt(2)") == 0, "a-wythoff a: '%s'", s.rec_a.c.text);
    CHECKF(strcmp(s.rec_b.c.text, "2+sqrt(2)") == 0, "a-wythoff b: '%s'", s.rec_b.c.text);
    ns_pseq_free(&s);
    ns_table_free(t);

    const int64_t b50[2] = {50, 50};
    t = ns_tsolve("nim", "piles=2", 2, b50, 0, 1, 0);
    CHECK(t && ns_patterns_pseq(t, &s, NULL) == NS_OK && !s.ok && s.diagonal == 49);
    CHECK(strstr(s.why_not, "no P-positions above the diagonal") != NULL);
    ns_table_free(t);
    t = ns_tsolve("euclid", "", 2, b50, 0, 1, 0);
    CHECK(t && ns_patterns_pseq(t, &s, NULL) == NS_OK && !s.ok && strstr(s.why_not, "two P-positions") != NULL);
    ns_table_free(t);
}

static void test_gvalues(void)
{
    const int64_t b[2] = {300, 300};
    ns_table *t = ns_tsolve("wythoff", "", 2, b, 0, 0, 0);
    ns_gvalue gv[4];
    double phi = (1 + sqrt(5.0)) / 2;
    CHECK(t && ns_patterns_gvalues(t, phi, 3, gv, NULL) == NS_OK);
    int64_t np = 1;
    for (int64_t n = 1; ns_floor_phi2(n) < 300; n++)
        np += 2;
    CHECK(gv[0].count == (uint64_t)np);
    CHECK(gv[0].max_dist < 0.34);
    for (int g = 1; g <= 3; g++) {
        /* each row holds each value once (a row is a ray of options) */
        CHECK(gv[g].count >= 200 && gv[g].count <= 300);
        CHECK(gv[g].max_dist_far < 5.0);
    }
    CHECK(ns_patterns_gvalues(t, 0.5, 3, gv, NULL) == NS_EINVAL);
    ns_table_free(t);
}

int main(void)
{
    test_periods();
    test_rows();
    test_pseq();
    test_gvalues();
    return TEST_REPORT();
}
