/* test_seq_split3.c - the two-heap value sets of the sequence engine
 * (engine/ns_seq_split3.h), checked directly: on random sequences of
 * values up to 1000 (sets of up to 16 words, every XOR-translate of words
 * and bits), the three-heap values that ns_seq_split3_mark gives for each
 * m, early and late together, equal those spelled out here as every
 * a <= b <= c with a + b + c = m, with the default store and with a store
 * capped at a few sets (the rest marked pair by pair). */
#include <stdlib.h>
#include <string.h>

#include "engine/ns_seq_split3.h"
#include "game/ns_table.h"
#include "testutil.h"

enum { N = 260, W = 16 }; /* values below 1000 < 1024 = 16 words */

static void naive3(const uint32_t *g, int64_t m, uint64_t *seen)
{
    for (int64_t a = 1; 3 * a <= m; a++)
        for (int64_t b = a; a + 2 * b <= m; b++) {
            const uint32_t v = g[a] ^ g[b] ^ g[m - a - b];
            seen[v >> 6] |= (uint64_t)1 << (v & 63);
        }
}

static void run(uint32_t vmax, uint64_t cap_bytes)
{
    ns_error err = {0};
    int64_t bounds[1] = {N};
    ns_table *t = ns_table_new(1, bounds, 2, 0, &err);
    CHECK(t != NULL);
    if (!t)
        return;
    uint32_t g[N];
    for (int64_t i = 0; i < N; i++) {
        g[i] = i == 0 ? 0 : (uint32_t)(ns_test_rng() % (vmax + 1));
        ns_table_set(t, (uint64_t)i, g[i]);
    }
    ns_seq_split3 *s = ns_seq_split3_new(t, N, cap_bytes, &err);
    CHECK(s != NULL);
    for (int64_t r = 0; s && r < N; r++)
        ns_seq_split3_add(s, r, vmax);
    int bad = 0;
    for (int64_t m = 0; s && m < N && !bad; m++) {
        const int64_t b0 = m / 2 + 1;
        uint64_t got[W] = {0}, want[W] = {0};
        ns_seq_split3_mark(s, m, b0, 0, got);
        ns_seq_split3_mark(s, m, b0, 1, got);
        naive3(g, m, want);
        if (memcmp(got, want, sizeof got)) {
            bad = 1;
            CHECKF(0, "vmax %u, cap %llu bytes: the three-heap values of m = %lld differ from the naive ones", vmax,
                   (unsigned long long)cap_bytes, (long long)m);
        }
    }
    CHECK(!bad);
    ns_seq_split3_free(s);
    ns_table_free(t);
}

int main(void)
{
    static const uint32_t vmax[] = {1, 7, 63, 64, 200, 1000};
    for (size_t i = 0; i < sizeof vmax / sizeof *vmax; i++) {
        run(vmax[i], 0);
        run(vmax[i], 8 * 64); /* 64 words: a few sets stored, the rest pair by pair */
    }
    return TEST_REPORT();
}
