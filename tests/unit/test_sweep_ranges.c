/* test_sweep_ranges.c - the parameter ranges of `nimsieve sweep` (issue
 * 20): counts against binomial coefficients and 2^n - 1, the k-subsets
 * against nested loops written here, the product order, and bad ranges
 * refused with a message. */
#include <stdio.h>
#include <string.h>

#include "analysis/ns_sweep.h"
#include "testutil.h"

static ns_sweep_ranges *make(const char *const *d, int n, ns_err *rc, ns_error *err)
{
    ns_sweep_ranges *r = ns_sweep_ranges_new();
    *rc = NS_OK;
    for (int i = 0; i < n && !*rc; i++)
        *rc = ns_sweep_ranges_add(r, d[i], err);
    return r;
}

static int refused(const char *assign, const char *word)
{
    ns_error err = {0};
    ns_err rc;
    ns_sweep_ranges *r = make((const char *const[]){assign}, 1, &rc, &err);
    ns_sweep_ranges_free(r);
    const int ok = rc == NS_EINVAL && strstr(err.msg, word) && !strchr(err.msg, '\n');
    if (!ok)
        printf("  %s: rc %d, '%s' (expected '%s')\n", assign, (int)rc, err.msg, word);
    return ok;
}

int main(void)
{
    ns_error err = {0};
    ns_err rc;
    ns_params ps;
    char buf[256];

    /* a range, a list, their product in nested-loop order */
    ns_sweep_ranges *r = make((const char *const[]){"a=1..50", "m=2,3,5"}, 2, &rc, &err);
    CHECKF(rc == NS_OK, "%s", err.msg);
    CHECK(r->nvariants == 150);
    int good = 1;
    uint64_t i = 0;
    for (int a = 1; a <= 50; a++)
        for (int k = 0; k < 3; k++, i++) {
            const int m = (int[]){2, 3, 5}[k];
            char want[64];
            snprintf(want, sizeof want, "a=%d;m=%d", a, m);
            good &= ns_sweep_ranges_variant(r, i, &ps, &err) == NS_OK;
            ns_params_format(&ps, buf, sizeof buf);
            good &= strcmp(buf, want) == 0;
        }
    CHECK(good);
    ns_sweep_ranges_free(r);

    /* subsets(1..12,3): C(12,3) = 220; subsets(1..8): 2^8 - 1 = 255 */
    r = make((const char *const[]){"S=subsets(1..12,3)"}, 1, &rc, &err);
    CHECKF(rc == NS_OK && r->nvariants == 220, "%s", err.msg);
    ns_sweep_ranges_free(r);
    r = make((const char *const[]){"S=subsets(1..8)"}, 1, &rc, &err);
    CHECKF(rc == NS_OK && r->nvariants == 255, "%s", err.msg);
    /* every non-empty subset of 1..8 once */
    {
        static unsigned char seen[256];
        good = 1;
        for (i = 0; i < 255; i++) {
            good &= ns_sweep_ranges_variant(r, i, &ps, &err) == NS_OK && ps.n == 1;
            unsigned m = 0;
            for (int j = 0; j < ps.p[0].n; j++)
                m |= 1u << (ps.p[0].v[j] - 1);
            good &= m > 0 && m < 256 && !seen[m];
            seen[m] = 1;
        }
        CHECK(good);
    }
    ns_sweep_ranges_free(r);

    /* the 3-subsets of 1..7 in the order of three nested loops */
    r = make((const char *const[]){"set=subsets(1..7,3)"}, 1, &rc, &err);
    CHECKF(rc == NS_OK && r->nvariants == 35, "%s", err.msg);
    good = 1;
    i = 0;
    for (int x = 1; x <= 7; x++)
        for (int y = x + 1; y <= 7; y++)
            for (int z = y + 1; z <= 7; z++, i++) {
                char want[64];
                snprintf(want, sizeof want, "set=%d,%d,%d", x, y, z);
                good &= ns_sweep_ranges_variant(r, i, &ps, &err) == NS_OK;
                ns_params_format(&ps, buf, sizeof buf);
                good &= strcmp(buf, want) == 0;
            }
    CHECK(good);
    CHECK(ns_sweep_ranges_variant(r, 35, &ps, &err) != NS_OK);
    ns_sweep_ranges_free(r);

    /* a single value and a code: one variant each */
    r = make((const char *const[]){"a=7", "code=0.137"}, 2, &rc, &err);
    CHECKF(rc == NS_OK && r->nvariants == 1, "%s", err.msg);
    CHECK(ns_sweep_ranges_variant(r, 0, &ps, &err) == NS_OK);
    ns_params_format(&ps, buf, sizeof buf);
    CHECKF(strcmp(buf, "a=7;code=0.137") == 0, "%s", buf);
    ns_sweep_ranges_free(r);

    /* bad ranges */
    CHECK(refused("a=5..1", "empty range"));
    CHECK(refused("a=1..", "expected a range"));
    CHECK(refused("a=x", "not an integer"));
    CHECK(refused("a=1,,2", "expected integers"));
    CHECK(refused("a=2,3,2", "given twice"));
    CHECK(refused("=3", "expected name=RANGE"));
    CHECK(refused("a=", "expected name=RANGE"));
    CHECK(refused("S=subsets(1..41,2)", "too large"));
    CHECK(refused("S=subsets(1..30)", "too many"));
    CHECK(refused("S=subsets(1..12,13)", "1 <= k <= 12"));
    CHECK(refused("S=subsets(5..1,2)", "empty range"));
    CHECK(refused("S=subsets(1..5,2", "expected subsets"));
    CHECK(refused("a=1..1000001", "too many"));
    /* more than 10^6 variants in the product, each range allowed alone */
    r = make((const char *const[]){"a=1..1000", "b=1..1000", "c=1,2"}, 3, &rc, &err);
    CHECKF(rc == NS_EINVAL && strstr(err.msg, "variants"), "rc %d: %s", (int)rc, err.msg);
    ns_sweep_ranges_free(r);
    r = make((const char *const[]){"a=1..3", "a=4"}, 2, &rc, &err);
    CHECKF(rc == NS_EINVAL && strstr(err.msg, "given twice"), "%s", err.msg);
    ns_sweep_ranges_free(r);
    return TEST_REPORT();
}
