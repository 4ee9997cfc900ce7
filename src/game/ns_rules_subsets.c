/* ns_rules_subsets.c - the rule-set language: recognise a subsets family
 * ("lower 1..k of the piles in P, each by a positive amount", Moore's
 * Nim_k; see ns_game.h), which the general engine runs as running sets.
 *
 * A family qualifies when, after elaboration:
 *   - every bound variable v_j is a range 0..s_a(j) or 1..s_a(j) (the bare
 *     pile a(j)), the piles a(j) distinct;
 *   - it changes exactly the piles a(j), pile a(j) to s_a(j) - v_j (any
 *     other output is its own pile, unchanged);
 *   - every 'where' condition depends on the variables only through which
 *     of them are positive: each variable occurs only inside a comparison
 *     of a sum of variables with positive coefficients against a constant
 *     that takes one value for every sum >= 1 (v > 0, v >= 1, v != 0,
 *     a + b > 0, ...), and nothing reads a pile or a size.
 * Then the conditions are functions of the pattern z (z_j = v_j > 0): they
 * are evaluated with v = z for each of the 2^m patterns (a pattern with
 * z_j = 0 for a range 1..s_a(j) is refused). When the allowed patterns are
 * exactly those with 1..k positive entries the family is a subsets family
 * (boxes); any other nonempty list of patterns without the empty one makes
 * it a patterns family (strict boxes: "lower both piles", "exactly two of
 * three"). Anything else (a fault) leaves it a plain general family, which
 * is always correct. */
#include "game/ns_rules_classify.h"

#include <string.h>

#define COEF_MAX ((int64_t)1 << 16)

/* Is node id a sum of variables with coefficients >= 1 (ADD of such, MUL
 * by a positive constant)? */
static int pos_var_sum(const ns_ir *n, int id)
{
    const ns_ir *x = &n[id];
    switch (x->op) {
    case IR_VAR:
        return 1;
    case IR_ADD:
        return pos_var_sum(n, x->a) && pos_var_sum(n, x->b);
    case IR_MUL: /* small coefficients: the sum cannot overflow for piles below 2^38 */
        return (n[x->a].op == IR_CONST && n[x->a].v >= 1 && n[x->a].v <= COEF_MAX && pos_var_sum(n, x->b)) ||
               (n[x->b].op == IR_CONST && n[x->b].v >= 1 && n[x->b].v <= COEF_MAX && pos_var_sum(n, x->a));
    default:
        return 0;
    }
}

static int is_cmp(int op)
{
    return op == IR_LT || op == IR_LE || op == IR_GT || op == IR_GE || op == IR_EQ || op == IR_NE;
}

/* cmp(x, c) for x = X (the sum side on the left when left is set) */
static int cmp_at(int op, int left, int64_t X, int64_t c)
{
    int64_t a = left ? X : c, b = left ? c : X;
    switch (op) {
    case IR_LT: return a < b;
    case IR_LE: return a <= b;
    case IR_GT: return a > b;
    case IR_GE: return a >= b;
    case IR_EQ: return a == b;
    default: return a != b;
    }
}

/* Does the comparison of a sum X >= 1 with constant c give one value for
 * every X >= 1? It can change only between c - 1, c and c + 1. */
static int cmp_flat(int op, int left, int64_t c)
{
    if (c > ((int64_t)1 << 40) || c < -((int64_t)1 << 40))
        return 0;
    const int v1 = cmp_at(op, left, 1, c);
    const int64_t probe[] = {c - 1, c, c + 1, (c < 0 ? -c : c) + 2};
    for (int i = 0; i < 4; i++)
        if (probe[i] >= 1 && cmp_at(op, left, probe[i], c) != v1)
            return 0;
    return 1;
}

/* Does node id depend on the variables only through their signs (and on
 * no pile or size)? */
static int pattern_only(const ns_ir *n, int id, int depth)
{
    const ns_ir *x = &n[id];
    if (depth > NS_IR_MAX_DEPTH)
        return 0;
    switch (x->op) {
    case IR_CONST:
        return 1;
    case IR_PILE:
    case IR_SIZE:
    case IR_VAR:
        return 0;
    default:
        break;
    }
    if (is_cmp(x->op)) {
        if (n[x->b].op == IR_CONST && pos_var_sum(n, x->a))
            return cmp_flat(x->op, 1, n[x->b].v);
        if (n[x->a].op == IR_CONST && pos_var_sum(n, x->b))
            return cmp_flat(x->op, 0, n[x->a].v);
    }
    const int unary = x->op == IR_NEG || x->op == IR_ABS || x->op == IR_NOT || x->op == IR_POPCOUNT;
    return pattern_only(n, x->a, depth + 1) && (unary || pattern_only(n, x->b, depth + 1));
}

int ns_rules_subsets_of(const ns_rules_prog *p, const ns_rfam *f, int k, uint32_t *piles, int *kmax, uint64_t *pat)
{
    const ns_ir *n = p->ir.n;
    const int m = f->nvars;
    int pile_of[NS_RULES_MAX_VARS], lo1[NS_RULES_MAX_VARS];
    uint32_t mask = 0;
    if (m < 1 || m > k || m > NS_MAX_DIM || f->nout < m)
        return 0;
    for (int j = 0; j < m; j++) {
        const ns_rvar *v = &f->var[j];
        if (v->kind != RV_RANGE || n[v->lo].op != IR_CONST || (n[v->lo].v != 0 && n[v->lo].v != 1) ||
            n[v->hi].op != IR_PILE)
            return 0;
        const int a = n[v->hi].a;
        if (a < 0 || a >= k || (mask >> a & 1))
            return 0;
        pile_of[j] = a;
        lo1[j] = n[v->lo].v == 1;
        mask |= (uint32_t)1 << a;
    }
    /* every variable's pile becomes pile - variable; any other output
     * keeps its pile */
    int used = 0;
    for (int o = 0; o < f->nout; o++) {
        const ns_ir *e = &n[f->out_expr[o]];
        if (e->op == IR_PILE && e->a == f->out_slot[o] && !(mask >> e->a & 1))
            continue;
        int j = -1;
        if (e->op == IR_SUB && n[e->a].op == IR_PILE && n[e->b].op == IR_VAR)
            j = n[e->b].a;
        if (j < 0 || j >= m || pile_of[j] != f->out_slot[o] || n[e->a].a != f->out_slot[o] || (used >> j & 1))
            return 0;
        used |= 1 << j;
    }
    if (used != (1 << m) - 1)
        return 0;
    for (int i = 0; i < f->nconj; i++)
        if (!pattern_only(n, p->lists[f->conj + i], 0))
            return 0;
    /* the allowed patterns z (z_j = v_j > 0), as sets of piles */
    uint64_t allow[4] = {0};
    int per_count[NS_MAX_DIM + 1][2] = {{0}}; /* patterns of c positive entries: [allowed, refused] */
    for (uint32_t z = 0; z < (1u << m); z++) {
        int64_t var[NS_RULES_MAX_VARS] = {0}, s[NS_MAX_DIM] = {0}, size[NS_MAX_DIM] = {0};
        uint32_t T = 0;
        int ok = 1;
        for (int j = 0; j < m; j++) {
            var[j] = z >> j & 1;
            ok &= var[j] || !lo1[j];
            T |= (uint32_t)var[j] << pile_of[j];
        }
        const ns_ir_env env = {s, size, var};
        for (int i = 0; i < f->nconj && ok; i++) {
            int64_t out;
            ns_ir_fault ft;
            if (ns_ir_eval(n, p->lists[f->conj + i], &env, &out, &ft) != NS_IR_OK)
                return 0;
            ok = out != 0;
        }
        if (ok && z == 0)
            return 0; /* a move that changes nothing */
        per_count[__builtin_popcount(z)][!ok]++;
        if (ok)
            allow[T >> 6] |= (uint64_t)1 << (T & 63);
    }
    if (!(allow[0] | allow[1] | allow[2] | allow[3]))
        return 0;
    /* exactly those with 1..K positive entries: the boxes' form */
    int K = 0;
    while (K < m && per_count[K + 1][0] && !per_count[K + 1][1])
        K++;
    int rest = 0;
    for (int c = K + 1; c <= m; c++)
        rest += per_count[c][0];
    *piles = mask;
    *kmax = K >= 1 && !rest ? K : 0;
    memcpy(pat, allow, sizeof allow);
    return 1;
}
