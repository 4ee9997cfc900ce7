/* ns_check.c - see ns_check.h */
#include "analysis/ns_check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_params.h"
#include "game/ns_presets.h"
#include "game/ns_shipped_rules.h"

void ns_check_result_init(ns_check_result *r, const char *name)
{
    memset(r, 0, sizeof *r);
    snprintf(r->theorem, sizeof r->theorem, "%s", name);
}

static void note(ns_check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(ns_check_result *r, const char *fmt, ...)
{
    if (r->nnotes >= NS_CHECK_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->notes[r->nnotes++], sizeof r->notes[0], fmt, ap);
    va_end(ap);
}

static void record(ns_check_result *r, int k, const int64_t *s, int64_t found, int64_t expected,
                   const char *what)
{
    r->mismatches++;
    if (r->nshown >= NS_CHECK_SHOWN)
        return;
    ns_check_mismatch *m = &r->shown[r->nshown++];
    m->k = k;
    memcpy(m->pos, s, (size_t)k * sizeof *s);
    m->found = found;
    m->expected = expected;
    snprintf(m->what, sizeof m->what, "%s", what);
}

/* Next cell in row-major order (last coordinate fastest). */
static void odo_next(int k, const int64_t *bounds, int64_t *s)
{
    for (int d = k - 1; d >= 0; d--) {
        if (++s[d] < bounds[d])
            return;
        s[d] = 0;
    }
}

/* Compare cell i (at s) of t with the expected P/N flag (0 = P, 1 = N) and,
 * when grundy >= 0 and t holds Grundy values, with that value. */
static void compare_cell(ns_check_result *r, const ns_table *t, uint64_t i, const int64_t *s,
                         int expect_pn, int64_t grundy)
{
    uint32_t v = ns_table_get(t, i);
    r->checked++;
    if (v == ns_table_invalid(t)) {
        record(r, t->k, s, -1, expect_pn, "not a position in the table");
        return;
    }
    if (grundy >= 0 && !t->pn_only) {
        if ((int64_t)v != grundy)
            record(r, t->k, s, v, grundy, "Grundy value");
        return;
    }
    int pn = v == 0 ? 0 : 1;
    if (pn != expect_pn)
        record(r, t->k, s, pn, expect_pn, "P/N (0 = P, 1 = N)");
}

static int same_shape(const ns_game *g, const ns_table *t, ns_error *err)
{
    if (g->k != t->k)
        return ns_error_set(err, NS_EINVAL, "the table has %d dimensions but the game %d piles", t->k, g->k);
    for (int d = 0; d < t->k; d++)
        if (g->bounds[d] != t->bounds[d])
            return ns_error_set(err, NS_EINVAL, "the table's bounds differ from the game's in coordinate %d", d + 1);
    return NS_OK;
}

/* "the game 'nim'" or what kind of rule file */
static const char *table_of(const ns_game *g, char *buf, size_t len)
{
    if (g->rules_text)
        snprintf(buf, len, "a rule file that is not one of data/rules/ implementing a preset, unchanged (a variant or an "
                           "edited copy: the theorems are proven for the presets)");
    else
        snprintf(buf, len, "the game '%s'", g->name);
    return buf;
}

static int is_game(const ns_game *g, const char *name, char *why, size_t len)
{
    if (g->rules_text || strcmp(g->name, name) != 0) {
        char of[200];
        snprintf(why, len, "this theorem is about the preset '%s'; the table is of %s", name, table_of(g, of, sizeof of));
        return 0;
    }
    return 1;
}

static int normal_play(const ns_game *g, char *why, size_t len)
{
    if (g->play != NS_PLAY_NORMAL) {
        snprintf(why, len, "the theorem is about normal play; the table is for misere play");
        return 0;
    }
    return 1;
}

/* ---- wythoff-golden ---- */

static int wythoff_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    (void)pn_only;
    return is_game(g, "wythoff", why, len) && normal_play(g, why, len);
}

static ns_err wythoff_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    ns_check_result_init(r, "wythoff-golden");
    snprintf(r->claim, sizeof r->claim,
             "P iff {x, y} = {floor(n phi), floor(n phi^2)} with n = |x - y| (exact integers: floor(n phi) = (n + isqrt(5 n^2)) / 2)");
    int64_t nmax = t->bounds[0] > t->bounds[1] ? t->bounds[0] : t->bounds[1];
    int64_t *fp = malloc((size_t)nmax * sizeof *fp);
    if (!fp)
        return ns_error_set(err, NS_ENOMEM, "out of memory for %" PRId64 " values of floor(n phi)", nmax);
    uint64_t second = 0;
    for (int64_t n = 0; n < nmax; n++) {
        fp[n] = ns_floor_phi(n);
        if (fp[n] != ns_floor_phi_zeckendorf(n))
            second++;
    }
    uint64_t np_table = 0, np_theory = 0;
    int64_t s[2] = {0, 0};
    for (uint64_t i = 0; i < t->ncells; i++, odo_next(2, t->bounds, s)) {
        int64_t lo = s[0] < s[1] ? s[0] : s[1], d = s[0] > s[1] ? s[0] - s[1] : s[1] - s[0];
        int p = fp[d] == lo;
        np_theory += (uint64_t)p;
        np_table += ns_table_get(t, i) == 0;
        compare_cell(r, t, i, s, p ? 0 : 1, -1);
    }
    free(fp);
    note(r, "P-positions: %" PRIu64 " in the table, %" PRIu64 " by the closed form", np_table, np_theory);
    note(r, "second opinion: floor(n phi) by the Zeckendorf shift agrees for every n < %" PRId64 "%s", nmax,
         second ? " -- NO, it does not (internal error)" : "");
    if (second)
        return ns_error_set(err, NS_EINTERNAL, "isqrt and Zeckendorf values of floor(n phi) differ at %" PRIu64 " n", second);
    /* the book's formula, far beyond the table */
    r->has_probe = 1;
    rc = ns_phi_probe_run(NS_PROBE_DOUBLE, (int64_t)1000000000000000, &r->probe[0], err);
    if (!rc)
        rc = ns_phi_probe_run(NS_PROBE_LONG_DOUBLE, (int64_t)1000000000000000000, &r->probe[1], err);
    return rc;
}

/* ---- bouton ---- */

static int bouton_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    (void)pn_only;
    return is_game(g, "nim", why, len);
}

static ns_err bouton_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    ns_check_result_init(r, "bouton");
    int misere = g->play == NS_PLAY_MISERE;
    if (!misere)
        snprintf(r->claim, sizeof r->claim, "P iff x1 xor ... xor xk = 0%s",
                 t->pn_only ? "" : "; Grundy value = x1 xor ... xor xk");
    else
        snprintf(r->claim, sizeof r->claim,
                 "misere: P iff (xor = 0 and some pile > 1) or (xor = 1 and every pile <= 1)");
    int64_t s[NS_MAX_DIM] = {0};
    for (uint64_t i = 0; i < t->ncells; i++, odo_next(t->k, t->bounds, s)) {
        int64_t x = 0, mx = 0;
        for (int d = 0; d < t->k; d++) {
            x ^= s[d];
            mx = s[d] > mx ? s[d] : mx;
        }
        int p = misere ? (mx <= 1 ? x == 1 : x == 0) : x == 0;
        compare_cell(r, t, i, s, p ? 0 : 1, misere ? -1 : x);
    }
    return NS_OK;
}

/* ---- bash ---- */

/* m when g has exactly one family, finite, with offsets {-1, ..., -m}. */
static int64_t bash_m(const ns_game *g)
{
    if (g->k != 1 || g->nfam != 1 || g->fam[0].kind != NS_FAM_FINITE || g->valid)
        return -1;
    const ns_family *f = &g->fam[0];
    int64_t m = (int64_t)f->noffsets;
    char *seen = calloc((size_t)m + 1, 1);
    if (!seen)
        return -1;
    for (size_t j = 0; j < f->noffsets; j++) {
        int64_t o = -f->offsets[j];
        if (o < 1 || o > m || seen[o]) {
            free(seen);
            return -1;
        }
        seen[o] = 1;
    }
    free(seen);
    return m;
}

static int bash_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    (void)pn_only;
    if (g->rules_text || (strcmp(g->name, "bash") != 0 && strcmp(g->name, "subtraction") != 0)) {
        char of[200];
        snprintf(why, len, "this theorem is about the presets 'bash' and 'subtraction' with set=1..m; the table is of %s",
                 table_of(g, of, sizeof of));
        return 0;
    }
    if (bash_m(g) < 1) {
        snprintf(why, len, "the subtraction set is not {1, ..., m}");
        return 0;
    }
    return 1;
}

static ns_err bash_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    ns_check_result_init(r, "bash");
    int64_t m = bash_m(g);
    int misere = g->play == NS_PLAY_MISERE;
    if (misere)
        snprintf(r->claim, sizeof r->claim, "misere, m = %" PRId64 ": P iff n mod %" PRId64 " = 1", m, m + 1);
    else
        snprintf(r->claim, sizeof r->claim, "m = %" PRId64 ": P iff n mod %" PRId64 " = 0%s", m, m + 1,
                 t->pn_only ? "" : "; Grundy value = n mod (m+1)");
    for (int64_t n = 0; n < t->bounds[0]; n++) {
        int64_t v = n % (m + 1);
        int p = misere ? v == 1 : v == 0;
        compare_cell(r, t, (uint64_t)n, &n, p ? 0 : 1, misere ? -1 : v);
    }
    return NS_OK;
}

/* ---- a-wythoff ---- */

/* a from the move families: 2a - 1 rays along (-1,-1) (wythoff: one). */
static int64_t awythoff_a(const ns_game *g)
{
    int64_t nd = 0;
    for (int f = 0; f < g->nfam; f++)
        if (g->fam[f].kind == NS_FAM_RAY && g->fam[f].dir[0] == -1 && g->fam[f].dir[1] == -1)
            nd++;
    return nd % 2 == 1 ? (nd + 1) / 2 : -1;
}

static int awythoff_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    (void)pn_only;
    if (g->rules_text || (strcmp(g->name, "a-wythoff") != 0 && strcmp(g->name, "wythoff") != 0)) {
        char of[200];
        snprintf(why, len, "this theorem is about the presets 'a-wythoff' and 'wythoff' (a = 1); the table is of %s",
                 table_of(g, of, sizeof of));
        return 0;
    }
    if (!normal_play(g, why, len))
        return 0;
    if (awythoff_a(g) < 1) {
        snprintf(why, len, "cannot tell a from the game's moves");
        return 0;
    }
    return 1;
}

static ns_err awythoff_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    ns_check_result_init(r, "a-wythoff");
    int64_t a = awythoff_a(g);
    snprintf(r->claim, sizeof r->claim,
             "a = %" PRId64 ": P iff {x, y} = {A_n, A_n + %" PRId64 " n}, A_n = mex{A_i, B_i : i < n} = floor(n alpha), alpha = (%" PRId64 " + sqrt(%" PRId64 ")) / 2",
             a, a, 2 - a, a * a + 4);
    int64_t nmax = t->bounds[0] > t->bounds[1] ? t->bounds[0] : t->bounds[1];
    /* partner[v] = the other coordinate of the P-position containing v, by
     * the mex definition; -1 if beyond the table. */
    int64_t *partner = malloc((size_t)nmax * sizeof *partner);
    char *used = calloc((size_t)nmax, 1);
    if (!partner || !used) {
        free(partner);
        free(used);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    for (int64_t v = 0; v < nmax; v++)
        partner[v] = -1;
    partner[0] = 0;
    used[0] = 1;
    int64_t A = 0, nseq = 0, floor_bad = 0;
    for (int64_t n = 1;; n++) {
        while (A < nmax && used[A])
            A++;
        if (A >= nmax)
            break;
        int64_t B = A + a * n;
        used[A] = 1;
        if (B < nmax) {
            used[B] = 1;
            partner[A] = B;
            partner[B] = A;
        }
        nseq = n;
        int64_t f;
        rc = ns_awythoff_floor(a, n, &f, err);
        if (rc)
            break;
        if (f != A) {
            int64_t pos[2] = {A, B};
            if (floor_bad++ == 0)
                note(r, "A_%" PRId64 " = %" PRId64 " by mex but floor(n alpha) = %" PRId64, n, A, f);
            record(r, 2, pos, A, f, "A_n: mex vs floor(n alpha)");
        }
    }
    if (!rc) {
        note(r, "A_n = floor(n alpha) checked for n = 1..%" PRId64 " (%" PRId64 " disagree)", nseq, floor_bad);
        r->also_checked = (uint64_t)nseq;
        snprintf(r->also_what, sizeof r->also_what, "terms A_n = floor(n alpha), n = 1..%" PRId64, nseq);
        int64_t s[2] = {0, 0};
        uint64_t np = 0;
        for (uint64_t i = 0; i < t->ncells; i++, odo_next(2, t->bounds, s)) {
            int p = partner[s[0]] == s[1];
            np += (uint64_t)p;
            compare_cell(r, t, i, s, p ? 0 : 1, -1);
        }
        note(r, "P-positions: %" PRIu64 " by the closed form", np);
    }
    free(partner);
    free(used);
    return rc;
}

/* ---- moore ---- */

static int moore_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    (void)pn_only;
    return is_game(g, "moore", why, len) && normal_play(g, why, len);
}

static ns_err moore_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    ns_check_result_init(r, "moore");
    int64_t kk;
    /* the preset's default for k is 2 */
    rc = ns_params_int(&g->params, "k", 2, 1, NS_MAX_DIM, &kk, err);
    if (rc)
        return rc;
    snprintf(r->claim, sizeof r->claim, "Nim_%" PRId64 ": P iff every binary digit, summed over the piles, is 0 mod %" PRId64,
             kk, kk + 1);
    int64_t s[NS_MAX_DIM] = {0};
    for (uint64_t i = 0; i < t->ncells; i++, odo_next(t->k, t->bounds, s)) {
        int p = 1;
        for (int bit = 0; bit < 63 && p; bit++) {
            int64_t c = 0;
            for (int d = 0; d < t->k; d++)
                c += (s[d] >> bit) & 1;
            p = c % (kk + 1) == 0;
        }
        compare_cell(r, t, i, s, p ? 0 : 1, -1);
    }
    return NS_OK;
}

/* ---- euclid ---- */

static int euclid_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    (void)pn_only;
    return is_game(g, "euclid", why, len) && normal_play(g, why, len);
}

static ns_err euclid_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    ns_check_result_init(r, "euclid");
    snprintf(r->claim, sizeof r->claim,
             "(x, 0), (0, y) are P; x = y > 0 is N; for 0 < x < y: P iff y < phi x, i.e. (2y - x)^2 < 5 x^2 (exact)");
    int64_t s[2] = {0, 0};
    for (uint64_t i = 0; i < t->ncells; i++, odo_next(2, t->bounds, s)) {
        int64_t x = s[0] < s[1] ? s[0] : s[1], y = s[0] < s[1] ? s[1] : s[0];
        int p;
        if (x == 0)
            p = 1;
        else if (x == y)
            p = 0;
        else {
            ns_i128 d = (ns_i128)2 * y - x;
            p = d * d < (ns_i128)5 * x * x;
        }
        compare_cell(r, t, i, s, p ? 0 : 1, -1);
    }
    return NS_OK;
}

/* ---- fibonacci-nim ---- */

static int fib_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    (void)pn_only;
    return is_game(g, "fibonacci-nim", why, len) && normal_play(g, why, len);
}

static ns_err fib_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    ns_check_result_init(r, "fibonacci-nim");
    snprintf(r->claim, sizeof r->claim,
             "(n, L) is P iff n = 0 or L < z(n), z(n) = smallest Zeckendorf term of n; losing starts (n, n-1) = Fibonacci numbers; smallest winning first move = z(n)");
    const int64_t N = t->bounds[0], M = t->bounds[1];
    int64_t s[2] = {0, 0};
    int64_t zn = 0;
    for (uint64_t i = 0; i < t->ncells; i++, odo_next(2, t->bounds, s)) {
        if (s[1] == 0)
            zn = ns_zeckendorf_smallest(s[0]);
        int p = s[0] == 0 || s[1] < zn;
        compare_cell(r, t, i, s, p ? 0 : 1, -1);
    }
    /* the starts (n, n-1) and the first move, read from the table */
    char list[200] = "";
    size_t used = 0;
    int64_t nstart = 0, nfib = 0, nmove = 0;
    for (int64_t n = 1; n < N && n - 1 < M; n++) {
        int64_t st[NS_MAX_DIM] = {n, n - 1};
        uint32_t v = ns_table_get(t, ns_table_index(t, st));
        nstart++;
        if (v == 0) {
            nfib++;
            if (used < sizeof list - 24)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%" PRId64, used ? ", " : "", n);
            continue;
        }
        /* smallest t whose option (n - t, min(2t, n - t)) is P */
        int64_t z = ns_zeckendorf_smallest(n), best = -1;
        int inside = 1;
        for (int64_t tk = 1; tk <= n - 1 && tk <= z; tk++) {
            int64_t o[NS_MAX_DIM] = {n - tk, 2 * tk < n - tk ? 2 * tk : n - tk};
            if (o[1] >= M) {
                inside = 0;
                break;
            }
            if (ns_table_get(t, ns_table_index(t, o)) == 0) {
                best = tk;
                break;
            }
        }
        if (!inside)
            continue;
        nmove++;
        if (best != z)
            record(r, 2, st, best, z, "smallest winning first move");
    }
    note(r, "losing starts (n, n-1) for 1 <= n < %" PRId64 ": %" PRId64 " of %" PRId64 ": %s%s",
         N < M + 1 ? N : M + 1, nfib, nstart, list, used >= sizeof list - 24 ? ", ..." : "");
    note(r, "smallest winning first move = z(n) checked at %" PRId64 " winning starts", nmove);
    r->also_checked = (uint64_t)nmove;
    snprintf(r->also_what, sizeof r->also_what, "smallest winning first moves from starts (n, n-1)");
    return NS_OK;
}

/* ---- staircase ---- */

static int stair_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    (void)pn_only;
    return is_game(g, "staircase", why, len) && normal_play(g, why, len);
}

static ns_err stair_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    ns_check_result_init(r, "staircase");
    snprintf(r->claim, sizeof r->claim, "P iff c1 xor c3 xor c5 ... = 0 (the odd steps)%s",
             t->pn_only ? "" : "; Grundy value = that xor");
    int64_t s[NS_MAX_DIM] = {0};
    uint64_t outside = 0;
    for (uint64_t i = 0; i < t->ncells; i++, odo_next(t->k, t->bounds, s)) {
        int pos = ns_game_is_position(g, s);
        uint32_t v = ns_table_get(t, i);
        if (!pos) {
            outside++;
            r->checked++;
            if (v != ns_table_invalid(t))
                record(r, t->k, s, v, -1, "value outside the domain");
            continue;
        }
        int64_t x = 0;
        for (int d = 0; d < t->k; d += 2)
            x ^= s[d];
        compare_cell(r, t, i, s, x == 0 ? 0 : 1, x);
    }
    note(r, "%" PRIu64 " cells of the box lie outside the game's domain (checked to hold the 'not a position' marker)",
         outside);
    return NS_OK;
}

/* ---- sprague-grundy-sum ---- */

static int single_axis(int k, const int64_t *v)
{
    int axis = -1;
    for (int d = 0; d < k; d++)
        if (v[d]) {
            if (axis >= 0)
                return -1;
            axis = d;
        }
    return axis;
}

static int sum_applies(const ns_game *g, int pn_only, char *why, size_t len)
{
    if (pn_only) {
        snprintf(why, len, "the table holds P/N flags only; the Sprague-Grundy theorem is about Grundy values");
        return 0;
    }
    if (!normal_play(g, why, len))
        return 0;
    if (g->k < 2) {
        snprintf(why, len, "a one-pile game is not a sum of games");
        return 0;
    }
    if (g->valid) {
        snprintf(why, len, "the game restricts its positions to a domain, so its piles are not independent");
        return 0;
    }
    for (int f = 0; f < g->nfam; f++) {
        const ns_family *fm = &g->fam[f];
        int ok = 1;
        if (fm->kind == NS_FAM_RAY) {
            int a = single_axis(g->k, fm->dir), b = single_axis(g->k, fm->base);
            ok = a >= 0 && b == a;
        } else if (fm->kind == NS_FAM_FINITE) {
            for (size_t j = 0; j < fm->noffsets && ok; j++)
                ok = single_axis(g->k, fm->offsets + j * (size_t)g->k) >= 0;
        } else {
            snprintf(why, len, "move family '%s' is given by a callback; cannot tell whether it changes one pile only (give the component tables explicitly)", fm->label);
            return 0;
        }
        if (!ok) {
            snprintf(why, len, "move family '%s' changes more than one pile, so the game is not a sum of its piles", fm->label);
            return 0;
        }
    }
    return 1;
}

ns_err ns_check_sum_components(const ns_table *t, const uint32_t *const *comp,
                               const int64_t *ncomp, ns_check_result *r, ns_error *err)
{
    if (t->pn_only)
        return ns_error_set(err, NS_EINVAL, "the table holds P/N flags only, not Grundy values");
    for (int d = 0; d < t->k; d++)
        if (ncomp[d] < t->bounds[d])
            return ns_error_set(err, NS_EINVAL, "component %d has %" PRId64 " values but the table needs %" PRId64, d + 1,
                                ncomp[d], t->bounds[d]);
    ns_check_result_init(r, "sprague-grundy-sum");
    snprintf(r->claim, sizeof r->claim, "G(x1, ..., xk) = G1(x1) xor ... xor Gk(xk) (Sprague-Grundy: a disjunctive sum)");
    int64_t s[NS_MAX_DIM] = {0};
    for (uint64_t i = 0; i < t->ncells; i++, odo_next(t->k, t->bounds, s)) {
        int64_t x = 0;
        for (int d = 0; d < t->k; d++)
            x ^= comp[d][s[d]];
        compare_cell(r, t, i, s, x == 0 ? 0 : 1, x);
    }
    return NS_OK;
}

static ns_err sum_run(const ns_game *g, const ns_table *t, ns_check_result *r, ns_error *err)
{
    ns_err rc = same_shape(g, t, err);
    if (rc)
        return rc;
    uint32_t *comp[NS_MAX_DIM] = {0};
    int64_t ncomp[NS_MAX_DIM];
    for (int d = 0; d < t->k; d++) {
        comp[d] = malloc((size_t)t->bounds[d] * sizeof *comp[d]);
        if (!comp[d]) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
        ncomp[d] = t->bounds[d];
        int64_t s[NS_MAX_DIM] = {0};
        for (int64_t x = 0; x < t->bounds[d]; x++) {
            s[d] = x;
            comp[d][x] = ns_table_get(t, ns_table_index(t, s));
        }
    }
    rc = ns_check_sum_components(t, (const uint32_t *const *)comp, ncomp, r, err);
    if (!rc)
        note(r, "components: the table's own axes G(x_i e_i) (the game moves one pile at a time)");
fail:
    for (int d = 0; d < t->k; d++)
        free(comp[d]);
    return rc;
}

static const ns_check_theorem th_wythoff = {"wythoff-golden", "Wythoff: P-positions (floor(n phi), floor(n phi^2)), exact; plus the book's double formula", wythoff_applies, wythoff_run};
static const ns_check_theorem th_bouton = {"bouton", "Nim: P iff the XOR of the piles is 0 (Grundy value = XOR); misere rule too", bouton_applies, bouton_run};
static const ns_check_theorem th_bash = {"bash", "Bash (take 1..m): Grundy value n mod (m+1); misere: P iff n mod (m+1) = 1", bash_applies, bash_run};
static const ns_check_theorem th_awythoff = {"a-wythoff", "Fraenkel's a-Wythoff: P-positions (A_n, A_n + a n), A_n = mex = floor(n alpha)", awythoff_applies, awythoff_run};
static const ns_check_theorem th_moore = {"moore", "Moore's Nim_k: P iff each binary digit column sums to 0 mod k+1", moore_applies, moore_run};
static const ns_check_theorem th_euclid = {"euclid", "Euclid's game: x < y is P iff y < phi x", euclid_applies, euclid_run};
static const ns_check_theorem th_fib = {"fibonacci-nim", "Fibonacci Nim: (n, L) P iff L < smallest Zeckendorf term; losing starts are Fibonacci numbers", fib_applies, fib_run};
static const ns_check_theorem th_stair = {"staircase", "Staircase Nim: Grundy value = XOR of the odd steps", stair_applies, stair_run};
static const ns_check_theorem th_sum = {"sprague-grundy-sum", "a sum of games: G = XOR of the component (axis) tables", sum_applies, sum_run};

const ns_check_theorem *const ns_check_theorems[] = {&th_wythoff, &th_bouton, &th_bash, &th_awythoff, &th_moore,
                                                     &th_euclid, &th_fib, &th_stair, &th_sum, NULL};

const ns_check_theorem *ns_check_find(const char *name)
{
    for (const ns_check_theorem *const *t = ns_check_theorems; *t; t++)
        if (strcmp((*t)->name, name) == 0)
            return *t;
    return NULL;
}

ns_err ns_check_recognise(const ns_game *g, ns_game **preset, char *how, size_t len, ns_error *err)
{
    *preset = NULL;
    if (len)
        how[0] = 0;
    if (!g->rules_text)
        return NS_OK;
    const char *other = NULL;
    const ns_rules_preset_map *m = ns_shipped_rules_preset(g->rules_text, &other);
    if (!m) {
        if (other)
            snprintf(how, len, "rule file data/rules/%s (unchanged), which is not a preset", other);
        return NS_OK;
    }
    ns_params pp;
    ns_err rc = ns_rules_preset_params(m, &g->params, &pp, err);
    if (rc)
        return rc;
    ns_game *p = ns_preset_build(m->preset, &pp, g->k, err);
    if (!p)
        return err && err->code ? err->code : NS_EINVAL;
    if (p->k != g->k) {
        ns_game_free(p);
        return ns_error_set(err, NS_EINTERNAL, "data/rules/%s has %d piles but the preset '%s' built from it %d", m->file,
                            g->k, m->preset, p->k);
    }
    p->play = g->play;
    rc = ns_game_set_bounds(p, g->bounds, err);
    if (rc) {
        ns_game_free(p);
        return rc;
    }
    char ps[256];
    ns_params_format(&pp, ps, sizeof ps);
    snprintf(how, len,
             "rule file data/rules/%s (unchanged), which gives the table of the preset '%s'%s%s cell by cell "
             "(tests/unit/test_rules_presets.c)",
             m->file, m->preset, ps[0] ? " " : "", ps);
    *preset = p;
    return NS_OK;
}

ns_err ns_check_run(const ns_check_theorem *th, const ns_game *g, const ns_table *t,
                    ns_check_result *r, int *applies, ns_error *err)
{
    char why[256] = "", how[300];
    ns_game *p = NULL;
    ns_err rc = ns_check_recognise(g, &p, how, sizeof how, err);
    if (rc)
        return rc;
    const ns_game *use = p ? p : g;
    int ok = th->applies(use, t->pn_only, why, sizeof why);
    if (applies)
        *applies = ok;
    if (!ok) {
        ns_game_free(p);
        return ns_error_set(err, NS_EINVAL, "%s does not apply: %s%s%s%s", th->name, why, how[0] ? " (the table's game: " : "",
                            how, how[0] ? ")" : "");
    }
    rc = th->run(use, t, r, err);
    if (!rc && p)
        note(r, "the table's game: %s", how);
    ns_game_free(p);
    return rc;
}
