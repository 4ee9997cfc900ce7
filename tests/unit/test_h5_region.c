/* test_h5_region.c - partial reads (ns_h5_region.c): tables written by
 * ns_h5_write with random values, some cells invalid, of every stored width
 * and in P/N form, read back by strided hyperslabs and by bands and
 * compared cell by cell with the table in memory; /p_positions read in
 * pieces; regions outside the shape refused. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/ns_h5.h"
#include "game/ns_table.h"
#include "testutil.h"

static char dir[64];

static int rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

/* A k-dim table of values below vmax + 1, about one cell in nine invalid
 * when with_invalid; written to path. The caller frees it. */
static ns_table *write_table(const char *path, int k, const int64_t *bounds, uint32_t vmax, int pn_only,
                             int with_invalid)
{
    ns_error err = {0};
    int elem = pn_only ? 1 : ns_table_elem_for(vmax);
    ns_table *t = ns_table_new(k, bounds, elem, pn_only, &err);
    if (!t) {
        fprintf(stderr, "ns_table_new: %s\n", err.msg);
        exit(2);
    }
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint32_t v = (uint32_t)(ns_test_rng() % ((uint64_t)(pn_only ? 1 : vmax) + 1));
        if (with_invalid && ns_test_rng() % 9 == 0)
            v = ns_table_invalid(t);
        ns_table_set(t, i, v);
    }
    ns_table_set(t, 0, 0);   /* at least one P-position, the value 0 */
    if (!pn_only && vmax > 0)
        ns_table_set(t, 1, vmax);   /* and the largest value */
    ns_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "nim");
    m.pn_only = pn_only;
    m.complete = 1;
    m.threads = 1;
    ns_err rc = ns_h5_write(path, t, &m, NS_H5_FORCE, &err);
    CHECKF(rc == NS_OK, "ns_h5_write %s: %s", path, err.msg);
    return t;
}

/* Read the region lo + i*stride, i < count of dataset name and compare. */
static void check_region(const char *path, const char *name, const ns_table *t, const int64_t *lo,
                         const int64_t *count, const int64_t *stride)
{
    ns_error err = {0};
    ns_table *r = NULL;
    ns_err rc = ns_h5_read_region(path, name, lo, count, stride, &r, &err);
    CHECKF(rc == NS_OK, "ns_h5_read_region %s %s: %s", path, name, err.msg);
    if (rc)
        return;
    CHECK(r->k == t->k && r->pn_only == (strcmp(name, "pn") == 0));
    int64_t bad = 0;
    for (uint64_t i = 0; i < r->ncells; i++) {
        int64_t rs[NS_MAX_DIM], ts[NS_MAX_DIM];
        ns_table_coords(r, i, rs);
        for (int d = 0; d < t->k; d++)
            ts[d] = lo[d] + rs[d] * (stride ? stride[d] : 1);
        uint64_t j = ns_table_index(t, ts);
        int tinv = ns_table_get(t, j) == ns_table_invalid(t), rinv = ns_table_get(r, i) == ns_table_invalid(r);
        uint32_t want = tinv ? 0 : strcmp(name, "pn") == 0 ? (ns_table_get(t, j) != 0) : ns_table_get(t, j);
        uint32_t got = rinv ? 0 : ns_table_get(r, i);
        if ((tinv != rinv || want != got) && bad++ < 3)
            CHECKF(0, "%s %s cell %" PRIu64 ": got %u%s, want %u%s", path, name, i, got, rinv ? " (invalid)" : "",
                   want, tinv ? " (invalid)" : "");
    }
    CHECKF(bad == 0, "%" PRId64 " cells differ", bad);
    ns_table_free(r);
}

/* Whole table by bands of rows through one open region. */
static void check_bands(const char *path, const char *name, const ns_table *t, int64_t band)
{
    ns_error err = {0};
    ns_h5_region *r = NULL;
    ns_err rc = ns_h5_region_open(path, name, &r, &err);
    CHECKF(rc == NS_OK, "ns_h5_region_open: %s", err.msg);
    if (rc)
        return;
    const ns_h5_dsinfo *in = ns_h5_region_info(r);
    CHECK(in->rank == t->k);
    for (int d = 0; d < t->k; d++)
        CHECK(in->dims[d] == t->bounds[d] && in->chunk[d] >= 1 && in->chunk[d] <= in->dims[d]);
    const uint64_t row = t->ncells / (uint64_t)t->bounds[0];
    void *buf = malloc((size_t)((uint64_t)band * row * (uint64_t)in->elem));
    int64_t bad = 0;
    for (int64_t r0 = 0; r0 < t->bounds[0]; r0 += band) {
        int64_t lo[NS_MAX_DIM] = {0}, count[NS_MAX_DIM];
        lo[0] = r0;
        count[0] = r0 + band <= t->bounds[0] ? band : t->bounds[0] - r0;
        for (int d = 1; d < t->k; d++)
            count[d] = t->bounds[d];
        rc = ns_h5_region_read(r, lo, count, NULL, buf, &err);
        CHECKF(rc == NS_OK, "ns_h5_region_read rows %" PRId64 ": %s", r0, err.msg);
        for (uint64_t i = 0; rc == NS_OK && i < (uint64_t)count[0] * row; i++) {
            uint32_t got = in->elem == 1 ? ((uint8_t *)buf)[i] : in->elem == 2 ? ((uint16_t *)buf)[i]
                         : ((uint32_t *)buf)[i];
            uint32_t tv = ns_table_get(t, (uint64_t)r0 * row + i);
            int tinv = tv == ns_table_invalid(t);
            int ginv = in->has_invalid && got == in->invalid;
            uint32_t want = strcmp(name, "pn") == 0 ? (tv != 0) : tv;
            if ((tinv != ginv || (!tinv && got != want)) && bad++ < 3)
                CHECKF(0, "band read %s cell %" PRIu64 ": got %u want %u", name, (uint64_t)r0 * row + i, got, want);
        }
    }
    CHECK(bad == 0);
    /* outside the shape */
    int64_t lo[NS_MAX_DIM] = {0}, count[NS_MAX_DIM], stride[NS_MAX_DIM];
    for (int d = 0; d < t->k; d++) {
        count[d] = 1;
        stride[d] = 1;
    }
    lo[0] = t->bounds[0];
    CHECK(ns_h5_region_read(r, lo, count, NULL, buf, &err) == NS_ERANGE);
    lo[0] = 0;
    count[0] = 2;
    stride[0] = t->bounds[0];
    CHECK(ns_h5_region_read(r, lo, count, stride, buf, &err) == NS_ERANGE);
    count[0] = 0;
    CHECK(ns_h5_region_read(r, lo, count, NULL, buf, &err) == NS_ERANGE);
    free(buf);
    ns_h5_region_close(r);
}

/* /p_positions in pieces equals the P-positions of t in lexicographic order. */
static void check_ppos(const char *path, const ns_table *t)
{
    ns_error err = {0};
    ns_h5_region *r = NULL;
    if (ns_h5_region_open(path, "/p_positions", &r, &err) != NS_OK) {
        CHECKF(0, "open /p_positions: %s", err.msg);
        return;
    }
    const ns_h5_dsinfo *in = ns_h5_region_info(r);
    CHECK(in->rank == 2 && in->dims[1] == t->k && in->elem == 8 && in->is_signed);
    int64_t n = in->dims[0], k = t->k, piece = 7, next = 0, bad = 0;
    int64_t *buf = malloc((size_t)(piece * k) * sizeof *buf);
    uint64_t i = 0;
    for (int64_t r0 = 0; r0 < n; r0 += piece) {
        int64_t lo[2] = {r0, 0}, count[2] = {r0 + piece <= n ? piece : n - r0, k};
        CHECK(ns_h5_region_read(r, lo, count, NULL, buf, &err) == NS_OK);
        for (int64_t j = 0; j < count[0]; j++, next++) {
            while (i < t->ncells && ns_table_get(t, i) != 0)
                i++;
            int64_t s[NS_MAX_DIM];
            ns_table_coords(t, i++, s);
            if (memcmp(s, buf + j * k, (size_t)k * sizeof *s) != 0)
                bad++;
        }
    }
    while (i < t->ncells && ns_table_get(t, i) != 0)
        i++;
    CHECKF(bad == 0 && i == t->ncells, "%" PRId64 " P-positions differ or some are missing", bad);
    free(buf);
    ns_h5_region_close(r);
}

int main(void)
{
    *ns_test_rng_state() = 0x2545F4914F6CDD1Dull;   /* the inputs this test was written with */
    snprintf(dir, sizeof dir, "/tmp/ns-test-h5-region-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    char path[128];
    ns_error err = {0};

    /* 2-D, each stored width, with and without invalid cells */
    static const struct { int64_t n1, n2; uint32_t vmax; int inv; } cases[] = {
        {37, 53, 200, 1}, {301, 129, 255, 0}, {64, 300, 3000, 1}, {90, 70, 70000, 1}, {1200, 900, 40, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        snprintf(path, sizeof path, "%s/t%zu.h5", dir, c);
        int64_t b[2] = {cases[c].n1, cases[c].n2};
        ns_table *t = write_table(path, 2, b, cases[c].vmax, 0, cases[c].inv);
        int64_t lo[2] = {0, 0}, all[2] = {b[0], b[1]};
        check_region(path, "grundy", t, lo, all, NULL);
        int64_t lo2[2] = {3, 5}, cnt2[2] = {(b[0] - 4) / 4, (b[1] - 6) / 3}, st2[2] = {4, 3};
        check_region(path, "/grundy", t, lo2, cnt2, st2);
        int64_t lo3[2] = {b[0] - 1, 1}, cnt3[2] = {1, b[1] - 1};
        check_region(path, "grundy", t, lo3, cnt3, NULL);
        check_region(path, "pn", t, lo2, cnt2, st2);
        check_bands(path, "grundy", t, 11);
        check_bands(path, "pn", t, 64);
        check_ppos(path, t);
        ns_table_free(t);
    }
    /* 3-D and 1-D tables, a P/N-only file */
    {
        snprintf(path, sizeof path, "%s/k3.h5", dir);
        int64_t b[3] = {9, 14, 33};
        ns_table *t = write_table(path, 3, b, 30, 0, 1);
        int64_t lo[3] = {1, 2, 3}, cnt[3] = {4, 4, 10}, st[3] = {2, 3, 3};
        check_region(path, "grundy", t, lo, cnt, st);
        check_bands(path, "grundy", t, 2);
        check_ppos(path, t);
        ns_table_free(t);
        snprintf(path, sizeof path, "%s/k1.h5", dir);
        int64_t b1[1] = {5000};
        t = write_table(path, 1, b1, 9, 0, 0);
        int64_t lo1[1] = {17}, cnt1[1] = {997}, st1[1] = {5};
        check_region(path, "grundy", t, lo1, cnt1, st1);
        check_bands(path, "grundy", t, 777);
        ns_table_free(t);
        snprintf(path, sizeof path, "%s/pn.h5", dir);
        int64_t b2[2] = {50, 61};
        t = write_table(path, 2, b2, 1, 1, 1);
        int exists = -1;
        CHECK(ns_h5_has_dataset(path, "grundy", &exists, &err) == NS_OK && exists == 0);
        CHECK(ns_h5_has_dataset(path, "/pn", &exists, &err) == NS_OK && exists == 1);
        int64_t o[2] = {0, 0}, all[2] = {50, 61};
        check_region(path, "pn", t, o, all, NULL);
        check_bands(path, "pn", t, 7);
        ns_table *r = NULL;
        CHECK(ns_h5_read_region(path, "grundy", o, all, NULL, &r, &err) == NS_EFORMAT && r == NULL);
        CHECK(strstr(err.msg, "missing dataset /grundy") != NULL);
        ns_table_free(t);
    }
    /* files that are not there or not HDF5 */
    ns_h5_region *r = NULL;
    snprintf(path, sizeof path, "%s/none.h5", dir);
    CHECK(ns_h5_region_open(path, "grundy", &r, &err) == NS_EIO && r == NULL);
    snprintf(path, sizeof path, "%s/text.h5", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("not hdf5\n", f);
        fclose(f);
    }
    CHECK(ns_h5_region_open(path, "grundy", &r, &err) == NS_EFORMAT && r == NULL);

    if (nftw(dir, rm_cb, 8, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return TEST_REPORT();
}
