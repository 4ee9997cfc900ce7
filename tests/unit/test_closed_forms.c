/* test_closed_forms.c - engine tables against theorems, in exact integer
 * arithmetic over whole boxes:
 *   Nim (Bouton): G = XOR of the piles; misere: P iff XOR = 0 when some pile
 *     is >= 2, XOR = 1 when all piles are <= 1.
 *   Moore's Nim_k: P iff in every binary digit the number of piles with that
 *     bit set is divisible by k + 1.
 *   Bash(m): G = n mod (m + 1).
 *   a-Wythoff (Fraenkel): P-positions (A_n, B_n), (B_n, A_n) with
 *     A_n = mex {A_i, B_i : i < n}, B_n = A_n + a n.
 *   Fibonacci Nim: the starting position (n, n - 1), n >= 1, is P iff n is a
 *     Fibonacci number.
 *   Euclid: (a, 0), (0, b) are P; (a, a) is N for a > 0; for 0 < a < b,
 *     P iff b < phi a, i.e. (2b - a)^2 < 5 a^2.
 *   Staircase Nim: G = XOR of the odd-numbered steps c_1 ^ c_3 ^ ...; cells
 *     outside the domain are invalid. */
#include <inttypes.h>
#include <stdlib.h>

#include "testutil.h"
#include "tsolve.h"

typedef uint32_t (*expect_fn)(const int64_t *s, const void *arg);

#define EXPECT_INVALID UINT32_MAX

/* Compare every cell of t with expect(); in a P/N table, or when zeros is
 * set (expect() gives only P = 0 / N = 1), only 0 versus non-zero counts. */
static void compare(const char *what, const ns_table *t, int zeros, expect_fn expect, const void *arg)
{
    uint64_t bad = 0;
    int64_t s[NS_MAX_DIM];
    for (uint64_t i = 0; i < t->ncells; i++) {
        ns_table_coords(t, i, s);
        uint32_t want = expect(s, arg), got = ns_table_get(t, i);
        if (want == EXPECT_INVALID)
            want = ns_table_invalid(t);
        else if (t->pn_only || zeros) {
            want = want != 0;
            if (zeros && got != ns_table_invalid(t))
                got = got != 0;
        }
        if (got != want && bad++ < 5) {
            char buf[128];
            ns_format_pos(t->k, s, buf, sizeof buf);
            fprintf(stderr, "%s (%s): %s is %" PRIu32 ", expected %" PRIu32 "\n", what,
                    t->pn_only ? "P/N" : "Grundy", buf, got, want);
        }
    }
    CHECKF(bad == 0, "%s: %" PRIu64 " cells differ", what, bad);
}

static void run(const char *what, const char *name, const char *params, int k, const int64_t *bounds,
                int misere, int pn, int zeros, expect_fn expect, const void *arg)
{
    ns_table *t = ns_tsolve(name, params, k, bounds, misere, pn, 0);
    CHECKF(t != NULL, "%s: solve failed", what);
    if (!t)
        return;
    compare(what, t, zeros, expect, arg);
    ns_table_free(t);
}

/* ---- nim and moore ---- */
static int nim_k;

static uint32_t nim_xor(const int64_t *s, const void *arg)
{
    (void)arg;
    uint32_t x = 0;
    for (int i = 0; i < nim_k; i++)
        x ^= (uint32_t)s[i];
    return x;
}

static uint32_t nim_misere_p(const int64_t *s, const void *arg)
{
    (void)arg;
    int big = 0;
    for (int i = 0; i < nim_k; i++)
        big |= s[i] >= 2;
    uint32_t x = nim_xor(s, NULL);
    return big ? x != 0 : x != 1; /* 0 = P */
}

static uint32_t moore_p(const int64_t *s, const void *arg)
{
    int64_t kk = *(const int64_t *)arg;
    for (int bit = 0; bit < 62; bit++) {
        int64_t c = 0;
        for (int i = 0; i < nim_k; i++)
            c += (s[i] >> bit) & 1;
        if (c % (kk + 1))
            return 1;
    }
    return 0;
}

static void test_nim(void)
{
    int64_t b3[3] = {32, 32, 32}, b4[4] = {16, 16, 16, 16}, b3u[3] = {20, 33, 9};
    nim_k = 3;
    for (int pn = 0; pn <= 1; pn++) {
        run("nim 32^3", "nim", "piles=3", 3, b3, 0, pn, 0, nim_xor, NULL);
        run("nim 20x33x9", "nim", "", 3, b3u, 0, pn, 0, nim_xor, NULL);
        run("misere nim 32^3", "nim", "piles=3", 3, b3, 1, pn, 1, nim_misere_p, NULL);
    }
    nim_k = 4;
    for (int pn = 0; pn <= 1; pn++) {
        run("nim 16^4", "nim", "piles=4", 4, b4, 0, pn, 0, nim_xor, NULL);
        run("misere nim 16^4", "nim", "piles=4", 4, b4, 1, pn, 1, nim_misere_p, NULL);
    }
}

static void test_moore(void)
{
    int64_t kk, b3[3] = {16, 16, 16}, b4[4] = {10, 10, 10, 10};
    nim_k = 3;
    kk = 1;
    for (int pn = 0; pn <= 1; pn++)
        run("moore piles=3 k=1", "moore", "piles=3;k=1", 3, b3, 0, pn, 1, moore_p, &kk);
    kk = 2;
    for (int pn = 0; pn <= 1; pn++)
        run("moore piles=3 k=2", "moore", "piles=3;k=2", 3, b3, 0, pn, 1, moore_p, &kk);
    nim_k = 4;
    kk = 2;
    for (int pn = 0; pn <= 1; pn++)
        run("moore piles=4 k=2", "moore", "piles=4;k=2", 4, b4, 0, pn, 1, moore_p, &kk);
    kk = 3;
    for (int pn = 0; pn <= 1; pn++)
        run("moore piles=4 k=3", "moore", "piles=4;k=3", 4, b4, 0, pn, 1, moore_p, &kk);
}

/* ---- bash ---- */
static uint32_t bash_g(const int64_t *s, const void *arg)
{
    return (uint32_t)(s[0] % (*(const int64_t *)arg + 1));
}

static void test_bash(void)
{
    static const int64_t ms[] = {1, 2, 3, 5, 10, 37};
    int64_t b[1] = {1000};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        char params[32], what[64];
        snprintf(params, sizeof params, "m=%" PRId64, ms[i]);
        snprintf(what, sizeof what, "bash %s", params);
        for (int pn = 0; pn <= 1; pn++)
            run(what, "bash", params, 1, b, 0, pn, 0, bash_g, &ms[i]);
    }
}

/* ---- a-wythoff ---- */
typedef struct awy {
    int64_t n;
    int64_t *partner; /* partner[x] = y with (x, y) P, or -1 */
} awy;

static uint32_t awy_p(const int64_t *s, const void *arg)
{
    const awy *w = arg;
    return w->partner[s[0]] != s[1];
}

static void test_awythoff(void)
{
    const int64_t n = 500;
    int64_t b[2] = {n, n};
    for (int64_t a = 1; a <= 4; a++) {
        int64_t *partner = malloc((size_t)n * sizeof *partner);
        uint8_t *used = calloc((size_t)(n * (a + 2) + 2), 1);
        CHECK(partner && used);
        if (!partner || !used) {
            free(partner);
            free(used);
            return;
        }
        for (int64_t x = 0; x < n; x++)
            partner[x] = -1;
        int64_t mex = 0;
        for (int64_t i = 0; mex < n; i++) {
            while (used[mex])
                mex++;
            int64_t A = mex, B = A + a * i;
            used[A] = 1;
            if (B < n * (a + 2) + 2)
                used[B] = 1;
            if (A < n && B < n) {
                partner[A] = B;
                partner[B] = A;
            }
        }
        awy w = {n, partner};
        char params[32], what[64];
        snprintf(params, sizeof params, "a=%" PRId64, a);
        snprintf(what, sizeof what, "a-wythoff %s", params);
        for (int pn = 0; pn <= 1; pn++)
            run(what, "a-wythoff", params, 2, b, 0, pn, 1, awy_p, &w);
        free(partner);
        free(used);
    }
}

/* ---- fibonacci nim (up to 2000 in test_fibnim_slow) ---- */
static void test_fibnim(void)
{
    enum { NMAX = 600 };
    int64_t b[2] = {NMAX + 1, NMAX + 1};
    ns_table *t = ns_tsolve("fibonacci-nim", "", 2, b, 0, 1, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    uint8_t fib[NMAX + 1] = {0};
    for (int64_t x = 1, y = 2; x <= NMAX; y = x + y, x = y - x)
        fib[x] = 1;
    int bad = 0, count = 0;
    for (int64_t n = 1; n <= NMAX; n++) {
        int64_t s[NS_MAX_DIM] = {n, n - 1};
        int isp = ns_table_pn(t, ns_table_index(t, s)) == NS_PN_P;
        count += isp;
        if (isp != fib[n] && bad++ < 5)
            fprintf(stderr, "fibonacci-nim start %" PRId64 ": %s, expected %s\n", n, isp ? "P" : "N",
                    fib[n] ? "P" : "N");
    }
    CHECK(bad == 0);
    CHECK(count == 13); /* 1 2 3 5 8 13 21 34 55 89 144 233 377 */
    ns_table_free(t);
}

/* ---- euclid ---- */
static uint32_t euclid_p(const int64_t *s, const void *arg)
{
    (void)arg;
    int64_t a = s[0] < s[1] ? s[0] : s[1], b = s[0] < s[1] ? s[1] : s[0];
    if (a == 0)
        return 0;
    if (a == b)
        return 1;
    /* 0 < a < b: P iff b < phi a iff (2b - a)^2 < 5 a^2 (2b - a > 0) */
    return !((2 * b - a) * (2 * b - a) < 5 * a * a);
}

static void test_euclid(void)
{
    int64_t b[2] = {300, 300}, bu[2] = {60, 500};
    run("euclid 300x300", "euclid", "", 2, b, 0, 1, 1, euclid_p, NULL);
    run("euclid 300x300 (Grundy zeros)", "euclid", "", 2, b, 0, 0, 1, euclid_p, NULL);
    run("euclid 60x500", "euclid", "", 2, bu, 0, 1, 1, euclid_p, NULL);
}

/* ---- staircase ---- */
typedef struct stair {
    int k;
    const int64_t *bounds;
} stair;

static uint32_t stair_g(const int64_t *s, const void *arg)
{
    const stair *st = arg;
    int64_t suffix = 0;
    for (int i = st->k - 1; i >= 0; i--) {
        suffix += s[i];
        if (suffix >= st->bounds[i])
            return EXPECT_INVALID;
    }
    uint32_t x = 0;
    for (int i = 0; i < st->k; i += 2) /* steps 1, 3, 5, ... */
        x ^= (uint32_t)s[i];
    return x;
}

static void test_staircase(void)
{
    int64_t b2[2] = {40, 30}, b3[3] = {30, 30, 30}, b4[4] = {16, 14, 12, 10}, b5[5] = {9, 9, 9, 9, 9};
    stair s2 = {2, b2}, s3 = {3, b3}, s4 = {4, b4}, s5 = {5, b5};
    for (int pn = 0; pn <= 1; pn++) {
        run("staircase 2 steps", "staircase", "piles=2", 2, b2, 0, pn, 0, stair_g, &s2);
        run("staircase 3 steps", "staircase", "piles=3", 3, b3, 0, pn, 0, stair_g, &s3);
        run("staircase 4 steps", "staircase", "", 4, b4, 0, pn, 0, stair_g, &s4);
        run("staircase 5 steps", "staircase", "piles=5", 5, b5, 0, pn, 0, stair_g, &s5);
    }
}

int main(void)
{
    test_nim();
    test_moore();
    test_bash();
    test_awythoff();
    test_fibnim();
    test_euclid();
    test_staircase();
    return TEST_REPORT();
}
