/* test_rules_domain.c - 'domain filter' and 'symmetric' in rule files.
 *
 * Filter domains: games whose options are dropped when they fall outside a
 * 'domain filter' (in the middle of a ray, by a condition that is not
 * linear, in a general family, beside a plain domain) give, at 1 and 3
 * threads, normal and misere play, the values of a naive solver written
 * here from the rules (memoised mex, no engine); their rays stay rays.
 *
 * Symmetric games: Wythoff and 3-pile Nim written with 'symmetric' give the
 * tables of data/rules/wythoff.rules and data/rules/nim.rules on the sorted
 * cells (the others invalid) at 1 and 3 threads; written to a file and read
 * back (ns_h5_read fills the mirrored cells) they give the whole table cell
 * for cell, and the game rebuilt from the file (ns_game_from_meta) lists at
 * a mirrored position the mirrored options. Files whose moves, domain or
 * rank are not symmetric are refused with the line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/ns_rules.h"
#include "game/ns_rules_info.h"
#include "game/ns_table.h"
#include "store/ns_h5.h"
#include "testutil.h"
#include "tsolve.h"

#define INVALID UINT32_MAX
#define MAXOPT 4096

/* ---------- the naive solver ---------- */

typedef int (*valid_fn)(const int64_t *s, int64_t n);
/* options of position s into o (k values each); returns their number */
typedef int (*opts_fn)(const int64_t *s, int64_t n, int64_t *o);

typedef struct naive {
    int k;
    int64_t n;          /* box side */
    valid_fn valid;
    opts_fn opts;
    int misere;
    uint32_t *memo;     /* INVALID - 1: not yet known */
} naive;

static uint64_t nidx(const naive *nv, const int64_t *s)
{
    uint64_t i = 0;
    for (int d = 0; d < nv->k; d++)
        i = i * (uint64_t)nv->n + (uint64_t)s[d];
    return i;
}

static uint32_t nval(naive *nv, const int64_t *s)
{
    uint64_t i = nidx(nv, s);
    if (nv->memo[i] != INVALID - 1)
        return nv->memo[i];
    if (!nv->valid(s, nv->n))
        return nv->memo[i] = INVALID;
    int64_t *o = malloc(MAXOPT * 3 * sizeof *o);
    int no = nv->opts(s, nv->n, o);
    CHECK(no >= 0 && no <= MAXOPT);
    unsigned char seen[MAXOPT + 2] = {0};
    for (int j = 0; j < no; j++) {
        uint32_t v = nval(nv, o + (size_t)j * (size_t)nv->k);
        CHECK(v != INVALID);
        if (v <= MAXOPT)
            seen[v] = 1;
    }
    free(o);
    uint32_t m = 0;
    while (seen[m])
        m++;
    if (nv->misere && no == 0)
        m = 1;
    return nv->memo[i] = m;
}

/* Compare table t with the naive values of the whole box. */
static void check_against_naive(const char *name, const ns_table *t, int k, int64_t n, valid_fn valid, opts_fn opts,
                                int misere)
{
    uint64_t cells = 1;
    for (int d = 0; d < k; d++)
        cells *= (uint64_t)n;
    naive nv = {k, n, valid, opts, misere, malloc(cells * sizeof(uint32_t))};
    for (uint64_t i = 0; i < cells; i++)
        nv.memo[i] = INVALID - 1;
    int bad = 0;
    for (uint64_t i = 0; i < cells; i++) {
        int64_t s[NS_MAX_DIM];
        uint64_t r = i;
        for (int d = k - 1; d >= 0; d--) {
            s[d] = (int64_t)(r % (uint64_t)n);
            r /= (uint64_t)n;
        }
        uint32_t want = nval(&nv, s);
        uint32_t got = ns_table_get(t, ns_table_index(t, s));
        if (got == ns_table_invalid(t))
            got = INVALID;
        if (got != want && bad++ < 3) {
            char p[80];
            ns_format_pos(k, s, p, sizeof p);
            fprintf(stderr, "%s: at %s the engine gives %" PRIu32 ", the naive solver %" PRIu32 "\n", name, p, got, want);
        }
    }
    CHECKF(bad == 0, "%s: %d cells differ", name, bad);
    free(nv.memo);
}

typedef struct optset {
    int64_t o[MAXOPT][3];
    int n;
} optset;

static int collect(void *u, const int64_t *opt)
{
    optset *os = u;
    if (os->n < MAXOPT) {
        memcpy(os->o[os->n], opt, 2 * sizeof *opt);
        os->n++;
    }
    return 0;
}

/* ---------- filter domains ---------- */

/* G1: take from x, or the same from both; options with x == 3 or y == 2
 * are not positions (so are not moves): the rays jump over them. */
static const char *g1_text = "piles x y\n"
                             "domain filter x != 3 and y != 2\n"
                             "move x -> x - t                  for t in 1..x\n"
                             "move (x, y) -> (x - t, y - t)    for t in 1..min(x, y)\n";

static int g1_valid(const int64_t *s, int64_t n)
{
    (void)n;
    return s[0] != 3 && s[1] != 2;
}

static int g1_opts(const int64_t *s, int64_t n, int64_t *o)
{
    int c = 0;
    for (int64_t t = 1; t <= s[0]; t++) {
        int64_t a[2] = {s[0] - t, s[1]};
        if (g1_valid(a, n)) {
            o[2 * c] = a[0];
            o[2 * c++ + 1] = a[1];
        }
    }
    for (int64_t t = 1; t <= s[0] && t <= s[1]; t++) {
        int64_t a[2] = {s[0] - t, s[1] - t};
        if (g1_valid(a, n)) {
            o[2 * c] = a[0];
            o[2 * c++ + 1] = a[1];
        }
    }
    return c;
}

/* G2: a general family (take 1 to 3 tokens in all from the two piles) and
 * a filter that is not linear: x + y must not be 1 mod 3. */
static const char *g2_text = "piles x y\n"
                             "domain filter (x + y) mod 3 != 1\n"
                             "move (x, y) -> (x - a, y - b)    for a in 0..x, b in 0..y   where 1 <= a + b <= 3\n";

static int g2_valid(const int64_t *s, int64_t n)
{
    (void)n;
    return (s[0] + s[1]) % 3 != 1;
}

static int g2_opts(const int64_t *s, int64_t n, int64_t *o)
{
    int c = 0;
    for (int64_t a = 0; a <= s[0]; a++)
        for (int64_t b = 0; b <= s[1]; b++) {
            int64_t p[2] = {s[0] - a, s[1] - b};
            if (a + b >= 1 && a + b <= 3 && g2_valid(p, n)) {
                o[2 * c] = p[0];
                o[2 * c++ + 1] = p[1];
            }
        }
    return c;
}

/* G3: a plain domain (moves must keep it: y - x stays >= 0 since only y
 * shrinks down to x) beside a filter x <= y ... written as a filter on a
 * move that would leave it: take from y anything, from x anything; the
 * positions are x <= y and y != 2*x + 1 (a linear filter). */
static const char *g3_text = "piles x y\n"
                             "domain x + y < 2 * size(x)\n"
                             "domain filter x <= y\n"
                             "domain filter y != 2*x + 1\n"
                             "move y -> y - t                  for t in 1..y\n"
                             "move x -> x - t                  for t in 1..x\n"
                             "move (x, y) -> (x - 1, y + 1)    where x >= 1 and y + 1 < size(y)\n";

static int g3_valid(const int64_t *s, int64_t n)
{
    return s[0] + s[1] < 2 * n && s[0] <= s[1] && s[1] != 2 * s[0] + 1;
}

static int g3_opts(const int64_t *s, int64_t n, int64_t *o)
{
    int c = 0;
    for (int64_t t = 1; t <= s[1]; t++) {
        int64_t a[2] = {s[0], s[1] - t};
        if (g3_valid(a, n)) {
            o[2 * c] = a[0];
            o[2 * c++ + 1] = a[1];
        }
    }
    for (int64_t t = 1; t <= s[0]; t++) {
        int64_t a[2] = {s[0] - t, s[1]};
        if (g3_valid(a, n)) {
            o[2 * c] = a[0];
            o[2 * c++ + 1] = a[1];
        }
    }
    if (s[0] >= 1 && s[1] + 1 < n) {
        int64_t a[2] = {s[0] - 1, s[1] + 1};
        if (g3_valid(a, n)) {
            o[2 * c] = a[0];
            o[2 * c++ + 1] = a[1];
        }
    }
    return c;
}

/* The rank x + y would not fall with the last move: use the rank 2x + y. */
static const char *g3_rank = "rank 2*x + y\n";

static void filter_case(const char *name, const char *text, valid_fn valid, opts_fn opts, int want_rays, int64_t n)
{
    /* the classes: every family a ray when want_rays */
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = NULL;
    ns_rules_info *info = NULL;
    CHECKF(ns_rules_compile_info(text, name, &ps, 2, &g, &info, &err) == NS_OK, "%s: %s", name, err.msg);
    if (g && want_rays)
        for (int i = 0; i < g->nfam; i++)
            CHECKF(g->fam[i].kind == NS_FAM_RAY, "%s: family %d is not a ray (%s)", name, i,
                   info && i < info->nfam ? info->fam[i].why : "");
    if (info)
        CHECK(info->has_filter);
    ns_rules_info_free(info);
    ns_game_free(g);
    int64_t b[2] = {n, n};
    for (int misere = 0; misere <= 1; misere++)
        for (int th = 1; th <= 3; th += 2) {
            ns_table *t = ns_tsolve_rules(text, 2, b, misere, 0, th, NULL);
            CHECKF(t != NULL, "%s: solve failed", name);
            if (!t)
                continue;
            char nm[96];
            snprintf(nm, sizeof nm, "%s (%s, %d threads)", name, misere ? "misere" : "normal", th);
            check_against_naive(nm, t, 2, n, valid, opts, misere);
            ns_table_free(t);
        }
}

static void test_filters(void)
{
    filter_case("g1", g1_text, g1_valid, g1_opts, 1, 24);
    filter_case("g2", g2_text, g2_valid, g2_opts, 0, 16);
    char g3[1024];
    snprintf(g3, sizeof g3, "%s%s", g3_rank, g3_text);
    filter_case("g3", g3, g3_valid, g3_opts, 0, 20);

    /* the same G1 with a plain domain: the first move into x == 3 is an error */
    const char *strict = "piles x y\n"
                         "domain x != 3 and y != 2\n"
                         "move x -> x - t                  for t in 1..x\n";
    int64_t b[2] = {8, 8};
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = NULL;
    CHECK(ns_rules_compile(strict, "strict", &ps, 2, &g, &err) == NS_OK);
    CHECK(g && g->nfam == 1 && g->fam[0].kind == NS_FAM_GENERAL);
    if (g) {
        CHECK(ns_game_set_bounds(g, b, &err) == NS_OK);
        int64_t s[2] = {5, 4};
        optset os = {.n = 0};
        int rc = ns_game_foreach_option(g, s, collect, &os, &err);
        CHECKF(rc < 0 && strstr(err.msg, "strict:3:1: the move from (5, 4) leads to (3, 4), outside the domain"), "%s", err.msg);
        ns_game_free(g);
    }
}

/* ---------- symmetric games ---------- */

static char *read_text(const char *path)
{
    char *text = NULL;
    ns_error err = {0};
    CHECKF(ns_rules_read_file(path, &text, &err) == NS_OK, "%s", err.msg);
    return text;
}

static int sorted(const int64_t *s, int k)
{
    for (int i = 1; i < k; i++)
        if (s[i - 1] > s[i])
            return 0;
    return 1;
}

/* Partial reads of a symmetric game's file (plots read so) give the whole
 * game's cells, mirrored ones included: random boxes and strides against
 * the plain file's table; the one-shot reader too. */
static void region_reads(const char *name, const char *path, const ns_table *ref, int k)
{
    ns_error err = {0};
    ns_h5_region *r = NULL;
    CHECKF(ns_h5_region_open(path, "grundy", &r, &err) == NS_OK, "%s", err.msg);
    if (!r)
        return;
    CHECK(ns_h5_region_info(r)->nsym == k);
    const int elem = ns_h5_region_info(r)->elem;
    int bad = 0;
    for (int trial = 0; trial < 40; trial++) {
        int64_t lo[NS_MAX_DIM], count[NS_MAX_DIM], stride[NS_MAX_DIM];
        uint64_t n = 1;
        for (int d = 0; d < k; d++) {
            const int64_t side = ref->bounds[d];
            lo[d] = (int64_t)(ns_test_rng() % (uint64_t)side);
            stride[d] = 1 + (int64_t)(ns_test_rng() % 3);
            int64_t most = (side - 1 - lo[d]) / stride[d] + 1;
            count[d] = 1 + (int64_t)(ns_test_rng() % (uint64_t)most);
            n *= (uint64_t)count[d];
        }
        uint8_t *buf = malloc(n * (uint64_t)elem);
        CHECK(buf != NULL);
        if (!buf)
            break;
        CHECKF(ns_h5_region_read(r, lo, count, stride, buf, &err) == NS_OK, "%s", err.msg);
        int64_t idx[NS_MAX_DIM] = {0}, c[NS_MAX_DIM] = {0};
        for (uint64_t i = 0; i < n; i++) {
            for (int d = 0; d < k; d++)
                c[d] = lo[d] + idx[d] * stride[d];
            uint32_t v = elem == 1 ? buf[i] : elem == 2 ? ((uint16_t *)buf)[i] : ((uint32_t *)buf)[i];
            bad += v != ns_table_get(ref, ns_table_index(ref, c));
            for (int d = k - 1; d >= 0 && ++idx[d] == count[d]; d--)
                idx[d] = 0;
        }
        free(buf);
    }
    CHECKF(bad == 0, "%s: %d cells of region reads differ from the plain file's", name, bad);
    ns_h5_region_close(r);
    /* one shot: the whole table */
    int64_t lo[NS_MAX_DIM] = {0};
    ns_table *t = NULL;
    CHECKF(ns_h5_read_region(path, "pn", lo, ref->bounds, NULL, &t, &err) == NS_OK, "%s", err.msg);
    int pbad = 0;
    for (uint64_t i = 0; t && i < t->ncells; i++)
        pbad += (ns_table_get(t, i) == 0) != (ns_table_get(ref, i) == 0);
    CHECKF(pbad == 0, "%s: %d cells of /pn read as a region differ", name, pbad);
    ns_table_free(t);
}

/* The symmetric text against the plain one: k piles, box side n. */
static void sym_case(const char *name, const char *sym_text, const char *plain_text, int k, int64_t n)
{
    int64_t b[3] = {n, n, n};
    for (int misere = 0; misere <= 1; misere++) {
        ns_table *ref = ns_tsolve_rules(plain_text, k, b, misere, 0, 1, NULL);
        CHECKF(ref != NULL, "%s: the plain file failed", name);
        for (int th = 1; th <= 3; th += 2) {
            ns_game *g = NULL;
            ns_table *t = ns_tsolve_rules(sym_text, k, b, misere, 0, th, &g);
            CHECKF(t != NULL, "%s: the symmetric file failed", name);
            if (!t || !ref) {
                ns_table_free(t);
                ns_game_free(g);
                continue;
            }
            CHECK(g->nsym == k);
            int bad = 0;
            uint64_t stored = 0;
            for (uint64_t i = 0; i < t->ncells; i++) {
                int64_t s[NS_MAX_DIM];
                ns_table_coords(t, i, s);
                uint32_t v = ns_table_get(t, i), w = ns_table_get(ref, i);
                if (sorted(s, k)) {
                    stored++;
                    bad += v != w;
                } else {
                    bad += v != ns_table_invalid(t);
                }
            }
            CHECKF(bad == 0, "%s (%s, %d threads): %d cells differ from the plain file's (sorted) or are not invalid", name,
                   misere ? "misere" : "normal", th, bad);
            /* through the store: the file holds the sorted cells, the reader the whole table */
            char path[] = "/tmp/ns_test_symXXXXXX";
            int fd = mkstemp(path);
            CHECK(fd >= 0);
            if (fd >= 0)
                close(fd);
            ns_meta m;
            memset(&m, 0, sizeof m);
            snprintf(m.game, sizeof m.game, "rules");
            m.rules_text = (char *)sym_text;
            m.play = g->play;
            m.complete = 1;
            m.threads = th;
            m.nsym = g->nsym;
            memcpy(m.sym, g->sym, sizeof m.sym);
            ns_error err = {0};
            ns_table_stats st;
            CHECKF(ns_h5_write_stats(path, t, &m, NS_H5_FORCE, &st, &err) == NS_OK, "%s", err.msg);
            CHECK(st.n_valid == stored);
            ns_table *back = NULL;
            ns_meta m2;
            CHECKF(ns_h5_read(path, &back, &m2, &err) == NS_OK, "%s", err.msg);
            CHECK(m2.nsym == k);
            CHECKF(back && ns_table_equal(back, ref), "%s: the table read back is not the plain file's", name);
            region_reads(name, path, ref, k);
            /* readers' game: a mirrored position has the mirrored options */
            ns_game *rg = NULL;
            int64_t kk = 0, bounds[NS_MAX_DIM];
            int kd = 0;
            ns_meta m3;
            CHECK(ns_h5_read_meta(path, &m3, &kd, bounds, &err) == NS_OK);
            CHECKF(ns_game_from_meta(&m3, kd, bounds, &rg, &err) == NS_OK, "%s", err.msg);
            if (rg && k == 2) {
                int64_t s[2] = {n - 1, n / 2};
                optset a = {.n = 0}, c = {.n = 0};
                CHECK(ns_game_is_position(rg, s));
                CHECK(ns_game_foreach_option(rg, s, collect, &a, &err) == 0);
                int64_t ms[2] = {s[1], s[0]};
                CHECK(ns_game_foreach_option(rg, ms, collect, &c, &err) == 0);
                CHECK(a.n == c.n && a.n > 0);
                for (int i = 0; i < a.n && i < c.n; i++) {
                    int found = 0;
                    for (int j = 0; j < c.n && !found; j++)
                        found = c.o[j][0] == a.o[i][1] && c.o[j][1] == a.o[i][0];
                    CHECK(found);
                    kk += found;
                }
                /* the options from (n-1, n/2) as written: x shrinks, y stays */
                int ytaken = 0;
                for (int i = 0; i < a.n; i++)
                    ytaken += a.o[i][0] == s[0] && a.o[i][1] < s[1];
                CHECK(ytaken == (int)s[1]);
            }
            (void)kk;
            ns_game_free(rg);
            ns_meta_free(&m2);
            ns_meta_free(&m3);
            ns_table_free(back);
            unlink(path);
            ns_table_free(t);
            ns_game_free(g);
        }
        ns_table_free(ref);
    }
}

static void test_symmetric(const char *src)
{
    char path[512];
    snprintf(path, sizeof path, "%s/data/rules/wythoff.rules", src);
    char *wythoff = read_text(path);
    snprintf(path, sizeof path, "%s/data/rules/nim.rules", src);
    char *nim = read_text(path);
    const char *wsym = "piles x y\n"
                       "symmetric x y\n"
                       "move x -> x - t                    for t in 1..x\n"
                       "move y -> y - t                    for t in 1..y\n"
                       "move (x, y) -> (x - t, y - t)      for t in 1..min(x, y)\n";
    const char *nsym = "param k = 3\n"
                       "piles p[1..k]\n"
                       "symmetric p\n"
                       "move p[i] -> p[i] - t    for t in 1..p[i]    forall i in 1..k\n";
    if (wythoff && nim) {
        sym_case("wythoff", wsym, wythoff, 2, 40);
        sym_case("nim3", nsym, nim, 3, 9);
    }
    free(wythoff);
    free(nim);
}

/* Refusals: one line naming the statement. */
static void refused(const char *text, const char *want)
{
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = NULL;
    ns_err rc = ns_rules_compile(text, "t.rules", &ps, 0, &g, &err);
    CHECKF(rc != NS_OK && strstr(err.msg, want) != NULL, "expected '%s', got '%s'", want, err.msg);
    ns_game_free(g);
}

static void test_refusals(void)
{
    refused("piles x y\nsymmetric x y\nmove x -> x - t for t in 1..x\nmove y -> y - 2*t for t in 1..y/2\n",
            "t.rules:3:1: the moves are not symmetric in x and y");
    refused("piles x y\nsymmetric x y\ndomain x <= y + 1\nmove x -> x - t for t in 1..x\nmove y -> y - t for t in 1..y where x <= y - t + 1\n",
            "t.rules:3:1: the domain is not symmetric in x and y");
    refused("piles x y\nrank 2*x + y\nsymmetric x y\nmove x -> x - 1 where x >= 1\nmove y -> y - 1 where y >= 1\n",
            "t.rules:3:1: the piles of 'symmetric' must have equal weights in the rank");
    refused("piles x y\nsymmetric x x\nmove x -> x - 1 where x >= 1\n", "t.rules:2:1: pile 'x' is listed twice");
    /* unequal sizes */
    ns_error err = {0};
    ns_params ps = {0};
    ns_game *g = NULL;
    CHECK(ns_rules_compile("piles x y\nsymmetric x y\nmove x -> x - 1 where x >= 1\nmove y -> y - 1 where y >= 1\n",
                           "t.rules", &ps, 0, &g, &err) == NS_OK);
    int64_t b[2] = {8, 9};
    CHECK(g && ns_game_set_bounds(g, b, &err) != NS_OK && strstr(err.msg, "sizes must be equal"));
    ns_game_free(g);
}

int main(int argc, char **argv)
{
    const char *src = getenv("NS_SOURCE_DIR");
    (void)argc;
    (void)argv;
    if (!src)
        src = ".";
    test_filters();
    test_symmetric(src);
    test_refusals();
    return TEST_REPORT();
}
