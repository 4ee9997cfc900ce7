/* test_h5.c - the HDF5 store: round trips of tables and metadata, the file
 * layout checked independently with the raw HDF5 API (stored types, /pn,
 * /p_positions, filters, attributes), and files that must be refused. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_version.h>
#include <hdf5.h>

#include "store/ns_h5.h"
#include "game/ns_table.h"
#include "core/ns_version.h"
#include "testutil.h"

static char dir[64];

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static int exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

static int rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static ns_table *table(int k, const int64_t *bounds, int elem, int pn_only)
{
    ns_error err = {0};
    ns_table *t = ns_table_new(k, bounds, elem, pn_only, &err);
    if (!t) {
        fprintf(stderr, "ns_table_new: %s\n", err.msg);
        exit(2);
    }
    return t;
}

/* values uniform in [0, maxv], invalid with probability inv_pct % */
static void fill_random(ns_table *t, uint32_t maxv, int inv_pct)
{
    for (uint64_t i = 0; i < t->ncells; i++) {
        if (inv_pct && (int)(ns_test_rng() % 100) < inv_pct)
            ns_table_set(t, i, ns_table_invalid(t));
        else
            ns_table_set(t, i, (uint32_t)(ns_test_rng() % ((uint64_t)maxv + 1)));
    }
}

static ns_meta meta(const char *game)
{
    ns_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "%s", game);
    snprintf(m.params, sizeof m.params, "n=3");
    m.threads = 2;
    m.wall_seconds = 0.5;
    m.complete = 1;
    return m;
}

/* ---- raw HDF5 inspection (independent of ns_h5.c's reader) ---- */

static hid_t raw_open(const char *p, unsigned mode)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(p, mode, H5P_DEFAULT);
    if (f < 0) {
        fprintf(stderr, "raw_open %s failed\n", p);
        exit(2);
    }
    return f;
}

static int raw_has(const char *p, const char *name)
{
    hid_t f = raw_open(p, H5F_ACC_RDONLY);
    int r = H5Lexists(f, name, H5P_DEFAULT) > 0;
    H5Fclose(f);
    return r;
}

static int raw_has_attr(const char *p, const char *name)
{
    hid_t f = raw_open(p, H5F_ACC_RDONLY);
    int r = H5Aexists(f, name) > 0;
    H5Fclose(f);
    return r;
}

/* size in bytes and signedness of a dataset's type; dims into dims */
static size_t raw_type(const char *p, const char *name, int *is_unsigned, int *rank, hsize_t *dims)
{
    hid_t f = raw_open(p, H5F_ACC_RDONLY);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t t = H5Dget_type(d), s = H5Dget_space(d);
    size_t size = H5Tget_size(t);
    *is_unsigned = H5Tget_sign(t) == H5T_SGN_NONE;
    *rank = H5Sget_simple_extent_ndims(s);
    H5Sget_simple_extent_dims(s, dims, NULL);
    H5Sclose(s);
    H5Tclose(t);
    H5Dclose(d);
    H5Fclose(f);
    return size;
}

/* whole dataset as mtype into a new buffer (caller frees) */
static void *raw_read(const char *p, const char *name, hid_t mtype, size_t elsize, hsize_t *n)
{
    hid_t f = raw_open(p, H5F_ACC_RDONLY);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t s = H5Dget_space(d);
    *n = (hsize_t)H5Sget_simple_extent_npoints(s);
    void *buf = malloc(*n ? *n * elsize : 1);
    if (H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        fprintf(stderr, "raw_read %s %s failed\n", p, name);
        exit(2);
    }
    H5Sclose(s);
    H5Dclose(d);
    H5Fclose(f);
    return buf;
}

static uint64_t raw_attr_u64(const char *p, const char *name)
{
    uint64_t v = 0;
    hid_t f = raw_open(p, H5F_ACC_RDONLY);
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_UINT64, &v);
    H5Aclose(a);
    H5Fclose(f);
    return v;
}

/* 1 when the attribute is a variable-length string (h5py reads it as str) */
static int raw_attr_is_vlen_str(const char *p, const char *name)
{
    hid_t f = raw_open(p, H5F_ACC_RDONLY);
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    int r = H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) > 0;
    H5Tclose(t);
    H5Aclose(a);
    H5Fclose(f);
    return r;
}

/* chunk dims and filter ids of a dataset; returns the number of filters */
static int raw_layout(const char *p, const char *name, hsize_t *chunk, H5Z_filter_t *filters)
{
    hid_t f = raw_open(p, H5F_ACC_RDONLY);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t pl = H5Dget_create_plist(d);
    int nf = -1;
    if (H5Pget_layout(pl) == H5D_CHUNKED && H5Pget_chunk(pl, NS_MAX_DIM, chunk) > 0) {
        nf = H5Pget_nfilters(pl);
        for (int i = 0; i < nf && i < 8; i++) {
            unsigned fl, cd[8];
            size_t ncd = 8;
            filters[i] = H5Pget_filter2(pl, (unsigned)i, &fl, &ncd, cd, 0, NULL, NULL);
        }
    }
    H5Pclose(pl);
    H5Dclose(d);
    H5Fclose(f);
    return nf;
}

/* ---- checks of one written file against the table it came from ---- */

/* /pn and /p_positions as they must be, computed here from the table
 * with strides of our own */
static void check_layout(const char *p, const ns_table *t)
{
    int uns, rank;
    hsize_t dims[NS_MAX_DIM], n;
    size_t sz = raw_type(p, "/pn", &uns, &rank, dims);
    CHECK(sz == 1 && uns && rank == t->k);
    for (int d = 0; d < t->k && d < rank; d++)
        CHECK(dims[d] == (hsize_t)t->bounds[d]);

    uint8_t *pn = raw_read(p, "/pn", H5T_NATIVE_UINT8, 1, &n);
    CHECK(n == t->ncells);
    uint64_t bad_pn = 0, np = 0;
    const uint32_t inv = ns_table_invalid(t);
    for (uint64_t i = 0; i < t->ncells && i < n; i++) {
        uint32_t v = ns_table_get(t, i);
        uint8_t want = v == inv ? 2 : v == 0 ? 0 : 1;
        bad_pn += pn[i] != want;
        np += v == 0;
    }
    CHECKF(bad_pn == 0, "%s: %" PRIu64 " /pn cells differ", p, bad_pn);
    free(pn);

    raw_type(p, "/p_positions", &uns, &rank, dims);
    CHECK(rank == 2 && dims[0] == np && dims[1] == (hsize_t)t->k);
    CHECK(raw_attr_u64(p, "n_p_positions") == np);
    int64_t *pp = raw_read(p, "/p_positions", H5T_NATIVE_INT64, sizeof(int64_t), &n);
    CHECK(n == np * (uint64_t)t->k);
    uint64_t row = 0, bad_pp = 0;
    for (uint64_t i = 0; i < t->ncells; i++) {
        if (ns_table_get(t, i) != 0)
            continue;
        uint64_t rest = i;
        for (int d = t->k - 1; d >= 0; d--) {
            int64_t c = (int64_t)(rest % (uint64_t)t->bounds[d]);
            rest /= (uint64_t)t->bounds[d];
            if (row < np && pp[row * (uint64_t)t->k + (uint64_t)d] != c)
                bad_pp++;
        }
        row++;
    }
    CHECKF(bad_pp == 0 && row == np, "%s: /p_positions wrong in %" PRIu64 " coordinates", p, bad_pp);
    free(pp);

    hsize_t chunk[NS_MAX_DIM];
    H5Z_filter_t fl[8] = {0};
    const char *names[] = {"/grundy", "/pn"};
    for (int j = t->pn_only ? 1 : 0; j < 2; j++) {
        int nf = raw_layout(p, names[j], chunk, fl);
        CHECKF(nf == 3 && fl[0] == H5Z_FILTER_SHUFFLE && fl[1] == H5Z_FILTER_DEFLATE &&
               fl[2] == H5Z_FILTER_FLETCHER32, "%s %s: filters", p, names[j]);
        uint64_t cells = 1;
        for (int d = 0; d < t->k; d++) {
            CHECK(chunk[d] >= 1 && chunk[d] <= (hsize_t)t->bounds[d]);
            cells *= chunk[d];
        }
        CHECK(cells <= ((uint64_t)1 << 20));
    }
    CHECK(raw_has(p, "/grundy") == !t->pn_only);
}

/* write t, read it back, compare; returns the stored /grundy size (0 when
 * absent) */
static size_t roundtrip(const char *name, const ns_table *t, const ns_meta *m)
{
    char p[256];
    ns_error err = {0};
    path_in(p, sizeof p, name);
    ns_err rc = ns_h5_write(p, t, m, 0, &err);
    CHECKF(rc == NS_OK, "%s: write: %s", name, err.msg);
    if (rc)
        return 0;
    char part[300];
    snprintf(part, sizeof part, "%s.part", p);
    CHECK(!exists(part));

    ns_table *u = NULL;
    ns_meta r;
    rc = ns_h5_read(p, &u, &r, &err);
    CHECKF(rc == NS_OK, "%s: read: %s", name, err.msg);
    if (rc)
        return 0;
    CHECKF(ns_table_equal(t, u), "%s: table differs after the round trip", name);
    CHECK(u->pn_only == t->pn_only && r.pn_only == t->pn_only);
    ns_table_stats st;
    ns_table_summarize(t, &st, NULL, 0);
    CHECK(t->pn_only || u->elem == ns_table_elem_for(st.max_value));
    CHECK(strcmp(r.game, m->game) == 0 && strcmp(r.params, m->params) == 0);
    CHECK(r.play == m->play && r.threads == m->threads && r.wall_seconds == m->wall_seconds);
    CHECK(r.complete == 1);
    CHECK((r.rules_text == NULL) == (m->rules_text == NULL));
    if (r.rules_text && m->rules_text)
        CHECK(strcmp(r.rules_text, m->rules_text) == 0);
    ns_meta_free(&r);
    CHECK(r.rules_text == NULL);
    ns_table_free(u);

    check_layout(p, t);
    if (t->pn_only)
        return 0;
    int uns, rank;
    hsize_t dims[NS_MAX_DIM];
    size_t sz = raw_type(p, "/grundy", &uns, &rank, dims);
    CHECK(uns && rank == t->k);
    return sz;
}

/* ---- the tests ---- */

static void test_shapes_and_types(void)
{
    ns_meta m = meta("wythoff");
    /* 1-D, elem 1, small values: uint8 */
    int64_t b1[] = {1000};
    ns_table *t = table(1, b1, 1, 0);
    for (uint64_t i = 0; i < t->ncells; i++)
        ns_table_set(t, i, (uint32_t)(i % 7));
    CHECK(roundtrip("d1.h5", t, &m) == 1);
    ns_table_free(t);

    /* 2-D, elem 4 with values < 200: shrinks to uint8 */
    int64_t b2[] = {100, 37};
    t = table(2, b2, 4, 0);
    fill_random(t, 199, 0);
    CHECK(roundtrip("d2_small.h5", t, &m) == 1);
    ns_table_free(t);

    /* elem 4 with max 300: uint16 */
    t = table(2, b2, 4, 0);
    fill_random(t, 299, 0);
    ns_table_set(t, 5, 300);
    CHECK(roundtrip("d2_mid.h5", t, &m) == 2);
    ns_table_free(t);

    /* elem 2 with max exactly 255 and no invalid cell: uint8, read back as
     * elem 2 (255 must not become the marker) */
    t = table(2, b2, 2, 0);
    fill_random(t, 255, 0);
    ns_table_set(t, 7, 255);
    {
        char p[256];
        ns_error err = {0};
        CHECK(roundtrip("d2_255.h5", t, &m) == 1);
        path_in(p, sizeof p, "d2_255.h5");
        CHECK(!raw_has_attr(p, "invalid_value"));
        ns_table *u = NULL;
        ns_meta r;
        if (ns_h5_read(p, &u, &r, &err) == NS_OK) {
            CHECK(u->elem == 2 && ns_table_get(u, 7) == 255);
            ns_table_free(u);
            ns_meta_free(&r);
        }
    }
    ns_table_free(t);

    /* 3-D, a value > 65535 forces uint32 */
    int64_t b3[] = {17, 9, 33};
    t = table(3, b3, 4, 0);
    fill_random(t, 1000, 0);
    ns_table_set(t, 100, 70000);
    CHECK(roundtrip("d3_big.h5", t, &m) == 4);
    ns_table_free(t);

    /* 3-D, elem 2, values up to 60000: uint16 */
    t = table(3, b3, 2, 0);
    fill_random(t, 60000, 0);
    CHECK(roundtrip("d3_u16.h5", t, &m) == 2);
    ns_table_free(t);

    /* a bigger 2-D table whose chunks tile it (several chunk rows, edge
     * chunks) */
    int64_t bb[] = {1500, 1100};
    t = table(2, bb, 2, 0);
    for (uint64_t i = 0; i < t->ncells; i++) {
        uint64_t x = i / 1100, y = i % 1100;
        ns_table_set(t, i, (uint32_t)((x ^ y) & 0x3FF));
    }
    CHECK(roundtrip("d2_tiles.h5", t, &m) == 2);
    ns_table_free(t);

    /* 3-D, a short first dimension: chunks tile the two others */
    int64_t b3t[] = {5, 300, 700};
    t = table(3, b3t, 4, 0);
    fill_random(t, 100000, 0);
    CHECK(roundtrip("d3_tiles.h5", t, &m) == 4);
    ns_table_free(t);

    /* 1-D over several chunks */
    int64_t b1l[] = {3000001};
    t = table(1, b1l, 1, 0);
    fill_random(t, 30, 0);
    CHECK(roundtrip("d1_long.h5", t, &m) == 1);
    ns_table_free(t);

    /* no P-position at all: /p_positions is 0 x k */
    t = table(2, b2, 1, 0);
    fill_random(t, 10, 0);
    for (uint64_t i = 0; i < t->ncells; i++)
        if (ns_table_get(t, i) == 0)
            ns_table_set(t, i, 1);
    roundtrip("nop.h5", t, &m);
    ns_table_free(t);
}

static void test_invalid_cells(void)
{
    ns_meta m = meta("rules");
    int64_t b[] = {60, 70};
    char p[256];

    /* elem 2, values < 254 and invalid cells: uint8, marker 255 */
    ns_table *t = table(2, b, 2, 0);
    fill_random(t, 253, 20);
    CHECK(roundtrip("inv8.h5", t, &m) == 1);
    path_in(p, sizeof p, "inv8.h5");
    CHECK(raw_has_attr(p, "invalid_value") && raw_attr_u64(p, "invalid_value") == 0xFF);
    ns_table_free(t);

    /* max 255 with invalid cells: the marker needs uint16 */
    t = table(2, b, 4, 0);
    fill_random(t, 255, 20);
    ns_table_set(t, 0, 255);
    CHECK(roundtrip("inv16.h5", t, &m) == 2);
    path_in(p, sizeof p, "inv16.h5");
    CHECK(raw_attr_u64(p, "invalid_value") == 0xFFFF);
    ns_table_free(t);

    /* max 65535 with invalid cells: uint32 */
    t = table(2, b, 4, 0);
    fill_random(t, 65535, 20);
    ns_table_set(t, 1, 65535);
    CHECK(roundtrip("inv32.h5", t, &m) == 4);
    path_in(p, sizeof p, "inv32.h5");
    CHECK(raw_attr_u64(p, "invalid_value") == 0xFFFFFFFFu);
    ns_table_free(t);

    /* elem 1, every cell invalid */
    t = table(2, b, 1, 0);
    memset(t->data, 0xFF, t->ncells);
    CHECK(roundtrip("allinv.h5", t, &m) == 1);
    ns_table_free(t);
}

static void test_pn_only(void)
{
    ns_meta m = meta("wythoff");
    m.pn_only = 1;
    int64_t b[] = {33, 40, 5};
    ns_table *t = table(3, b, 1, 1);
    fill_random(t, 1, 10);
    CHECK(roundtrip("pn.h5", t, &m) == 0);
    char p[256];
    path_in(p, sizeof p, "pn.h5");
    CHECK(!raw_has(p, "/grundy"));
    CHECK(!raw_has_attr(p, "invalid_value"));
    ns_table_free(t);

    int64_t b1[] = {77};
    t = table(1, b1, 1, 1);
    fill_random(t, 1, 0);
    roundtrip("pn1.h5", t, &m);
    ns_table_free(t);
}

static void test_metadata(void)
{
    ns_meta m = meta("rules");
    static char rules[] = "# 取石子: two piles\n"
                          "piles 2\n"
                          "move take any from one pile\n"
                          "move take equal from both\n";
    m.rules_text = rules;
    snprintf(m.params, sizeof m.params, "a=2;set=1,3,4");
    m.play = NS_PLAY_MISERE;
    m.threads = 7;
    m.wall_seconds = 1.25;
    int64_t b[] = {20, 30};
    ns_table *t = table(2, b, 1, 0);
    fill_random(t, 5, 0);
    roundtrip("meta.h5", t, &m);

    char p[256];
    path_in(p, sizeof p, "meta.h5");
    ns_meta r;
    ns_error err = {0};
    int k = 0;
    int64_t rb[NS_MAX_DIM] = {0};
    ns_err rc = ns_h5_read_meta(p, &r, &k, rb, &err);
    CHECKF(rc == NS_OK, "read_meta: %s", err.msg);
    if (rc == NS_OK) {
        CHECK(k == 2 && rb[0] == 20 && rb[1] == 30);
        CHECK(strcmp(r.game, "rules") == 0);
        CHECK(r.rules_text && strcmp(r.rules_text, rules) == 0);
        CHECK(strcmp(r.params, "a=2;set=1,3,4") == 0);
        CHECK(r.play == NS_PLAY_MISERE && r.threads == 7 && r.wall_seconds == 1.25);
        CHECK(r.complete == 1 && r.pn_only == 0);
        CHECK(strcmp(r.nimsieve_version, NS_VERSION) == 0);
        CHECK(strcmp(r.git_revision, NS_GIT_REVISION) == 0);
        CHECK(strcmp(r.gsl_version, GSL_VERSION) == 0);
        CHECK(strcmp(r.compiler, NS_COMPILER) == 0);
        CHECK(strcmp(r.hdf5_version, ns_h5_library_version()) == 0);
        unsigned a, bb, c;
        H5get_libversion(&a, &bb, &c);
        char want[32];
        snprintf(want, sizeof want, "%u.%u.%u", a, bb, c);
        CHECK(strcmp(ns_h5_library_version(), want) == 0);
        /* 2024-05-01T12:34:56Z */
        const char *u = r.created_utc;
        CHECKF(strlen(u) == 20 && u[4] == '-' && u[7] == '-' && u[10] == 'T' && u[13] == ':' &&
               u[16] == ':' && u[19] == 'Z' && strncmp(u, "20", 2) == 0, "created_utc = %s", u);
        ns_meta_free(&r);
        ns_meta_free(&r); /* stays usable */
    }
    const char *strs[] = {"game", "rules", "params", "play", "kind", "nimsieve_version", "git_revision",
                          "created_utc", "hdf5_version", "gsl_version", "compiler", "build_flags"};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        CHECKF(raw_attr_is_vlen_str(p, strs[i]), "attribute %s is not a variable-length string", strs[i]);
    CHECK(raw_attr_u64(p, "complete") == 1);
    CHECK(raw_attr_u64(p, "max_value") == 5);

    /* a fixed-length string attribute (as another tool may write) reads too */
    hid_t f = raw_open(p, H5F_ACC_RDWR);
    H5Adelete(f, "game");
    hid_t ty = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(ty, 7);
    H5Tset_strpad(ty, H5T_STR_NULLPAD);
    hid_t a = H5Acreate2(f, "game", ty, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, ty, "wythoff");
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(ty);
    H5Fclose(f);
    rc = ns_h5_read_meta(p, &r, &k, rb, &err);
    CHECKF(rc == NS_OK && strcmp(r.game, "wythoff") == 0, "fixed-length game: %s / %s", err.msg, r.game);
    if (rc == NS_OK)
        ns_meta_free(&r);
    ns_table_free(t);
}

static void test_overwrite(void)
{
    ns_meta m = meta("nim");
    int64_t b[] = {10, 10};
    ns_table *t1 = table(2, b, 1, 0), *t2 = table(2, b, 1, 0);
    fill_random(t1, 9, 0);
    fill_random(t2, 9, 0);
    CHECK(!ns_table_equal(t1, t2));
    char p[256];
    path_in(p, sizeof p, "over.h5");
    ns_error err = {0};
    CHECK(ns_h5_write(p, t1, &m, 0, &err) == NS_OK);
    ns_err rc = ns_h5_write(p, t2, &m, 0, &err);
    CHECK(rc == NS_EINVAL || rc == NS_EIO);
    CHECKF(strstr(err.msg, "exists") && strstr(err.msg, "--force"), "message: %s", err.msg);
    ns_table *u = NULL;
    ns_meta r;
    if (ns_h5_read(p, &u, &r, &err) == NS_OK) {
        CHECK(ns_table_equal(u, t1));
        ns_table_free(u);
        ns_meta_free(&r);
    } else {
        CHECKF(0, "read after refusal: %s", err.msg);
    }
    CHECK(ns_h5_write(p, t2, &m, NS_H5_FORCE, &err) == NS_OK);
    if (ns_h5_read(p, &u, &r, &err) == NS_OK) {
        CHECK(ns_table_equal(u, t2));
        ns_table_free(u);
        ns_meta_free(&r);
    } else {
        CHECKF(0, "read after --force: %s", err.msg);
    }
    ns_table_free(t1);
    ns_table_free(t2);
}

static void expect_read_fails(const char *p, ns_err code, const char *needle)
{
    ns_error err = {0};
    ns_table *u = (ns_table *)&err; /* must be reset to NULL */
    ns_meta r;
    ns_err rc = ns_h5_read(p, &u, &r, &err);
    CHECKF(rc == code && u == NULL, "%s: read gave %d (%s), expected %d", p, rc, err.msg, code);
    CHECKF(err.code == rc && strstr(err.msg, p) != NULL, "%s: message does not name the file: %s", p, err.msg);
    if (needle)
        CHECKF(strstr(err.msg, needle) != NULL, "%s: message lacks \"%s\": %s", p, needle, err.msg);
    CHECK(strchr(err.msg, '\n') == NULL);
    if (rc == NS_OK) {
        ns_table_free(u);
        ns_meta_free(&r);
    }
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    if (!a || !b) {
        fprintf(stderr, "copy %s -> %s: %s\n", from, to, strerror(errno));
        exit(2);
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, a)) > 0)
        fwrite(buf, 1, n, b);
    fclose(a);
    fclose(b);
}

static long file_size(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 ? (long)sb.st_size : -1;
}

static void test_bad_files(void)
{
    char p[256], q[256];
    ns_error err = {0};
    ns_meta m = meta("wythoff");

    /* not there */
    path_in(p, sizeof p, "missing.h5");
    expect_read_fails(p, NS_EIO, NULL);

    /* not HDF5 */
    path_in(p, sizeof p, "text.h5");
    FILE *f = fopen(p, "w");
    fputs("this is not an HDF5 file\n", f);
    fclose(f);
    expect_read_fails(p, NS_EFORMAT, "HDF5");
    {
        ns_meta r;
        int k;
        int64_t b[NS_MAX_DIM];
        CHECK(ns_h5_read_meta(p, &r, &k, b, &err) == NS_EFORMAT);
    }

    /* a good file to break */
    int64_t b[] = {200, 200};
    ns_table *t = table(2, b, 4, 0);
    fill_random(t, (1u << 30), 0);
    path_in(p, sizeof p, "good.h5");
    CHECK(ns_h5_write(p, t, &m, 0, &err) == NS_OK);
    long size = file_size(p);
    CHECK(size > 160000);

    /* truncated to half */
    path_in(q, sizeof q, "trunc.h5");
    copy_file(p, q);
    CHECK(truncate(q, size / 2) == 0);
    expect_read_fails(q, NS_EFORMAT, NULL);
    {
        ns_meta r;
        int k;
        int64_t bb[NS_MAX_DIM];
        CHECK(ns_h5_read_meta(q, &r, &k, bb, &err) == NS_EFORMAT);
    }

    /* one flipped byte in the chunk data: the read fails (checksum) or, if
     * the byte was outside what is read, returns the exact table */
    int nfail = 0, nwrong = 0;
    for (int j = -4; j <= 4; j++) {
        long off = size / 2 + j * 1009;
        copy_file(p, q);
        FILE *g = fopen(q, "r+b");
        fseek(g, off, SEEK_SET);
        int c = fgetc(g);
        fseek(g, off, SEEK_SET);
        fputc(c ^ 0x5A, g);
        fclose(g);
        ns_table *u = NULL;
        ns_meta r;
        ns_err rc = ns_h5_read(q, &u, &r, &err);
        if (rc == NS_OK) {
            nwrong += !ns_table_equal(t, u);
            ns_table_free(u);
            ns_meta_free(&r);
        } else {
            nfail++;
            CHECKF(rc == NS_EFORMAT && (strstr(err.msg, "checksum") || strstr(err.msg, "corrupt")),
                   "flip at %ld: %d %s", off, rc, err.msg);
        }
    }
    CHECKF(nfail >= 1, "no flipped byte was detected");
    CHECK(nwrong == 0);

    /* a missing dataset */
    const char *dsets[] = {"/grundy", "/pn", "/p_positions"};
    for (int i = 0; i < 3; i++) {
        copy_file(p, q);
        hid_t h = raw_open(q, H5F_ACC_RDWR);
        H5Ldelete(h, dsets[i], H5P_DEFAULT);
        H5Fclose(h);
        expect_read_fails(q, NS_EFORMAT, dsets[i]);
    }

    /* /pn of the wrong shape */
    copy_file(p, q);
    hid_t h = raw_open(q, H5F_ACC_RDWR);
    H5Ldelete(h, "/pn", H5P_DEFAULT);
    hsize_t wrong[2] = {200, 199};
    hid_t sp = H5Screate_simple(2, wrong, NULL);
    hid_t d = H5Dcreate2(h, "/pn", H5T_STD_U8LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(h);
    expect_read_fails(q, NS_EFORMAT, "shape");

    /* /grundy of rank 1 */
    copy_file(p, q);
    h = raw_open(q, H5F_ACC_RDWR);
    H5Ldelete(h, "/grundy", H5P_DEFAULT);
    hsize_t flat = 40000;
    sp = H5Screate_simple(1, &flat, NULL);
    d = H5Dcreate2(h, "/grundy", H5T_STD_U32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(h);
    expect_read_fails(q, NS_EFORMAT, "rank");

    /* /p_positions with more rows than n_p_positions */
    copy_file(p, q);
    h = raw_open(q, H5F_ACC_RDWR);
    hsize_t n_p = raw_attr_u64(p, "n_p_positions") + 3, pd[2] = {n_p, 2};
    H5Ldelete(h, "/p_positions", H5P_DEFAULT);
    sp = H5Screate_simple(2, pd, NULL);
    d = H5Dcreate2(h, "/p_positions", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(h);
    expect_read_fails(q, NS_EFORMAT, "/p_positions");

    /* no complete attribute */
    copy_file(p, q);
    h = raw_open(q, H5F_ACC_RDWR);
    H5Adelete(h, "complete");
    H5Fclose(h);
    expect_read_fails(q, NS_EFORMAT, "incomplete");

    /* max_value below the data: caught by the scan */
    copy_file(p, q);
    h = raw_open(q, H5F_ACC_RDWR);
    hid_t a = H5Aopen(h, "max_value", H5P_DEFAULT);
    uint32_t small = 5;
    H5Awrite(a, H5T_NATIVE_UINT32, &small);
    H5Aclose(a);
    H5Fclose(h);
    expect_read_fails(q, NS_EFORMAT, "max_value");

    /* written as incomplete */
    m.complete = 0;
    path_in(q, sizeof q, "incomplete.h5");
    CHECK(ns_h5_write(q, t, &m, 0, &err) == NS_OK);
    expect_read_fails(q, NS_EFORMAT, "incomplete");
    ns_table_free(t);
}

static void test_failed_writes(void)
{
    ns_meta m = meta("wythoff");
    int64_t b[] = {10, 10};
    ns_table *t = table(2, b, 1, 0);
    fill_random(t, 3, 0);
    ns_error err = {0};
    char p[256], part[300];

    /* into a directory that does not exist */
    path_in(p, sizeof p, "nodir/x.h5");
    ns_err rc = ns_h5_write(p, t, &m, 0, &err);
    CHECKF(rc == NS_EIO && strstr(err.msg, p), "%d %s", rc, err.msg);
    snprintf(part, sizeof part, "%s.part", p);
    CHECK(!exists(part) && !exists(p));

    /* over a directory: the .part file is made, the rename fails, the
     * .part file is removed and the directory stays */
    path_in(p, sizeof p, "adir");
    CHECK(mkdir(p, 0700) == 0);
    rc = ns_h5_write(p, t, &m, NS_H5_FORCE, &err);
    CHECKF(rc == NS_EIO, "%d %s", rc, err.msg);
    snprintf(part, sizeof part, "%s.part", p);
    struct stat sb;
    CHECK(!exists(part) && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode));
    ns_table_free(t);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_h5.XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_shapes_and_types();
    test_invalid_cells();
    test_pn_only();
    test_metadata();
    test_overwrite();
    test_bad_files();
    test_failed_writes();

    /* nothing left open by the store (or by the raw checks above) */
    ssize_t nobj = H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL);
    CHECKF(nobj == 0, "%zd HDF5 files or objects left open", nobj);
    if (ns_test_failed == 0 && !getenv("NS_TEST_KEEP"))
        nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
    else
        fprintf(stderr, "files kept in %s\n", dir);
    return TEST_REPORT();
}
