/* test_threads.c - the sieve's tables do not depend on the number of
 * threads: 1, 2 and 3 threads give bit-identical data, Grundy and P/N,
 * normal and misere, for ray, finite and general families and a domain. */
#include <string.h>

#include "testutil.h"
#include "tsolve.h"

typedef struct tcase {
    const char *name, *params;
    int k;
    int64_t bounds[NS_MAX_DIM];
} tcase;

static const tcase cases[] = {
    {"wythoff", "", 2, {300, 300}},
    {"wythoff", "", 2, {700, 520}},
    {"a-wythoff", "a=3", 2, {150, 120}},
    {"a-wythoff", "a=2", 2, {600, 300}},
    {"nim", "piles=2", 2, {600, 400}},
    {"nim", "piles=3", 3, {24, 24, 24}},
    {"subtraction", "set=1,3,4", 1, {500}},
    {"moore", "piles=3;k=2", 3, {12, 12, 12}},
    {"euclid", "", 2, {200, 200}},
    {"fibonacci-nim", "", 2, {100, 100}},
    {"staircase", "piles=4", 4, {12, 12, 12, 12}},
};

int main(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const tcase *tc = &cases[c];
        for (int misere = 0; misere <= 1; misere++)
            for (int pn = 0; pn <= 1; pn++) {
                ns_table *t1 = ns_tsolve(tc->name, tc->params, tc->k, tc->bounds, misere, pn, 1);
                CHECKF(t1 != NULL, "%s 1 thread", tc->name);
                if (!t1)
                    continue;
                for (int th = 2; th <= 3; th++) {
                    ns_table *t = ns_tsolve(tc->name, tc->params, tc->k, tc->bounds, misere, pn, th);
                    CHECKF(t != NULL, "%s %d threads", tc->name, th);
                    if (!t)
                        continue;
                    int same = ns_table_equal(t1, t) && t->elem == t1->elem && t->ncells == t1->ncells &&
                               memcmp(t->data, t1->data, (size_t)t->ncells * (size_t)t->elem) == 0;
                    CHECKF(same, "%s [%s] %s %s: %d threads differ from 1", tc->name, tc->params,
                           misere ? "misere" : "normal", pn ? "P/N" : "Grundy", th);
                    ns_table_free(t);
                }
                ns_table_free(t1);
            }
    }
    return TEST_REPORT();
}
