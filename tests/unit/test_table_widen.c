/* test_table_widen.c - ns_table_widen (game/ns_table.h): a table of
 * narrow cells widened in place keeps the values of its first `used`
 * cells (checked against a copy kept aside as plain integers), turns the
 * invalid marker into the new width's marker, zeroes the cells from used
 * on, and works for small tables (calloc) and for tables large enough to
 * be mapped (64 MiB and more), where it grows the mapping. */
#include <stdlib.h>
#include <string.h>

#include "game/ns_table.h"
#include "testutil.h"

/* a table of n cells of width from, random values (some invalid); widened
 * to width to with the first used cells kept */
static void widen_case(int64_t n, int from, int to, uint64_t used)
{
    ns_error err = {0};
    ns_table *t = ns_table_new(1, &n, from, 0, &err);
    CHECKF(t != NULL, "n = %lld, %d bytes: %s", (long long)n, from, err.msg);
    if (!t)
        return;
    uint32_t *keep = malloc((size_t)n * sizeof *keep);
    CHECK(keep != NULL);
    if (!keep) {
        ns_table_free(t);
        return;
    }
    const uint32_t inv = ns_table_invalid(t);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = ns_test_rng();
        /* one cell in 16 invalid, the others any value of the width */
        uint32_t v = (r & 15) == 0 ? inv : (uint32_t)(r >> 8) % inv;
        keep[i] = v;
        ns_table_set(t, (uint64_t)i, v);
    }
    CHECKF(ns_table_widen(t, to, used, &err) == NS_OK, "%d to %d bytes: %s", from, to, err.msg);
    CHECK(t->elem == to && t->ncells == (uint64_t)n);
    const uint32_t inv2 = ns_table_invalid(t);
    int64_t bad = -1;
    for (int64_t i = 0; i < n && bad < 0; i++) {
        const uint32_t want = (uint64_t)i >= used ? 0 : keep[i] == inv ? inv2 : keep[i];
        if (ns_table_get(t, (uint64_t)i) != want)
            bad = i;
    }
    CHECKF(bad < 0, "n = %lld, %d to %d bytes, %llu kept: cell %lld is %u, expected %u", (long long)n, from, to,
           (unsigned long long)used, (long long)bad, bad >= 0 ? ns_table_get(t, (uint64_t)bad) : 0,
           bad >= 0 ? ((uint64_t)bad >= used ? 0 : keep[bad] == inv ? inv2 : keep[bad]) : 0);
    /* the widened table holds values the old width could not */
    ns_table_set(t, (uint64_t)n - 1, inv + 1);
    CHECK(ns_table_get(t, (uint64_t)n - 1) == inv + 1);
    free(keep);
    ns_table_free(t);
}

int main(void)
{
    widen_case(1, 1, 2, 1);
    widen_case(1000, 1, 2, 1000);
    widen_case(1000, 1, 2, 377);
    widen_case(1000, 1, 4, 999);
    widen_case(1000, 2, 4, 1000);
    widen_case(1000, 2, 4, 0);
    /* mapped tables (at least 64 MiB, ns_table.c): 1 to 2 bytes grows a
     * mapping, 2 to 4 grows a bigger one */
    widen_case((int64_t)80 << 20, 1, 2, ((uint64_t)80 << 20) - 12345);
    widen_case((int64_t)40 << 20, 2, 4, (uint64_t)40 << 20);
    /* a block from calloc that becomes a mapping: 40 MiB of 1 byte to 4 */
    widen_case((int64_t)40 << 20, 1, 4, (uint64_t)30 << 20);
    /* refused: not wider, or a bad width; the table stays as it was */
    int64_t n = 10;
    ns_error err = {0};
    ns_table *t = ns_table_new(1, &n, 2, 0, &err);
    CHECK(t != NULL);
    if (t) {
        ns_table_set(t, 3, 300);
        CHECK(ns_table_widen(t, 2, 10, &err) != NS_OK);
        CHECK(ns_table_widen(t, 1, 10, &err) != NS_OK);
        CHECK(ns_table_widen(t, 3, 10, &err) != NS_OK);
        CHECK(t->elem == 2 && ns_table_get(t, 3) == 300);
        ns_table_free(t);
    }
    return TEST_REPORT();
}
