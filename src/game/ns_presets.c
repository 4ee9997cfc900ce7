/* ns_presets.c - the built-in games. Each one only describes its moves; the
 * sieve does the rest. */
#include "game/ns_presets.h"
#include "game/ns_octal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int resolve_piles(const ns_params *ps, int k_hint, int64_t def, int64_t *k, ns_error *err)
{
    const ns_param *p = ns_params_get(ps, "piles");
    if (ns_params_int(ps, "piles", k_hint > 0 ? k_hint : def, 1, NS_MAX_DIM, k, err))
        return -1;
    if (p && k_hint > 0 && *k != k_hint) {
        ns_error_set(err, NS_EINVAL, "piles=%" PRId64 " but %d bounds were given", *k, k_hint);
        return -1;
    }
    return 0;
}

static int fixed_piles(const char *name, int k_hint, int k, ns_error *err)
{
    if (k_hint > 0 && k_hint != k) {
        ns_error_set(err, NS_EINVAL, "%s has %d pile%s but %d bounds were given", name, k, k == 1 ? "" : "s", k_hint);
        return -1;
    }
    return 0;
}

/* The parameters each preset takes (also for the messages about others). */
static const struct {
    const char *game;
    const char *const *names;
} preset_params[] = {
    {"nim", (const char *const[]){"piles", NULL}},
    {"wythoff", (const char *const[]){NULL}},
    {"a-wythoff", (const char *const[]){"a", NULL}},
    {"bash", (const char *const[]){"m", NULL}},
    {"subtraction", (const char *const[]){"set", NULL}},
    {"moore", (const char *const[]){"piles", "k", "sets", NULL}},
    {"staircase", (const char *const[]){"piles", NULL}},
    {"euclid", (const char *const[]){NULL}},
    {"fibonacci-nim", (const char *const[]){NULL}},
};

static const char *const *params_of(const char *game)
{
    for (size_t i = 0; i < sizeof preset_params / sizeof preset_params[0]; i++)
        if (strcmp(preset_params[i].game, game) == 0)
            return preset_params[i].names;
    return NULL;
}

/* Reject parameters the preset does not know: name the ones it has, a close
 * one ("did you mean"), and the presets that take the name given. */
static int only_params(const char *game, const ns_params *ps, ns_error *err)
{
    const char *const *known = params_of(game);
    for (int i = 0; i < ps->n && known; i++) {
        const char *name = ps->p[i].name;
        int ok = 0;
        for (const char *const *k = known; *k; k++)
            ok |= strcmp(*k, name) == 0;
        if (ok)
            continue;
        char has[200] = "", near[80] = "", others[300] = "";
        size_t u = 0;
        for (const char *const *k = known; *k && u < sizeof has; k++) {
            u += (size_t)snprintf(has + u, sizeof has - u, "%s%s", u ? ", " : "", *k);
            if (!near[0] && strlen(name) >= 3 && ns_name_distance(*k, name) <= 1)
                snprintf(near, sizeof near, "; did you mean '%s'?", *k);
        }
        u = 0;
        for (size_t j = 0; j < sizeof preset_params / sizeof preset_params[0] && u < sizeof others; j++)
            for (const char *const *k = preset_params[j].names; *k; k++)
                if (strcmp(*k, name) == 0)
                    u += (size_t)snprintf(others + u, sizeof others - u, "%s%s", u ? ", " : "; it is a parameter of ",
                                          preset_params[j].game);
        ns_error_set(err, NS_EINVAL, "%s has no parameter '%s' (its parameters: %s)%s%s", game, name,
                     has[0] ? has : "none", near, others);
        return -1;
    }
    return 0;
}

static ns_game *fail(ns_game *g)
{
    ns_game_free(g);
    return NULL;
}

/* ---- nim: take any positive amount from one pile ---- */
static ns_game *build_nim(const ns_params *ps, int k_hint, ns_error *err)
{
    int64_t k;
    if (only_params("nim", ps, err) || resolve_piles(ps, k_hint, 3, &k, err))
        return NULL;
    ns_game *g = ns_game_new("nim", (int)k);
    if (!g)
        return NULL;
    for (int i = 0; i < k; i++) {
        int64_t d[NS_MAX_DIM] = {0};
        char label[32];
        d[i] = -1;
        snprintf(label, sizeof label, "take from pile %d", i + 1);
        if (ns_game_add_ray(g, label, d, NULL, err))
            return fail(g);
    }
    return g;
}

/* ---- wythoff: from one pile, or the same amount from both ---- */
static ns_game *build_wythoff(const ns_params *ps, int k_hint, ns_error *err)
{
    if (only_params("wythoff", ps, err) || fixed_piles("wythoff", k_hint, 2, err))
        return NULL;
    ns_game *g = ns_game_new("wythoff", 2);
    if (!g)
        return NULL;
    const int64_t d1[2] = {-1, 0}, d2[2] = {0, -1}, d3[2] = {-1, -1};
    if (ns_game_add_ray(g, "take from pile 1", d1, NULL, err) ||
        ns_game_add_ray(g, "take from pile 2", d2, NULL, err) ||
        ns_game_add_ray(g, "take the same from both", d3, NULL, err))
        return fail(g);
    return g;
}

/* ---- a-wythoff (Fraenkel): one pile, or k,l >= 1 from both, |k-l| < a ---- */
static ns_game *build_awythoff(const ns_params *ps, int k_hint, ns_error *err)
{
    int64_t a;
    if (only_params("a-wythoff", ps, err) || fixed_piles("a-wythoff", k_hint, 2, err) ||
        ns_params_int(ps, "a", 2, 1, 1 << 20, &a, err))
        return NULL;
    ns_game *g = ns_game_new("a-wythoff", 2);
    if (!g)
        return NULL;
    const int64_t d1[2] = {-1, 0}, d2[2] = {0, -1}, dd[2] = {-1, -1};
    if (ns_game_add_ray(g, "take from pile 1", d1, NULL, err) ||
        ns_game_add_ray(g, "take from pile 2", d2, NULL, err))
        return fail(g);
    /* k from pile 1 and l = k + delta from pile 2: a ray along (-1,-1) whose
     * first option takes k0 = max(1, 1 - delta). */
    for (int64_t delta = -(a - 1); delta <= a - 1; delta++) {
        int64_t k0 = delta >= 0 ? 1 : 1 - delta;
        int64_t base[2] = {-k0, -(k0 + delta)};
        char label[64];
        snprintf(label, sizeof label, "take k, k%+" PRId64 " from both", delta);
        if (ns_game_add_ray(g, label, dd, base, err))
            return fail(g);
    }
    return g;
}

/* ---- bash: one pile, take 1..m ---- */
static ns_game *build_bash(const ns_params *ps, int k_hint, ns_error *err)
{
    int64_t m;
    if (only_params("bash", ps, err) || fixed_piles("bash", k_hint, 1, err) ||
        ns_params_int(ps, "m", 3, 1, 1 << 20, &m, err))
        return NULL;
    ns_game *g = ns_game_new("bash", 1);
    int64_t *off = malloc((size_t)m * sizeof *off);
    if (!g || !off) {
        free(off);
        ns_error_set(err, NS_ENOMEM, "out of memory");
        return fail(g);
    }
    for (int64_t i = 0; i < m; i++)
        off[i] = -(i + 1);
    ns_err rc = ns_game_add_finite(g, "take 1..m", off, (size_t)m, err);
    free(off);
    return rc ? fail(g) : g;
}

/* ---- subtraction: one pile, take s for s in a finite set ---- */
static ns_game *build_subtraction(const ns_params *ps, int k_hint, ns_error *err)
{
    if (only_params("subtraction", ps, err) || fixed_piles("subtraction", k_hint, 1, err))
        return NULL;
    const ns_param *p = ns_params_get(ps, "set");
    if (p && p->n == 0) {
        ns_error_set(err, NS_EINVAL, "subtraction: set='%s': expected positive integers like 1,3,4", p->text);
        return NULL;
    }
    int64_t def[3] = {1, 3, 4};
    const int64_t *s = p ? p->v : def;
    int n = p ? p->n : 3;
    int64_t off[NS_PARAM_MAX_VALUES];
    for (int i = 0; i < n; i++) {
        if (s[i] < 1 || s[i] > ((int64_t)1 << 40)) {
            ns_error_set(err, NS_EINVAL, "subtraction: set element %" PRId64 " must be a positive integer", s[i]);
            return NULL;
        }
        for (int j = 0; j < i; j++)
            if (s[j] == s[i]) {
                ns_error_set(err, NS_EINVAL, "subtraction: set element %" PRId64 " appears twice", s[i]);
                return NULL;
            }
        off[i] = -s[i];
    }
    ns_game *g = ns_game_new("subtraction", 1);
    if (!g)
        return NULL;
    return ns_game_add_finite(g, "take s in S", off, (size_t)n, err) ? fail(g) : g;
}

/* ---- moore: take a positive amount from each of 1..k piles (a subsets
 * family: the general engine runs it as running sets; sets=0 leaves the
 * marker off, so every option is listed per cell, for comparison) ---- */
static ns_game *build_moore(const ns_params *ps, int k_hint, ns_error *err)
{
    int64_t n, k, sets;
    if (only_params("moore", ps, err) || resolve_piles(ps, k_hint, 3, &n, err) ||
        ns_params_int(ps, "k", 2, 1, 8, &k, err) || ns_params_int(ps, "sets", 1, 0, 1, &sets, err))
        return NULL;
    if (k > n) {
        ns_error_set(err, NS_EINVAL, "moore: k=%" PRId64 " exceeds the number of piles (%" PRId64 ")", k, n);
        return NULL;
    }
    ns_game *g = ns_game_new("moore", (int)n);
    if (!g) {
        ns_error_set(err, NS_ENOMEM, "out of memory");
        return NULL;
    }
    if (ns_game_add_subsets(g, "take from 1..k piles", ((uint32_t)1 << n) - 1, (int)k, err))
        return fail(g);
    if (!sets) {
        g->fam[0].sub_k = 0;
        g->fam[0].sub_piles = 0;
    }
    return g;
}

/* ---- staircase: move coins from step i down to step i-1 ---- */
static int staircase_valid(const void *ctx, int k, const int64_t *s)
{
    const int64_t *bounds = ctx;
    int64_t suffix = 0;
    for (int i = k - 1; i >= 0; i--) {
        suffix += s[i];
        if (suffix >= bounds[i])
            return 0;
    }
    return 1;
}

static ns_game *build_staircase(const ns_params *ps, int k_hint, ns_error *err)
{
    int64_t k;
    if (only_params("staircase", ps, err) || resolve_piles(ps, k_hint, 3, &k, err))
        return NULL;
    ns_game *g = ns_game_new("staircase", (int)k);
    if (!g)
        return NULL;
    for (int i = 0; i < k; i++) {
        int64_t d[NS_MAX_DIM] = {0};
        char label[NS_NAME_LEN];
        d[i] = -1;
        if (i > 0)
            d[i - 1] = 1;
        g->rank_w[i] = i + 1;
        snprintf(g->coord_names[i], sizeof g->coord_names[i], "step%d", i + 1);
        if (i == 0)
            snprintf(label, sizeof label, "move coins from step 1 to the ground");
        else
            snprintf(label, sizeof label, "move coins from step %d to step %d", i + 1, i);
        if (ns_game_add_ray(g, label, d, NULL, err))
            return fail(g);
    }
    /* The domain needs the bounds; valid() reads them from the game. */
    g->valid = staircase_valid;
    g->valid_ctx = g->bounds;
    return g;
}

/* ---- euclid: subtract a positive multiple of the smaller pile from the larger ---- */
static int euclid_options(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx;
    (void)err;
    int64_t a = s[0], b = s[1], o[2];
    if (a == 0 || b == 0)
        return 0;
    int rc;
    if (a <= b) {
        for (int64_t v = b - a; v >= 0; v -= a) {
            o[0] = a;
            o[1] = v;
            if ((rc = emit(user, o)))
                return rc;
        }
    }
    if (b <= a) {
        for (int64_t v = a - b; v >= 0; v -= b) {
            o[0] = v;
            o[1] = b;
            if ((rc = emit(user, o)))
                return rc;
        }
    }
    return 0;
}

static uint64_t euclid_maxopt(const void *ctx, int k, const int64_t *b)
{
    (void)ctx;
    (void)k;
    return (uint64_t)(b[0] > b[1] ? b[0] : b[1]) * 2;
}

static ns_game *build_euclid(const ns_params *ps, int k_hint, ns_error *err)
{
    if (only_params("euclid", ps, err) || fixed_piles("euclid", k_hint, 2, err))
        return NULL;
    ns_game *g = ns_game_new("euclid", 2);
    if (!g)
        return NULL;
    if (ns_game_add_general(g, "subtract a multiple of the smaller pile", euclid_options, euclid_maxopt, NULL, err))
        return fail(g);
    return g;
}

/* ---- fibonacci-nim: state (pile n, most the mover may take L) ----
 * The options of (n, L) are (n - t, min(2t, n - t)) for t = 1..min(L, n):
 * those of (n, L - 1) plus the move t = L, a prefix family along L (the
 * sieve keeps one running set per pile size: O(N^2) instead of O(N^3)). */
static int fib_added(const void *ctx, const int64_t *s, ns_emit_fn emit, void *user, ns_error *err)
{
    (void)ctx;
    (void)err;
    const int64_t n = s[0], t = s[1];
    if (t < 1 || t > n)
        return 0;
    const int64_t o[2] = {n - t, 2 * t < n - t ? 2 * t : n - t};
    return emit(user, o);
}

static uint64_t fib_maxopt(const void *ctx, int k, const int64_t *b)
{
    (void)ctx;
    (void)k;
    return (uint64_t)b[0];
}

static ns_game *build_fibnim(const ns_params *ps, int k_hint, ns_error *err)
{
    if (only_params("fibonacci-nim", ps, err) || fixed_piles("fibonacci-nim", k_hint, 2, err))
        return NULL;
    ns_game *g = ns_game_new("fibonacci-nim", 2);
    if (!g)
        return NULL;
    g->rank_w[0] = 1;
    g->rank_w[1] = 0;
    snprintf(g->coord_names[0], sizeof g->coord_names[0], "pile");
    snprintf(g->coord_names[1], sizeof g->coord_names[1], "limit");
    if (ns_game_add_prefix(g, "take t <= limit, new limit 2t", 1, fib_added, fib_maxopt, NULL, err))
        return fail(g);
    return g;
}

static const ns_preset p_nim = {"nim", "Nim: take any positive amount from one pile (Bouton)", "piles=3 (1..8)", build_nim};
static const ns_preset p_wythoff = {"wythoff", "Wythoff: take from one pile, or the same amount from both", "", build_wythoff};
static const ns_preset p_awythoff = {"a-wythoff", "Fraenkel's a-Wythoff: one pile, or k,l >= 1 from both with |k-l| < a", "a=2 (a >= 1)", build_awythoff};
static const ns_preset p_bash = {"bash", "Bash: one pile, take 1..m", "m=3 (m >= 1)", build_bash};
static const ns_preset p_sub = {"subtraction", "Subtraction game: one pile, take s for s in a finite set S", "set=1,3,4", build_subtraction};
static const ns_preset p_moore = {"moore", "Moore's Nim_k: take positive amounts from up to k piles", "piles=3, k=2 (1 <= k <= piles), sets=1 (0: list every option per cell, the slow path, for comparison)", build_moore};
static const ns_preset p_stair = {"staircase", "Staircase Nim: move coins from step i to step i-1 (step 1 to the ground)", "piles=3 (steps)", build_staircase};
static const ns_preset p_euclid = {"euclid", "Euclid's game: subtract a positive multiple of the smaller pile from the larger", "", build_euclid};
static const ns_preset p_fib = {"fibonacci-nim", "Fibonacci Nim: state (pile, limit); take t <= limit, next limit 2t; start (n, n-1)", "", build_fibnim};
static const ns_preset p_octal = {"octal", "take-and-break heap game of an octal or hexadecimal code (Guy-Smith): "
                                  "0.77 Kayles, 0.07 Dawson's Kayles, 0.137 Dawson's chess", "code=0.77 (required)",
                                  ns_octal_build_preset};
static const ns_preset p_grundy = {"grundys-game", "Grundy's game: split one heap into two unequal non-empty heaps", "",
                                   ns_grundys_game_build_preset};

const ns_preset *const ns_presets[] = {&p_nim, &p_wythoff, &p_awythoff, &p_bash, &p_sub, &p_moore,
                                       &p_stair, &p_euclid, &p_fib, &p_octal, &p_grundy, NULL};

const ns_preset *ns_preset_find(const char *name)
{
    for (const ns_preset *const *p = ns_presets; *p; p++)
        if (strcmp((*p)->name, name) == 0)
            return *p;
    return NULL;
}

ns_game *ns_preset_build(const char *name, const ns_params *ps, int k_hint, ns_error *err)
{
    const ns_preset *p = ns_preset_find(name);
    if (!p) {
        const char *best = NULL;
        int bd = 3; /* at most 2 edits, and fewer than half the name */
        for (const ns_preset *const *q = ns_presets; *q; q++) {
            const int d = ns_name_distance((*q)->name, name);
            if (d < bd && 2 * d <= (int)strlen(name)) {
                bd = d;
                best = (*q)->name;
            }
        }
        if (best)
            ns_error_set(err, NS_EINVAL, "unknown game '%s': did you mean '%s'? (a preset name, see 'nimsieve solve "
                         "--help', or a rule file)", name, best);
        else
            ns_error_set(err, NS_EINVAL, "unknown game '%s': expected a preset name (see 'nimsieve solve --help') or a rule file", name);
        return NULL;
    }
    ns_game *g = p->build(ps, k_hint, err);
    if (!g) {
        if (err && !err->code)
            ns_error_set(err, NS_ENOMEM, "out of memory");
        return NULL;
    }
    g->params = *ps;
    return g;
}
