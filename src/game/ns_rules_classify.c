/* ns_rules_classify.c - linear forms and the ray / finite / prefix /
 * general decision (see ns_rules_classify.h for the rules it proves). */
#include "game/ns_rules_classify.h"
#include "core/ns_intmath.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ASSIGN 65536 /* enumerated assignments per family */
#define MAX_ATOMS 256

__extension__ typedef __int128 wide;

/* ---------- linear forms ---------- */

typedef struct lctx {
    const ns_ir *n;
    int k;
    const int64_t *val;
    int nval;
    int ray;
    long *work;     /* OPTIONAL: nodes visited, capped at MAX_WORK */
    int ray2;       /* a second variable slot (coefficient t2), or -1 */
    int sub;        /* a slot read as sub_m*ray + sub_d, or -1 */
    int64_t sub_m, sub_d;
} lctx;

#define MAX_WORK (1L << 24) /* nodes visited while classifying one family */

static int lin_is_const(const lctx *c, const ns_lin *l)
{
    if (l->t || l->t2)
        return 0;
    for (int i = 0; i < c->k; i++)
        if (l->p[i] || l->n[i])
            return 0;
    return 1;
}

/* r = a + m*b, checked */
static int lin_axpy(const lctx *c, ns_lin *r, const ns_lin *a, int64_t m, const ns_lin *b)
{
    ns_lin o;
    int64_t x;
    memset(&o, 0, sizeof o);
    for (int i = 0; i < c->k; i++) {
        if (__builtin_mul_overflow(m, b->p[i], &x) || __builtin_add_overflow(a->p[i], x, &o.p[i]))
            return -1;
        if (__builtin_mul_overflow(m, b->n[i], &x) || __builtin_add_overflow(a->n[i], x, &o.n[i]))
            return -1;
    }
    if (__builtin_mul_overflow(m, b->t, &x) || __builtin_add_overflow(a->t, x, &o.t))
        return -1;
    if (__builtin_mul_overflow(m, b->t2, &x) || __builtin_add_overflow(a->t2, x, &o.t2))
        return -1;
    if (__builtin_mul_overflow(m, b->c, &x) || __builtin_add_overflow(a->c, x, &o.c))
        return -1;
    *r = o;
    return 0;
}

static int lin_scale(const lctx *c, ns_lin *r, int64_t m)
{
    ns_lin z;
    memset(&z, 0, sizeof z);
    return lin_axpy(c, r, &z, m, r);
}

/* Linear forms are accepted only with small coefficients (|coefficient|
 * <= 2^20, |constant| <= 2^40 at every node): then evaluating the original
 * expression cannot overflow for piles below 2^38, far beyond any table
 * that fits in memory, so the linear reading and the checked evaluation
 * agree. */
#define LIN_MAX_COEF ((int64_t)1 << 20)
#define LIN_MAX_CONST ((int64_t)1 << 40)

static int lin_small(const lctx *c, const ns_lin *l)
{
    if (l->t > LIN_MAX_COEF || l->t < -LIN_MAX_COEF || l->t2 > LIN_MAX_COEF || l->t2 < -LIN_MAX_COEF || l->c > LIN_MAX_CONST || l->c < -LIN_MAX_CONST)
        return 0;
    for (int i = 0; i < c->k; i++)
        if (l->p[i] > LIN_MAX_COEF || l->p[i] < -LIN_MAX_COEF || l->n[i] > LIN_MAX_COEF || l->n[i] < -LIN_MAX_COEF)
            return 0;
    return 1;
}

static int lin_node(const lctx *c, int id, ns_lin *out);

static int lin_rec(const lctx *c, int id, ns_lin *out)
{
    if (c->work && ++*c->work > MAX_WORK)
        return -1;
    if (lin_node(c, id, out))
        return -1;
    /* constants may be large (they are exact); forms with variables not */
    if (!lin_is_const(c, out) && !lin_small(c, out))
        return -1;
    return 0;
}

static int lin_node(const lctx *c, int id, ns_lin *out)
{
    const ns_ir *x = &c->n[id];
    memset(out, 0, sizeof *out);
    switch ((ns_ir_op)x->op) {
    case IR_CONST: out->c = x->v; return 0;
    case IR_PILE: out->p[x->a] = 1; return 0;
    case IR_SIZE: out->n[x->a] = 1; return 0;
    case IR_VAR:
        if (x->a < c->nval) {
            out->c = c->val[x->a];
            return 0;
        }
        if (x->a == c->sub) {
            out->t = c->sub_m;
            out->c = c->sub_d;
            return 0;
        }
        if (x->a == c->ray) {
            out->t = 1;
            return 0;
        }
        if (x->a == c->ray2) {
            out->t2 = 1;
            return 0;
        }
        return -1;
    default:
        break;
    }
    ns_lin a, b;
    if (lin_rec(c, x->a, &a))
        return -1;
    if (x->op == IR_NEG) {
        *out = a;
        return lin_scale(c, out, -1);
    }
    if ((x->op == IR_AND || x->op == IR_OR) && lin_is_const(c, &a)) {
        if ((x->op == IR_AND && !a.c) || (x->op == IR_OR && a.c)) {
            out->c = x->op == IR_OR;
            return 0;
        }
    }
    int unary = x->op == IR_ABS || x->op == IR_NOT;
    if (!unary && lin_rec(c, x->b, &b))
        return -1;
    switch ((ns_ir_op)x->op) {
    case IR_ADD: return lin_axpy(c, out, &a, 1, &b);
    case IR_SUB: return lin_axpy(c, out, &a, -1, &b);
    case IR_MUL:
        if (lin_is_const(c, &a)) {
            *out = b;
            return lin_scale(c, out, a.c);
        }
        if (lin_is_const(c, &b)) {
            *out = a;
            return lin_scale(c, out, b.c);
        }
        return -1;
    default:
        break;
    }
    /* everything else only when constant */
    if (!lin_is_const(c, &a) || (!unary && !lin_is_const(c, &b)))
        return -1;
    int64_t r = 0;
    switch ((ns_ir_op)x->op) {
    case IR_DIV: if (ns_ir_div(a.c, b.c, &r)) return -1; break;
    case IR_MOD: if (ns_ir_mod(a.c, b.c, &r)) return -1; break;
    case IR_ABS: if (a.c == INT64_MIN) return -1; r = a.c < 0 ? -a.c : a.c; break;
    case IR_NOT: r = !a.c; break;
    case IR_MIN: r = a.c < b.c ? a.c : b.c; break;
    case IR_MAX: r = a.c > b.c ? a.c : b.c; break;
    case IR_LT: r = a.c < b.c; break;
    case IR_LE: r = a.c <= b.c; break;
    case IR_GT: r = a.c > b.c; break;
    case IR_GE: r = a.c >= b.c; break;
    case IR_EQ: r = a.c == b.c; break;
    case IR_NE: r = a.c != b.c; break;
    case IR_AND: r = a.c && b.c; break;
    case IR_OR: r = a.c || b.c; break;
    default: return -1;
    }
    out->c = r;
    return 0;
}

int ns_lin_of(const ns_ir *n, int id, int k, const int64_t *val, int nval, int ray, ns_lin *out)
{
    lctx c = {n, k, val, nval, ray, NULL, -1, -1, 0, 0};
    return lin_rec(&c, id, out);
}

/* ---------- atoms ---------- */

typedef struct actx {
    lctx l;
    ns_lin *atoms;
    int *na;
    int max;
    int *never;
} actx;

static int add_atom(actx *a, const ns_lin *x)
{
    if (lin_is_const(&a->l, x)) {
        if (x->c < 0)
            *a->never = 1;
        return 0;
    }
    if (*a->na >= a->max)
        return -1;
    a->atoms[(*a->na)++] = *x;
    return 0;
}

/* A positive constant divisor of a DIV node, or 0. */
static int64_t pos_divisor(const actx *a, int id)
{
    ns_lin d;
    if (lin_rec(&a->l, id, &d) || !lin_is_const(&a->l, &d) || d.c <= 0)
        return 0;
    return d.c;
}

/* A - B >= kk */
static int ge(actx *a, int A, int B, int64_t kk)
{
    const ns_ir *n = a->l.n;
    if (n[A].op == IR_MIN)
        return ge(a, n[A].a, B, kk) || ge(a, n[A].b, B, kk) ? -1 : 0;
    if (n[B].op == IR_MAX)
        return ge(a, A, n[B].a, kk) || ge(a, A, n[B].b, kk) ? -1 : 0;
    ns_lin la, lb, r;
    if (n[B].op == IR_ABS && (lin_rec(&a->l, n[B].a, &lb) || !lin_is_const(&a->l, &lb))) {
        /* A - kk >= abs(E)  <=>  A - kk - E >= 0 and A - kk + E >= 0 */
        ns_lin r2;
        if (lin_rec(&a->l, A, &la) || lin_rec(&a->l, n[B].a, &lb) || lin_axpy(&a->l, &r, &la, -1, &lb) ||
            lin_axpy(&a->l, &r2, &la, 1, &lb) || __builtin_sub_overflow(r.c, kk, &r.c) ||
            __builtin_sub_overflow(r2.c, kk, &r2.c))
            return -1;
        return add_atom(a, &r) || add_atom(a, &r2) ? -1 : 0;
    }
    int64_t c;
    if (n[B].op == IR_DIV && (c = pos_divisor(a, n[B].b)) > 0) {
        /* A - kk >= floor(E/c)  <=>  c*A - E >= c*kk + 1 - c */
        int64_t rhs;
        if (lin_rec(&a->l, A, &la) || lin_rec(&a->l, n[B].a, &lb) || lin_scale(&a->l, &la, c) ||
            lin_axpy(&a->l, &r, &la, -1, &lb) || __builtin_mul_overflow(c, kk, &rhs) ||
            __builtin_add_overflow(rhs, 1 - c, &rhs) || __builtin_sub_overflow(r.c, rhs, &r.c))
            return -1;
        return add_atom(a, &r);
    }
    if (n[A].op == IR_DIV && (c = pos_divisor(a, n[A].b)) > 0) {
        /* floor(E/c) >= B + kk  <=>  E - c*B >= c*kk */
        int64_t rhs;
        if (lin_rec(&a->l, n[A].a, &la) || lin_rec(&a->l, B, &lb) || lin_axpy(&a->l, &r, &la, -c, &lb) ||
            __builtin_mul_overflow(c, kk, &rhs) || __builtin_sub_overflow(r.c, rhs, &r.c))
            return -1;
        return add_atom(a, &r);
    }
    if (lin_rec(&a->l, A, &la) || lin_rec(&a->l, B, &lb) || lin_axpy(&a->l, &r, &la, -1, &lb) ||
        __builtin_sub_overflow(r.c, kk, &r.c))
        return -1;
    return add_atom(a, &r);
}

static int atoms_rec(actx *a, int id, int negated)
{
    const ns_ir *x = &a->l.n[id];
    ns_lin cst;
    if (lin_rec(&a->l, id, &cst) == 0 && lin_is_const(&a->l, &cst)) {
        if ((cst.c != 0) == negated)
            *a->never = 1;
        return 0;
    }
    switch ((ns_ir_op)x->op) {
    case IR_AND:
        if (negated)
            return -1;
        return atoms_rec(a, x->a, 0) || atoms_rec(a, x->b, 0) ? -1 : 0;
    case IR_OR:
        if (!negated)
            return -1;
        return atoms_rec(a, x->a, 1) || atoms_rec(a, x->b, 1) ? -1 : 0;
    case IR_NOT:
        return atoms_rec(a, x->a, !negated);
    case IR_LT: return negated ? ge(a, x->a, x->b, 0) : ge(a, x->b, x->a, 1);
    case IR_LE: return negated ? ge(a, x->a, x->b, 1) : ge(a, x->b, x->a, 0);
    case IR_GT: return negated ? ge(a, x->b, x->a, 0) : ge(a, x->a, x->b, 1);
    case IR_GE: return negated ? ge(a, x->b, x->a, 1) : ge(a, x->a, x->b, 0);
    case IR_EQ:
        if (negated)
            return -1;
        return ge(a, x->a, x->b, 0) || ge(a, x->b, x->a, 0) ? -1 : 0;
    case IR_NE:
        if (!negated)
            return -1;
        return ge(a, x->a, x->b, 0) || ge(a, x->b, x->a, 0) ? -1 : 0;
    default:
        return -1;
    }
}

int ns_lin_atoms(const ns_ir *n, int id, int k, const int64_t *val, int nval, int ray, ns_lin *atoms, int *na,
                 int max, int *never)
{
    actx a = {{n, k, val, nval, ray, NULL, -1, -1, 0, 0}, atoms, na, max, never};
    return atoms_rec(&a, id, 0);
}

/* ---------- classification ---------- */

typedef struct cls {
    ns_rules_prog *p;
    const ns_rfam *f;
    int k;
    int has_domain, dom_linear;
    const ns_lin *dom;
    int ndom, nkeep;
    int nenum, ray;             /* enumerated prefix; ray slot or -1 */
    int pair;                   /* two variables left: substitute (see analyze_pair) */
    int sub;                    /* while a substitution is analysed: slot read as */
    int64_t sub_m, sub_d;       /* sub_m*ray + sub_d, else -1 */
    int sub_seen;               /* a substitution was made: sub_* and d_lo..d_hi */
    int sub_var, sub_of;        /* describe it (slots of v and u) */
    int sub_mixed;              /* assignments substituted differently */
    int64_t d_lo, d_hi;         /* over all assignments */
    int varnode[NS_RULES_MAX_VARS];
    int64_t val[NS_RULES_MAX_VARS];
    long assignments;
    long work;                  /* nodes visited (see MAX_WORK) */
    ns_rclass *out;
    size_t cap;                 /* rays or offsets allocated */
    int failed;                 /* general: out->why says why */
    int nomem;
} cls;

static void why(cls *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why(cls *c, const char *fmt, ...)
{
    if (c->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->out->why, sizeof c->out->why, fmt, ap);
    va_end(ap);
    if (c->work > MAX_WORK)
        snprintf(c->out->why, sizeof c->out->why, "the family is too large to analyse");
    c->failed = 1;
}

/* Leaves of nested op (IR_MAX for a lower end, IR_MIN for an upper end). */
static void leaves(const ns_ir *n, int id, ns_ir_op op, int *out, int *nout, int max)
{
    if (n[id].op == op) {
        leaves(n, n[id].a, op, out, nout, max);
        leaves(n, n[id].b, op, out, nout, max);
        return;
    }
    if (*nout < max)
        out[(*nout)++] = id;
}

/* Constant once the variables below nvars are known? */
static int is_const_given(const ns_ir *n, int id, int nvars)
{
    ns_ir_deps d = {0, 0, 0};
    ns_ir_deps_of(n, id, &d);
    return !d.piles && !d.sizes && (d.vars >> nvars) == 0;
}

static int enumerable(const cls *c, int j)
{
    const ns_rvar *v = &c->f->var[j];
    const ns_ir *n = c->p->ir.n;
    if (v->kind == RV_LIST) {
        for (int i = 0; i < v->n; i++)
            if (!is_const_given(n, c->p->lists[v->list + i], j))
                return 0;
        return 1;
    }
    int lv[64], nl = 0, hv[64], nh = 0, lo_ok = 0, hi_ok = 0;
    leaves(n, v->lo, IR_MAX, lv, &nl, 64);
    leaves(n, v->hi, IR_MIN, hv, &nh, 64);
    for (int i = 0; i < nl; i++)
        lo_ok |= is_const_given(n, lv[i], j);
    for (int i = 0; i < nh; i++)
        hi_ok |= is_const_given(n, hv[i], j);
    return lo_ok && hi_ok;
}

/* Divide an atom by the gcd of its variable coefficients (the constant is
 * floored: over the integers g*L + c >= 0 <=> L + floor(c/g) >= 0). */
static void normalize(int k, ns_lin *a)
{
    int64_t g = a->t;
    for (int i = 0; i < k; i++) {
        g = ns_gcd64(g, a->p[i]);
        g = ns_gcd64(g, a->n[i]);
    }
    g = ns_gcd64(g, a->t2);
    if (g <= 1)
        return;
    for (int i = 0; i < k; i++) {
        a->p[i] /= g;
        a->n[i] /= g;
    }
    a->t /= g;
    a->t2 /= g;
    int64_t q;
    ns_ir_div(a->c, g, &q);
    a->c = q;
}

static int lin_equal(int k, const ns_lin *a, const ns_lin *b)
{
    if (a->t != b->t || a->t2 != b->t2 || a->c != b->c)
        return 0;
    for (int i = 0; i < k; i++)
        if (a->p[i] != b->p[i] || a->n[i] != b->n[i])
            return 0;
    return 1;
}

static int push_vec(cls *c, int64_t **arr, int64_t **arr2, size_t n, const int64_t *v, const int64_t *v2)
{
    const int k = c->k;
    /* de-duplicate */
    for (size_t i = 0; i < n; i++)
        if (memcmp(*arr + i * (size_t)k, v, (size_t)k * sizeof *v) == 0 &&
            (!arr2 || memcmp(*arr2 + i * (size_t)k, v2, (size_t)k * sizeof *v2) == 0))
            return 0;
    if (n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 16;
        int64_t *a = realloc(*arr, nc * (size_t)k * sizeof *a);
        if (!a) {
            c->nomem = 1;
            return -1;
        }
        *arr = a;
        if (arr2) {
            int64_t *b = realloc(*arr2, nc * (size_t)k * sizeof *b);
            if (!b) {
                c->nomem = 1;
                return -1;
            }
            *arr2 = b;
        }
        c->cap = nc;
    }
    memcpy(*arr + n * (size_t)k, v, (size_t)k * sizeof *v);
    if (arr2)
        memcpy(*arr2 + n * (size_t)k, v2, (size_t)k * sizeof *v2);
    return 1;
}

static const char *pile(const cls *c, int i)
{
    return c->p->pile_names[i];
}

/* One full assignment of the enumerated variables. */
static void analyze(cls *c)
{
    const int k = c->k;
    const ns_rfam *f = c->f;
    const ns_ir *n = c->p->ir.n;
    ns_lin atoms[MAX_ATOMS];
    int na = 0, never = 0;
    actx a = {{n, k, c->val, c->nenum, c->ray, &c->work, -1, c->sub, c->sub_m, c->sub_d}, atoms, &na, MAX_ATOMS, &never};
    /* range ends of every variable, then the conditions */
    for (int j = 0; j < f->nvars; j++) {
        const ns_rvar *v = &f->var[j];
        if (v->kind != RV_RANGE)
            continue;
        if (ge(&a, c->varnode[j], v->lo, 0) || ge(&a, v->hi, c->varnode[j], 0)) {
            why(c, "the range of %s is not linear in the piles", v->name);
            return;
        }
    }
    for (int i = 0; i < f->nconj; i++)
        if (atoms_rec(&a, c->p->lists[f->conj + i], 0)) {
            why(c, "a 'where' condition is not a conjunction of linear comparisons");
            return;
        }
    if (never)
        return;
    /* new state = s + cv + t*dv */
    int64_t cv[NS_MAX_DIM] = {0}, dv[NS_MAX_DIM] = {0};
    for (int i = 0; i < f->nout; i++) {
        ns_lin l;
        int s = f->out_slot[i];
        int ok = lin_rec(&a.l, f->out_expr[i], &l) == 0 && l.p[s] == 1;
        for (int j = 0; ok && j < k; j++)
            ok = l.n[j] == 0 && (j == s || l.p[j] == 0);
        if (!ok) {
            if (c->ray >= 0)
                why(c, "the new value of %s is not %s + constant + constant*%s", pile(c, s), pile(c, s), f->var[c->ray].name);
            else
                why(c, "the new value of %s is not %s + a constant", pile(c, s), pile(c, s));
            return;
        }
        cv[s] = l.c;
        dv[s] = l.t;
    }
    /* constant bounds on t give the start; the rest must be box limits */
    int64_t start = 0;
    int have_start = c->ray < 0;
    int covered_lo[NS_MAX_DIM] = {0}, covered_hi[NS_MAX_DIM] = {0};
    for (int i = 0; i < na; i++) {
        ns_lin *x = &atoms[i];
        int onlyt = 1;
        for (int j = 0; j < k; j++)
            onlyt &= x->p[j] == 0 && x->n[j] == 0;
        if (onlyt) {
            if (x->t < 0) {
                why(c, "%s has a constant upper limit: not a ray", f->var[c->ray].name);
                return;
            }
            /* t*x->t + c >= 0  <=>  t >= ceil(-c / x->t) */
            int64_t q, negc;
            if (__builtin_sub_overflow((int64_t)0, x->c, &negc) || ns_ir_div(negc, x->t, &q)) {
                why(c, "a range end overflows");
                return;
            }
            if (q * x->t != negc)
                q++;
            if (!have_start || q > start)
                start = q;
            have_start = 1;
            continue;
        }
        normalize(k, x);
        int matched = 0;
        for (int j = 0; j < k && !matched; j++) {
            ns_lin lo, hi;
            memset(&lo, 0, sizeof lo);
            memset(&hi, 0, sizeof hi);
            lo.p[j] = 1;
            lo.t = dv[j];
            lo.c = cv[j];
            hi.p[j] = -1;
            hi.n[j] = 1;
            hi.t = -dv[j];
            if (__builtin_sub_overflow(-cv[j], (int64_t)1, &hi.c))
                continue;
            if (lin_equal(k, x, &lo)) {
                covered_lo[j] = 1;
                matched = 1;
            } else if (lin_equal(k, x, &hi)) {
                covered_hi[j] = 1;
                matched = 1;
            }
        }
        if (!matched) {
            why(c, "a condition or range end depends on the position but is not a limit of the box (new pile >= 0 or < size)");
            return;
        }
    }
    if (!have_start) {
        why(c, "the range of %s has no constant start", f->var[c->ray].name);
        return;
    }
    /* the first option: e = cv + start*dv */
    int64_t e[NS_MAX_DIM], m;
    int moves = 0;
    for (int j = 0; j < k; j++) {
        if (__builtin_mul_overflow(start, dv[j], &m) || __builtin_add_overflow(cv[j], m, &e[j])) {
            why(c, "the first option overflows");
            return;
        }
        moves |= dv[j] != 0;
    }
    if (c->ray >= 0 && !moves) {
        why(c, "the new state does not depend on %s", f->var[c->ray].name);
        return;
    }
    /* every box limit that can fail must be a condition (or, above, follow
     * from the domain) */
    for (int j = 0; j < k; j++) {
        int need_lo = c->ray >= 0 ? (dv[j] < 0 || e[j] < 0) : cv[j] < 0;
        int need_hi = c->ray >= 0 ? (dv[j] > 0 || e[j] > 0) : cv[j] > 0;
        if (need_lo && !covered_lo[j]) {
            why(c, "nothing keeps %s >= 0 (bound the range, as in 1..%s, or add a 'where'): moves below 0 are errors", pile(c, j), pile(c, j));
            return;
        }
        if (need_hi && !covered_hi[j]) {
            int proved = 0;
            for (int d = 0; d < c->ndom && !proved; d++) {
                ns_lin nd = c->dom[d];
                normalize(k, &nd);
                const ns_lin *D = &nd;
                int ok = D->t == 0 && D->c <= -1 && D->p[j] <= -1;
                for (int i = 0; ok && i < k; i++)
                    ok = D->p[i] <= 0 && D->n[i] == (i == j);
                proved = ok;
            }
            if (!proved) {
                why(c, "nothing keeps %s below its size (add 'where ... < size(%s)' or a domain): moves outside the box are errors",
                    pile(c, j), pile(c, j));
                return;
            }
        }
    }
    /* the moves must keep the domain: P.d >= 0 and P.e >= 0 for every
     * domain atom P.s + Q.N + c >= 0 */
    if (c->has_domain) {
        if (!c->dom_linear) {
            why(c, "the domain is not a conjunction of linear conditions, so moves might leave it");
            return;
        }
        for (int d = 0; d < c->nkeep; d++) {
            wide pd = 0, pe = 0;
            for (int i = 0; i < k; i++) {
                pd += (wide)c->dom[d].p[i] * dv[i];
                pe += (wide)c->dom[d].p[i] * (c->ray >= 0 ? e[i] : cv[i]);
            }
            if (pd < 0 || pe < 0) {
                why(c, "a move may leave the domain");
                return;
            }
        }
    }
    if (c->ray >= 0) {
        int r = push_vec(c, &c->out->dir, &c->out->base, (size_t)c->out->nrays, dv, e);
        if (r > 0)
            c->out->nrays++;
    } else {
        int r = push_vec(c, &c->out->off, NULL, c->out->noff, cv, NULL);
        if (r > 0)
            c->out->noff++;
    }
}

/* out->why = msg, cut to fit */
static void set_why(ns_rclass *out, const char *msg)
{
    size_t n = strlen(msg);
    if (n >= sizeof out->why)
        n = sizeof out->why - 1;
    memcpy(out->why, msg, n);
    out->why[n] = '\0';
}

/* "k", "-k", "2*k" */
static void times_var(char *buf, size_t len, int64_t m, const char *u)
{
    if (m == 1)
        snprintf(buf, len, "%.23s", u);
    else if (m == -1)
        snprintf(buf, len, "-%.23s", u);
    else
        snprintf(buf, len, "%" PRId64 "*%.23s", m, u);
}

/* Two variables u < v left (slots nenum, nenum + 1, both ranges). Find
 * an integer m and constants lo <= hi with lo <= v - m*u <= hi (or the
 * same with u and v exchanged) among the linear atoms of the two ranges
 * and the conditions that read no pile and no size; then every binding
 * has v = m*u + d for exactly one d in lo..hi, and the family is the union
 * over d of the family with v replaced by m*u + d, a single variable u:
 * each of those must be a ray (analyze). Atoms that cannot be read are
 * simply not used for the bounds (they are still checked by analyze). */
static void analyze_pair(cls *c)
{
    const int k = c->k;
    const ns_rfam *f = c->f;
    const ns_ir *n = c->p->ir.n;
    const int u = c->nenum, v = c->nenum + 1;
    ns_lin atoms[MAX_ATOMS];
    int na = 0, never = 0;
    actx a = {{n, k, c->val, c->nenum, u, &c->work, v, -1, 0, 0}, atoms, &na, MAX_ATOMS, &never};
    for (int j = u; j <= v; j++) {
        ge(&a, c->varnode[j], f->var[j].lo, 0);
        ge(&a, f->var[j].hi, c->varnode[j], 0);
    }
    for (int i = 0; i < f->nconj; i++)
        atoms_rec(&a, c->p->lists[f->conj + i], 0);
    if (c->work > MAX_WORK) {
        why(c, "the family is too large to analyse");
        return;
    }
    if (never)
        return; /* a conjunct is constantly false: no moves */
    /* the direction: the first atom in u and v alone */
    int subv = -1;
    int64_t m = 0;
    for (int i = 0; i < na && subv < 0; i++) {
        ns_lin x = atoms[i];
        int free_of_pos = 1;
        for (int j = 0; j < k; j++)
            free_of_pos &= x.p[j] == 0 && x.n[j] == 0;
        if (!free_of_pos || !x.t || !x.t2)
            continue;
        normalize(k, &x);
        if (x.t2 == 1 || x.t2 == -1) {
            subv = v;           /* x.t*u + x.t2*v = x.t2*(v - m*u) */
            m = -x.t * x.t2;
        } else if (x.t == 1 || x.t == -1) {
            subv = u;           /* = x.t*(u - m*v) */
            m = -x.t2 * x.t;
        }
    }
    if (subv < 0) {
        why(c, "2 bound variables (%s, %s) depend on the position, and no condition or range bounds %s - m*%s by constants",
            f->var[u].name, f->var[v].name, f->var[v].name, f->var[u].name);
        return;
    }
    const int other = subv == v ? u : v;
    /* bounds on d = subv - m*other */
    int have_lo = 0, have_hi = 0;
    wide lo = 0, hi = 0;
    for (int i = 0; i < na; i++) {
        const ns_lin *x = &atoms[i];
        int free_of_pos = 1;
        for (int j = 0; j < k; j++)
            free_of_pos &= x->p[j] == 0 && x->n[j] == 0;
        /* coefficients: cs on subv, co on other; parallel when co == -m*cs */
        int64_t cs = subv == v ? x->t2 : x->t, co = subv == v ? x->t : x->t2;
        if (!free_of_pos || !cs || co != -m * cs)
            continue;
        if (cs > 0) {       /* cs*d + c >= 0  <=>  d >= ceil(-c / cs) */
            wide num = -(wide)x->c, q = num / cs;
            if (num % cs > 0)
                q++;
            if (!have_lo || q > lo)
                lo = q;
            have_lo = 1;
        } else {            /* d <= floor(c / -cs) */
            wide q = (wide)x->c / -cs;
            if ((wide)x->c % -cs < 0)
                q--;
            if (!have_hi || q < hi)
                hi = q;
            have_hi = 1;
        }
    }
    if (!have_lo || !have_hi) {
        char mstr[24];
        snprintf(mstr, sizeof mstr, "%" PRId64, m);
        why(c, "2 bound variables (%s, %s) depend on the position, and nothing bounds %s - %s*%s %s", f->var[u].name,
            f->var[v].name, f->var[subv].name, mstr, f->var[other].name, have_lo ? "from above" : "from below");
        return;
    }
    if (hi < lo)
        return; /* no binding at all */
    if (hi - lo >= NS_RULES_MAX_SUBST || lo < -LIN_MAX_CONST || hi > LIN_MAX_CONST) {
        why(c, "%s - m*%s takes more than %d values, or values over 2^40: too many rays", f->var[subv].name,
            f->var[other].name, NS_RULES_MAX_SUBST);
        return;
    }
    if (!c->sub_seen || lo < c->d_lo)
        c->d_lo = lo;
    if (!c->sub_seen || hi > c->d_hi)
        c->d_hi = hi;
    if (c->sub_seen && (c->sub_var != subv || c->sub_m != m))
        c->sub_mixed = 1;
    c->sub_seen = 1;
    c->sub_var = subv;
    c->sub_of = other;
    c->ray = other;
    c->sub = subv;
    c->sub_m = m;
    for (int64_t d = (int64_t)lo;; d++) {
        if (++c->assignments > MAX_ASSIGN) {
            why(c, "more than %d combinations of the enumerated variables and substitutions", MAX_ASSIGN);
            break;
        }
        c->sub_d = d;
        analyze(c);
        if (c->failed && !c->nomem) {
            /* say which substitution the reason is about */
            char keep[sizeof c->out->why];
            memcpy(keep, c->out->why, sizeof keep);
            char mu[48];
            times_var(mu, sizeof mu, m, f->var[other].name);
            char msg[400];
            snprintf(msg, sizeof msg, "with %.23s = %s %c %" PRIu64 ": %s", f->var[subv].name, mu, d < 0 ? '-' : '+',
                     d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d, keep);
            set_why(c->out, msg);
        }
        if (d == (int64_t)hi || c->failed || c->nomem)
            break;
    }
    c->sub = -1;
}

static void enum_rec(cls *c, int j)
{
    if (c->failed || c->nomem)
        return;
    if (j == c->nenum) {
        if (++c->assignments > MAX_ASSIGN) {
            why(c, "more than %d combinations of the enumerated variables", MAX_ASSIGN);
            return;
        }
        if (c->pair)
            analyze_pair(c);
        else
            analyze(c);
        return;
    }
    const ns_rvar *v = &c->f->var[j];
    const ns_ir *n = c->p->ir.n;
    ns_ir_env env = {NULL, NULL, c->val};
    ns_ir_fault fl;
    int64_t x;
    if (v->kind == RV_LIST) {
        for (int i = 0; i < v->n && !c->failed; i++) {
            if (ns_ir_eval(n, c->p->lists[v->list + i], &env, &x, &fl)) {
                why(c, "a value of %s cannot be computed (division by zero or overflow)", v->name);
                return;
            }
            c->val[j] = x;
            enum_rec(c, j + 1);
        }
        return;
    }
    int lv[64], nl = 0, hv[64], nh = 0;
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    leaves(n, v->lo, IR_MAX, lv, &nl, 64);
    leaves(n, v->hi, IR_MIN, hv, &nh, 64);
    for (int i = 0; i < nl; i++)
        if (is_const_given(n, lv[i], j)) {
            if (ns_ir_eval(n, lv[i], &env, &x, &fl)) {
                why(c, "the range of %s cannot be computed (division by zero or overflow)", v->name);
                return;
            }
            lo = x > lo ? x : lo;
        }
    for (int i = 0; i < nh; i++)
        if (is_const_given(n, hv[i], j)) {
            if (ns_ir_eval(n, hv[i], &env, &x, &fl)) {
                why(c, "the range of %s cannot be computed (division by zero or overflow)", v->name);
                return;
            }
            hi = x < hi ? x : hi;
        }
    if (hi < lo)
        return;
    if ((uint64_t)hi - (uint64_t)lo >= MAX_ASSIGN) {
        why(c, "%s takes more than %d values", v->name, MAX_ASSIGN);
        return;
    }
    for (int64_t t = lo;; t++) {
        c->val[j] = t;
        enum_rec(c, j + 1);
        if (t == hi || c->failed || c->nomem)
            break;
    }
}

/* ---------- prefix families ---------- */

/* Does node id read pile a? Also 1 when the walk gets too long (the caller
 * then gives up, which is always safe). */
static int reads_pile(const ns_ir *n, int id, int a, long *work)
{
    if (++*work > MAX_WORK)
        return 1;
    const ns_ir *x = &n[id];
    switch ((ns_ir_op)x->op) {
    case IR_CONST:
    case IR_SIZE:
    case IR_VAR:
        return 0;
    case IR_PILE:
        return x->a == a;
    case IR_NEG:
    case IR_ABS:
    case IR_NOT:
        return reads_pile(n, x->a, a, work);
    default:
        return reads_pile(n, x->a, a, work) || reads_pile(n, x->b, a, work);
    }
}

/* Leaves of the min() tree id; -1 when there are more than max. */
static int min_leaves(const ns_ir *n, int id, int *out, int *nout, int max)
{
    if (n[id].op == IR_MIN)
        return min_leaves(n, n[id].a, out, nout, max) || min_leaves(n, n[id].b, out, nout, max) ? -1 : 0;
    if (*nout >= max)
        return -1;
    out[(*nout)++] = id;
    return 0;
}

/* Everything of f but the upper end of variable tv, and the domain, as
 * ns_rules_prefix_of requires for pile a. */
static int prefix_rest_ok(const ns_rules_prog *p, const ns_rfam *f, int k, int tv, int a, long *work)
{
    const ns_ir *n = p->ir.n;
    int sets_a = 0;
    for (int i = 0; i < f->nout; i++) {
        if (reads_pile(n, f->out_expr[i], a, work))
            return 0;
        sets_a |= f->out_slot[i] == a;
    }
    /* a pile the move leaves alone keeps its value s_a */
    if (!sets_a)
        return 0;
    for (int i = 0; i < f->nconj; i++)
        if (reads_pile(n, p->lists[f->conj + i], a, work))
            return 0;
    for (int j = 0; j < f->nvars; j++) {
        const ns_rvar *v = &f->var[j];
        if (v->kind == RV_LIST) {
            for (int i = 0; i < v->n; i++)
                if (reads_pile(n, p->lists[v->list + i], a, work))
                    return 0;
        } else if (reads_pile(n, v->lo, a, work) || (j != tv && reads_pile(n, v->hi, a, work))) {
            return 0;
        }
    }
    /* the domain: independent of s_a, or linear and only shrinking as s_a
     * grows (every atom P.s + Q.N + c >= 0 has P_a <= 0) */
    for (int i = 0; i < p->ndomain; i++) {
        int id = p->lists[p->domain + i];
        if (!reads_pile(n, id, a, work))
            continue;
        ns_lin atoms[MAX_ATOMS];
        int na = 0, never = 0;
        if (ns_lin_atoms(n, id, k, NULL, 0, -1, atoms, &na, MAX_ATOMS, &never))
            return 0;
        for (int j = 0; j < na; j++)
            if (atoms[j].p[a] > 0)
                return 0;
    }
    return *work <= MAX_WORK;
}

int ns_rules_prefix_of(const ns_rules_prog *p, const ns_rfam *f, int k, ns_rprefix *out)
{
    const ns_ir *n = p->ir.n;
    long work = 0;
    for (int j = 0; j < f->nvars; j++) {
        const ns_rvar *v = &f->var[j];
        int lv[NS_RULES_PREFIX_LEAVES], nl = 0;
        if (v->kind != RV_RANGE || min_leaves(n, v->hi, lv, &nl, NS_RULES_PREFIX_LEAVES))
            continue;
        for (int a = 0; a < k; a++) {
            int bare = 0, ok = 1;
            out->nhi = 0;
            for (int i = 0; i < nl && ok; i++) {
                if (n[lv[i]].op == IR_PILE && n[lv[i]].a == a)
                    bare = 1;
                else if (reads_pile(n, lv[i], a, &work))
                    ok = 0;
                else
                    out->hi_leaf[out->nhi++] = lv[i];
            }
            if (!bare || !ok || !prefix_rest_ok(p, f, k, j, a, &work))
                continue;
            out->axis = a;
            out->var = j;
            return 1;
        }
    }
    memset(out, 0, sizeof *out);
    return 0;
}

/* "l = k + d for each d in -1..1 ...: one ray in k per d" */
static void describe_sub(cls *c)
{
    const char *v = c->f->var[c->sub_var].name, *u = c->f->var[c->sub_of].name;
    char mu[48];
    times_var(mu, sizeof mu, c->sub_m, u);
    char msg[400];
    if (c->sub_mixed)
        snprintf(msg, sizeof msg, "per value of the enumerated variables, the conditions bound one variable minus a multiple of the other: one ray per value");
    else
        snprintf(msg, sizeof msg, "%.23s = %s + d for each d in %" PRId64 "..%" PRId64 " (the conditions bound %.23s - %s): one ray in %.23s per d",
                 v, mu, c->d_lo, c->d_hi, v, mu, u);
    set_why(c->out, msg);
}

void ns_rclass_free(ns_rclass *c)
{
    if (!c)
        return;
    free(c->dir);
    free(c->base);
    free(c->off);
    memset(c, 0, sizeof *c);
}

ns_err ns_rules_classify(ns_rules_prog *p, const ns_rfam *f, int k, int has_domain, int dom_linear,
                         const ns_lin *dom, int ndom, int nkeep, ns_rclass *out, ns_error *err)
{
    memset(out, 0, sizeof *out);
    cls c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.f = f;
    c.k = k;
    c.has_domain = has_domain;
    c.dom_linear = dom_linear;
    c.dom = dom;
    c.ndom = ndom;
    c.nkeep = nkeep;
    c.ray = -1;
    c.sub = -1;
    c.out = out;
    for (int j = 0; j < f->nvars; j++) {
        ns_ir_fault fl;
        c.varnode[j] = ns_ir_add(&p->ir, IR_VAR, j, -1, 0, f->var[j].off, &fl);
        if (c.varnode[j] < 0) {
            if (fl.code == NS_IR_NOMEM)
                return ns_error_set(err, NS_ENOMEM, "out of memory");
            out->kind = NS_FAM_GENERAL;
            snprintf(out->why, sizeof out->why, "the rules are too large to analyse");
            return NS_OK;
        }
    }
    while (c.nenum < f->nvars && enumerable(&c, c.nenum))
        c.nenum++;
    int rest = f->nvars - c.nenum;
    if (rest == 2 && f->var[c.nenum].kind == RV_RANGE && f->var[c.nenum + 1].kind == RV_RANGE) {
        c.pair = 1;
    } else if (rest > 1) {
        why(&c, "%d bound variables (%s, %s%s) have ranges that depend on the position: a ray has one", rest,
            f->var[c.nenum].name, f->var[c.nenum + 1].name, rest > 2 ? ", ..." : "");
    } else if (rest == 1) {
        c.ray = c.nenum;
        if (f->var[c.ray].kind == RV_LIST)
            why(&c, "the values of %s depend on the position", f->var[c.ray].name);
    }
    if (!c.failed)
        enum_rec(&c, 0);
    if (c.nomem) {
        ns_rclass_free(out);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    if (c.failed) {
        char keep[sizeof out->why];
        memcpy(keep, out->why, sizeof keep);
        ns_rclass_free(out);
        memcpy(out->why, keep, sizeof keep);
        out->kind = NS_FAM_GENERAL;
        ns_rprefix pre;
        if (ns_rules_prefix_of(p, f, k, &pre)) {
            out->kind = NS_FAM_PREFIX;
            snprintf(out->why, sizeof out->why, "options accumulate along %.31s: each cell adds the moves with %.23s = %.31s",
                     p->pile_names[pre.axis], f->var[pre.var].name, p->pile_names[pre.axis]);
        }
        return NS_OK;
    }
    out->kind = c.ray >= 0 || c.pair ? NS_FAM_RAY : NS_FAM_FINITE;
    if (c.sub_seen)
        describe_sub(&c);
    return NS_OK;
}
