/* test_sweep_summary.c - the analysis columns of a sweep row (issue 20
 * item 1) where the CLI cannot reach them: a check that fails is recorded
 * as "name:FAIL(m)" with m the cells that disagree (one cell of a solved
 * a-Wythoff table changed: exactly one, since the theorem's other items,
 * the terms A_n, do not read the table), and the continued-fraction text
 * in the notation `patterns` prints ("[1; (2)]": the period in
 * parentheses), cut at a term boundary when the field is short. */
#include <stdio.h>
#include <string.h>

#include "analysis/ns_sweep.h"
#include "tsolve.h"
#include "testutil.h"

static void checks_fail(void)
{
    ns_game *g = NULL;
    const int64_t b[2] = {200, 200};
    ns_table *t = ns_tsolve_game("a-wythoff", "a=2", 2, b, 0, 0, 1, &g);
    CHECK(t && g);
    if (!t || !g) {
        ns_table_free(t);
        ns_game_free(g);
        return;
    }
    ns_error err = {0};
    ns_sweep_row row;
    CHECK(ns_sweep_summarise(g, t, &row, &err) == NS_OK);
    CHECKF(strcmp(row.checks, "a-wythoff:ok") == 0, "checks '%s'", row.checks);
    CHECK(row.complementary == 1 && row.beatty == 1);
    /* (0, 0) is a P-position of every a-Wythoff game: make it N */
    CHECK(ns_table_get(t, 0) == 0);
    ns_table_set(t, 0, 1);
    CHECK(ns_sweep_summarise(g, t, &row, &err) == NS_OK);
    CHECKF(strcmp(row.checks, "a-wythoff:FAIL(1)") == 0, "checks '%s'", row.checks);
    ns_table_free(t);
    ns_game_free(g);
}

static void cf_text(void)
{
    char buf[NS_SWEEP_CONST_LEN];
    ns_recog r;
    memset(&r, 0, sizeof r);
    ns_sweep_cf_text(&r, buf, sizeof buf);   /* no interval */
    CHECKF(strcmp(buf, "") == 0, "'%s'", buf);
    r.iv.lo_den = r.iv.hi_den = 1;
    r.kind = NS_RECOG_QUADRATIC;   /* sqrt(2) = [1; (2)] */
    r.pre = 1;
    r.per = 1;
    r.ccf[0] = 1;
    r.ccf[1] = 2;
    ns_sweep_cf_text(&r, buf, sizeof buf);
    CHECKF(strcmp(buf, "[1; (2)]") == 0, "'%s'", buf);
    r.pre = 0;   /* phi = [(1)] */
    r.ccf[0] = 1;
    ns_sweep_cf_text(&r, buf, sizeof buf);
    CHECKF(strcmp(buf, "[(1)]") == 0, "'%s'", buf);
    r.pre = 1;   /* sqrt(7) = [2; (1, 1, 1, 4)] */
    r.per = 4;
    const int64_t s7[5] = {2, 1, 1, 1, 4};
    memcpy(r.ccf, s7, sizeof s7);
    ns_sweep_cf_text(&r, buf, sizeof buf);
    CHECKF(strcmp(buf, "[2; (1, 1, 1, 4)]") == 0, "'%s'", buf);
    r.kind = NS_RECOG_RATIONAL;   /* 10/7 = [1; 2, 3] */
    r.ccf_n = 3;
    r.ccf[0] = 1;
    r.ccf[1] = 2;
    r.ccf[2] = 3;
    ns_sweep_cf_text(&r, buf, sizeof buf);
    CHECKF(strcmp(buf, "[1; 2, 3]") == 0, "'%s'", buf);
    r.kind = NS_RECOG_NONE;   /* the shared terms of the interval's ends */
    r.nterms = 2;
    r.cf[0] = 1;
    r.cf[1] = 5;
    ns_sweep_cf_text(&r, buf, sizeof buf);
    CHECKF(strcmp(buf, "[1; 5]") == 0, "'%s'", buf);
    /* too long for the field: cut after a whole term */
    r.nterms = NS_CONSTANT_CF;
    for (int i = 0; i < NS_CONSTANT_CF; i++)
        r.cf[i] = 123456789;
    ns_sweep_cf_text(&r, buf, 40);
    const size_t n = strlen(buf);
    CHECKF(n < 40 && n > 6 && strcmp(buf + n - 6, ", ...]") == 0, "'%s'", buf);
    CHECKF(strncmp(buf, "[123456789; 123456789", 21) == 0, "'%s'", buf);
    CHECKF(buf[n - 7] == '9', "'%s'", buf);
}

int main(void)
{
    checks_fail();
    cf_text();
    return TEST_REPORT();
}
