/* test_downsample.c - ns_downsample against a naive reduction written here:
 * every kind, cell widths 1/2/4, invalid markers, edge blocks, bands fed in
 * any order, thread counts, and hand-made blocks with known answers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ns_downsample.h"
#include "testutil.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static uint32_t get(const void *data, int elem, size_t i)
{
    return elem == 1 ? ((const uint8_t *)data)[i]
         : elem == 2 ? ((const uint16_t *)data)[i] : ((const uint32_t *)data)[i];
}

static void put(void *data, int elem, size_t i, uint32_t v)
{
    if (elem == 1)
        ((uint8_t *)data)[i] = (uint8_t)v;
    else if (elem == 2)
        ((uint16_t *)data)[i] = (uint16_t)v;
    else
        ((uint32_t *)data)[i] = v;
}

/* The reduction of grid cell (R, C), computed the slow obvious way: count
 * every value of the block in an array indexed by value. */
static uint32_t naive_cell(const ns_ds_plan *p, ns_ds_kind kind, int has_inv, uint32_t inv,
                           const void *data, int elem, uint32_t vmax, int64_t R, int64_t C)
{
    uint32_t *count = calloc((size_t)vmax + 1, sizeof *count);
    int any = 0;
    for (int64_t r = R * p->fr; r < (R + 1) * p->fr && r < p->rows; r++)
        for (int64_t c = C * p->fc; c < (C + 1) * p->fc && c < p->cols; c++) {
            uint32_t v = get(data, elem, (size_t)(r * p->cols + c));
            if (has_inv && v == inv)
                continue;
            count[v]++;
            any = 1;
        }
    uint32_t res = kind == NS_DS_PRESENCE ? 0 : NS_DS_EMPTY;
    if (any) {
        if (kind == NS_DS_MIN) {
            for (uint32_t v = 0; v <= vmax; v++)
                if (count[v]) { res = v; break; }
        } else if (kind == NS_DS_MAX) {
            for (uint32_t v = 0; v <= vmax; v++)
                if (count[v]) res = v;
        } else if (kind == NS_DS_MODE) {
            uint32_t best = 0;
            for (uint32_t v = 0; v <= vmax; v++)
                if (count[v] > best) { best = count[v]; res = v; }
        } else {
            for (uint32_t v = 0; v <= vmax && v <= NS_DS_PRESENCE_MAX; v++)
                if (count[v]) res |= (uint32_t)1 << v;
        }
    }
    free(count);
    return res;
}

/* Random rows x cols table of values below vmax+1 (some invalid), reduced
 * to at most mr x mc, fed in bands of `band` blocks in reverse order. */
static void random_case(int64_t rows, int64_t cols, int64_t mr, int64_t mc, int elem,
                        uint32_t vmax, int with_inv, int band, int threads)
{
    const uint32_t inv = elem == 1 ? 0xFFu : elem == 2 ? 0xFFFFu : 0xFFFFFFFFu;
    void *data = malloc((size_t)(rows * cols) * (size_t)elem);
    for (int64_t i = 0; i < rows * cols; i++) {
        uint32_t v = rnd() % (vmax + 1);
        if (with_inv && rnd() % 7 == 0)
            v = inv;
        put(data, elem, (size_t)i, v);
    }
    ns_ds_plan p;
    ns_error err = {0};
    CHECK(ns_ds_plan_for(rows, cols, mr, mc, &p, &err) == NS_OK);
    CHECK(p.out_rows <= mr && p.out_cols <= mc);
    CHECK(p.out_rows * p.fr >= rows && (p.out_rows - 1) * p.fr < rows);
    CHECK(p.out_cols * p.fc >= cols && (p.out_cols - 1) * p.fc < cols);
    for (int kind = NS_DS_MIN; kind <= NS_DS_PRESENCE; kind++) {
        ns_downsample *d = ns_downsample_new(&p, (ns_ds_kind)kind, with_inv, inv, threads, &err);
        CHECK(d != NULL);
        if (!d)
            continue;
        /* bands of `band` block rows, last band first */
        int64_t bh = p.fr * band, nb = (rows + bh - 1) / bh;
        for (int64_t b = nb - 1; b >= 0; b--) {
            int64_t r0 = b * bh, n = r0 + bh <= rows ? bh : rows - r0;
            ns_err rc = ns_downsample_feed(d, r0, n, (const char *)data + (size_t)(r0 * cols) * (size_t)elem,
                                           elem, &err);
            CHECKF(rc == NS_OK, "%s", err.msg);
        }
        const uint32_t *g = ns_downsample_grid(d);
        int64_t bad = 0;
        for (int64_t R = 0; R < p.out_rows; R++)
            for (int64_t C = 0; C < p.out_cols; C++) {
                uint32_t want = naive_cell(&p, (ns_ds_kind)kind, with_inv, inv, data, elem, vmax, R, C);
                if (g[R * p.out_cols + C] != want && bad++ < 3)
                    CHECKF(0, "%s %lldx%lld elem %d cell (%lld,%lld): got %u want %u",
                           ns_ds_kind_name((ns_ds_kind)kind), (long long)rows, (long long)cols, elem,
                           (long long)R, (long long)C, g[R * p.out_cols + C], want);
            }
        CHECKF(bad == 0, "%lld cells differ", (long long)bad);
        ns_downsample_free(d);
    }
    free(data);
}

/* A 4 x 6 table reduced in 2 x 3 blocks, values chosen by hand. */
static void hand_case(void)
{
    static const uint8_t t[4][6] = {
        {5, 5, 1, 0, 9, 9},
        {2, 1, 1, 255, 255, 9},
        {7, 7, 3, 255, 255, 255},
        {3, 3, 7, 255, 255, 255},
    };
    ns_ds_plan p;
    ns_error err = {0};
    CHECK(ns_ds_plan_for(4, 6, 2, 2, &p, &err) == NS_OK);
    CHECK(p.fr == 2 && p.fc == 3 && p.out_rows == 2 && p.out_cols == 2);
    uint32_t *g = NULL;
    CHECK(ns_downsample_all(&p, NS_DS_MIN, 1, 255, t, 1, 1, &g, &err) == NS_OK);
    CHECK(g && g[0] == 1 && g[1] == 0 && g[2] == 3 && g[3] == NS_DS_EMPTY);
    free(g);
    CHECK(ns_downsample_all(&p, NS_DS_MAX, 1, 255, t, 1, 1, &g, &err) == NS_OK);
    CHECK(g && g[0] == 5 && g[1] == 9 && g[2] == 7 && g[3] == NS_DS_EMPTY);
    free(g);
    /* block 0: 5,5,1,2,1,1 -> 1 (three times); block 2: 7,7,3,3,3,7 ->
     * 3 and 7 three times each: the smaller, 3 */
    CHECK(ns_downsample_all(&p, NS_DS_MODE, 1, 255, t, 1, 2, &g, &err) == NS_OK);
    CHECK(g && g[0] == 1 && g[1] == 9 && g[2] == 3 && g[3] == NS_DS_EMPTY);
    free(g);
    CHECK(ns_downsample_all(&p, NS_DS_PRESENCE, 1, 255, t, 1, 1, &g, &err) == NS_OK);
    CHECK(g && g[0] == ((1u << 5) | (1u << 1) | (1u << 2)) && g[1] == ((1u << 0) | (1u << 9)) &&
          g[2] == ((1u << 3) | (1u << 7)) && g[3] == 0);
    free(g);
    /* without a marker, 255 is a value like any other */
    CHECK(ns_downsample_all(&p, NS_DS_MAX, 0, 0, t, 1, 1, &g, &err) == NS_OK);
    CHECK(g && g[1] == 255 && g[3] == 255);
    free(g);
}

/* A block with many distinct values makes the mode hash grow. */
static void mode_growth(void)
{
    const int64_t n = 300;
    uint32_t *t = malloc((size_t)(n * n) * sizeof *t);
    for (int64_t i = 0; i < n * n; i++)
        t[i] = (uint32_t)(i * 2654435761u % 1000003u) + 10;
    t[5] = t[77] = t[n * n - 1] = 123456789u;   /* the only repeated value */
    ns_ds_plan p;
    ns_error err = {0};
    CHECK(ns_ds_plan_for(n, n, 1, 1, &p, &err) == NS_OK);
    CHECK(p.fr == n && p.fc == n);
    uint32_t *g = NULL;
    CHECK(ns_downsample_all(&p, NS_DS_MODE, 0, 0, t, 4, 1, &g, &err) == NS_OK);
    CHECK(g && g[0] == 123456789u);
    free(g);
    free(t);
}

static void bad_input(void)
{
    ns_ds_plan p;
    ns_error err = {0};
    ns_ds_kind k;
    CHECK(ns_ds_plan_for(0, 5, 2, 2, &p, &err) == NS_EINVAL);
    CHECK(ns_ds_plan_for(5, 5, 2, 0, &p, &err) == NS_EINVAL);
    CHECK(ns_ds_kind_parse("median", &k, &err) == NS_EINVAL);
    CHECK(ns_ds_kind_parse("mode", &k, &err) == NS_OK && k == NS_DS_MODE);
    CHECK(ns_ds_plan_for(10, 10, 3, 3, &p, &err) == NS_OK);   /* blocks of 4 */
    ns_downsample *d = ns_downsample_new(&p, NS_DS_MIN, 0, 0, 1, &err);
    uint8_t row[4 * 10] = {0};
    CHECK(d != NULL);
    CHECK(ns_downsample_feed(d, 2, 4, row, 1, &err) != NS_OK);   /* not on a block edge */
    CHECK(ns_downsample_feed(d, 0, 3, row, 1, &err) != NS_OK);   /* part of a block */
    CHECK(ns_downsample_feed(d, 8, 4, row, 1, &err) != NS_OK);   /* past the end */
    CHECK(ns_downsample_feed(d, 8, 2, row, 1, &err) == NS_OK);   /* the short last block */
    CHECK(ns_downsample_feed(d, 0, 4, row, 3, &err) != NS_OK);   /* bad width */
    ns_downsample_free(d);
}

int main(void)
{
    hand_case();
    mode_growth();
    bad_input();
    /* exact fits, ragged edges, upsizing (blocks of 1), single rows/columns */
    random_case(64, 64, 8, 8, 1, 6, 1, 1, 1);
    random_case(67, 45, 8, 7, 1, 20, 1, 2, 3);
    random_case(100, 37, 9, 50, 2, 700, 1, 3, 2);
    random_case(33, 129, 33, 16, 4, 100000, 1, 1, 4);
    random_case(30, 20, 100, 100, 2, 40, 0, 1, 2);
    random_case(1, 500, 1, 7, 1, 31, 0, 1, 1);
    random_case(500, 1, 13, 1, 4, 3, 1, 5, 3);
    random_case(257, 255, 16, 16, 2, 5, 1, 4, 2);
    return TEST_REPORT();
}
