/* test_tile_lines.c - the tile kernel's line sets packed for travel
 * between processes (ns_tile_lines_pack / ns_tile_lines_unpack,
 * engine/ns_engine.h; the owned line sets of an MPI solve). Sets of
 * several shapes (empty, a full prefix then sparse values, every value,
 * dense random, a full word past the first non-full one) are built here
 * from their definition: bit v of a set = value v in it, summary bit w =
 * word w has all 64 values, first = the first word that does not. Packing
 * must take 1 + (last non-zero word + 1 - first) words a line (none past
 * first when the rest is empty), and unpacking into empty lines must give
 * back every word of the sets, the summaries and first. Malformed input
 * (short, too long, a window past the set, a window starting on a full
 * word) is refused with NS_EFORMAT. */
#include <stdlib.h>
#include <string.h>

#include "engine/ns_engine.h"
#include "testutil.h"

enum { WORDS = 150, STRIDE = 168, FSTRIDE = 3, LINES = 7 };

typedef struct sets {
    uint64_t bits[LINES * STRIDE];
    uint64_t full[LINES * FSTRIDE];
    uint32_t first[LINES];
} sets;

static void add(sets *s, int l, uint32_t v)
{
    s->bits[l * STRIDE + v / 64] |= (uint64_t)1 << (v % 64);
}

/* summaries and first from the words, by their definition */
static void summarize(sets *s)
{
    for (int l = 0; l < LINES; l++) {
        s->first[l] = WORDS;
        for (int w = WORDS - 1; w >= 0; w--) {
            const int isfull = s->bits[l * STRIDE + w] == ~(uint64_t)0;
            if (isfull)
                s->full[l * FSTRIDE + w / 64] |= (uint64_t)1 << (w % 64);
            else
                s->first[l] = (uint32_t)w;
        }
    }
}

/* the packed words a line should take: its header and the words from
 * first to its last non-zero word */
static size_t expected_words(const sets *s, int l)
{
    int last = -1;
    for (int w = 0; w < WORDS; w++)
        if (s->bits[l * STRIDE + w])
            last = w;
    return 1 + (last + 1 > (int)s->first[l] ? (size_t)(last + 1 - (int)s->first[l]) : 0);
}

static ns_tile_lines view(sets *s)
{
    return (ns_tile_lines){.bits = s->bits, .full = s->full, .first = s->first, .stride = STRIDE,
                           .fstride = FSTRIDE, .words = WORDS};
}

int main(void)
{
    static sets a, b;
    memset(&a, 0, sizeof a);
    /* line 0 empty; 1: values 0..999 then every 7th up to 4000; 2: every
     * value; 3: dense random; 4: one value near the end; 5: a full word
     * (64..127) after a hole at 3; 6: a full prefix ending at a word's end */
    for (uint32_t v = 0; v < 1000; v++)
        add(&a, 1, v);
    for (uint32_t v = 1000; v < 4000; v += 7)
        add(&a, 1, v);
    for (uint32_t v = 0; v < WORDS * 64; v++)
        add(&a, 2, v);
    for (int k = 0; k < 6000; k++)
        add(&a, 3, (uint32_t)(ns_test_rng() % (WORDS * 64)));
    add(&a, 4, WORDS * 64 - 5);
    add(&a, 5, 0), add(&a, 5, 1), add(&a, 5, 2);
    for (uint32_t v = 64; v < 128; v++)
        add(&a, 5, v);
    for (uint32_t v = 0; v < 640; v++)
        add(&a, 6, v);
    summarize(&a);
    CHECK(a.first[0] == 0 && a.first[1] == 1000 / 64 && a.first[2] == WORDS && a.first[5] == 0 && a.first[6] == 10);

    ns_tile_lines la = view(&a), lb;
    size_t want = 0;
    for (int l = 0; l < LINES; l++)
        want += expected_words(&a, l);
    const size_t n = ns_tile_lines_pack(&la, 0, LINES, NULL);
    CHECKF(n == want, "%zu packed words, %zu expected", n, want);
    uint64_t *buf = calloc(n + 4, sizeof *buf);
    CHECK(buf != NULL);
    if (!buf)
        return TEST_REPORT();
    CHECK(ns_tile_lines_pack(&la, 0, LINES, buf) == n);
    /* line 2 (every value) and line 0 (empty) take one word each */
    CHECK(expected_words(&a, 0) == 1 && expected_words(&a, 2) == 1);

    ns_error err = {0};
    memset(&b, 0, sizeof b);
    lb = view(&b);
    CHECK(ns_tile_lines_unpack(&lb, 0, LINES, buf, n, &err) == NS_OK);
    CHECK(memcmp(a.bits, b.bits, sizeof a.bits) == 0);
    CHECK(memcmp(a.full, b.full, sizeof a.full) == 0);
    CHECK(memcmp(a.first, b.first, sizeof a.first) == 0);

    /* a block inside the array: lines 3..5 only, the others stay empty */
    memset(&b, 0, sizeof b);
    const size_t n3 = ns_tile_lines_pack(&la, 3, 3, NULL);
    CHECK(n3 == expected_words(&a, 3) + expected_words(&a, 4) + expected_words(&a, 5));
    CHECK(ns_tile_lines_pack(&la, 3, 3, buf) == n3);
    CHECK(ns_tile_lines_unpack(&lb, 3, 3, buf, n3, &err) == NS_OK);
    CHECK(memcmp(a.bits + 3 * STRIDE, b.bits + 3 * STRIDE, 3 * STRIDE * sizeof *a.bits) == 0);
    CHECK(memcmp(a.full + 3 * FSTRIDE, b.full + 3 * FSTRIDE, 3 * FSTRIDE * sizeof *a.full) == 0);
    int rest_empty = b.first[0] == 0 && b.first[6] == 0;
    for (int w = 0; w < 3 * STRIDE; w++)
        rest_empty &= b.bits[w] == 0;
    CHECK(rest_empty);

    /* malformed */
    ns_tile_lines_pack(&la, 0, LINES, buf);
    memset(&b, 0, sizeof b);
    CHECK(ns_tile_lines_unpack(&lb, 0, LINES, buf, n - 1, &err) == NS_EFORMAT);
    memset(&b, 0, sizeof b);
    CHECK(ns_tile_lines_unpack(&lb, 0, LINES, buf, n + 1, &err) == NS_EFORMAT);
    uint64_t bad[3] = {(uint64_t)(WORDS - 1) | (uint64_t)2 << 32, 1, 1};  /* 2 words from the last */
    memset(&b, 0, sizeof b);
    CHECK(ns_tile_lines_unpack(&lb, 0, 1, bad, 3, &err) == NS_EFORMAT);
    uint64_t fullfirst[2] = {(uint64_t)4 | (uint64_t)1 << 32, ~(uint64_t)0};  /* "first" word full */
    memset(&b, 0, sizeof b);
    CHECK(ns_tile_lines_unpack(&lb, 0, 1, fullfirst, 2, &err) == NS_EFORMAT);
    uint64_t past[1] = {(uint64_t)(WORDS + 1)};  /* first past the set */
    memset(&b, 0, sizeof b);
    CHECK(ns_tile_lines_unpack(&lb, 0, 1, past, 1, &err) == NS_EFORMAT);
    free(buf);
    return TEST_REPORT();
}
