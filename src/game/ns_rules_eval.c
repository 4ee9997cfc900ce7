/* ns_rules_eval.c - resolved expressions: building with constant folding,
 * checked evaluation, dependencies and interval bounds (ns_rules_ir.h). */
#include "game/ns_rules_ir.h"

#include <stdlib.h>
#include <string.h>

#define NEG_INF INT64_MIN
#define POS_INF INT64_MAX

/* ---------- checked arithmetic ---------- */

int ns_ir_div(int64_t a, int64_t b, int64_t *q)
{
    if (b == 0)
        return NS_IR_DIVZERO;
    if (a == INT64_MIN && b == -1)
        return NS_IR_OVERFLOW;
    int64_t r = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        r--;
    *q = r;
    return NS_IR_OK;
}

int ns_ir_mod(int64_t a, int64_t b, int64_t *r)
{
    if (b == 0)
        return NS_IR_DIVZERO;
    if (b == -1) {
        *r = 0;
        return NS_IR_OK;
    }
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0)))
        m += b;
    *r = m;
    return NS_IR_OK;
}

int ns_ir_shl(int64_t a, int64_t b, int64_t *r)
{
    if (b < 0)
        return NS_IR_NEGSHIFT;
    if (a == 0 || b == 0) {
        *r = a;
        return NS_IR_OK;
    }
    /* a * 2^b must fit (|a| < 2^63 and b < 64: the product fits in 128 bits) */
    if (b >= 64)
        return NS_IR_OVERFLOW;
    __extension__ typedef __int128 wide128;
    wide128 p = (wide128)a * ((wide128)1 << b);
    if (p > INT64_MAX || p < INT64_MIN)
        return NS_IR_OVERFLOW;
    *r = (int64_t)p;
    return NS_IR_OK;
}

int ns_ir_shr(int64_t a, int64_t b, int64_t *r)
{
    if (b < 0)
        return NS_IR_NEGSHIFT;
    if (b >= 63) {
        *r = a < 0 ? -1 : 0;
        return NS_IR_OK;
    }
    /* floor(a / 2^b), whatever the compiler does with >> on negatives */
    int64_t q = a / ((int64_t)1 << b);
    if (a % ((int64_t)1 << b) != 0 && a < 0)
        q--;
    *r = q;
    return NS_IR_OK;
}

int ns_ir_pow(int64_t a, int64_t b, int64_t *r)
{
    if (b < 0)
        return NS_IR_NEGPOW;
    int64_t acc = 1, base = a;
    /* |a| <= 1 never overflows, whatever b */
    if (a == 0 || a == 1 || a == -1) {
        *r = b == 0 ? 1 : (a == -1 && (b & 1)) ? -1 : a == -1 ? 1 : a;
        return NS_IR_OK;
    }
    while (b > 0) {
        if ((b & 1) && __builtin_mul_overflow(acc, base, &acc))
            return NS_IR_OVERFLOW;
        b >>= 1;
        if (b > 0 && __builtin_mul_overflow(base, base, &base))
            return NS_IR_OVERFLOW;
    }
    *r = acc;
    return NS_IR_OK;
}

int ns_ir_popcount(int64_t a, int64_t *r)
{
    if (a < 0)
        return NS_IR_NEGPOP;
    *r = __builtin_popcountll((unsigned long long)a);
    return NS_IR_OK;
}

const char *ns_ir_fault_text(int code)
{
    switch (code) {
    case NS_IR_DIVZERO: return "division by zero";
    case NS_IR_OVERFLOW: return "integer overflow (the value does not fit in 64 bits)";
    case NS_IR_NEGSHIFT: return "negative shift count (a << b and a >> b need b >= 0)";
    case NS_IR_NEGPOW: return "negative exponent (a ** b needs b >= 0)";
    case NS_IR_NEGPOP: return "popcount of a negative number";
    case NS_IR_TOOBIG: return "expression too large";
    default: return "out of memory";
    }
}

/* Apply a binary or unary operator to values; 0 or a fault code. */
static inline int apply(ns_ir_op op, int64_t x, int64_t y, int64_t *out)
{
    switch (op) {
    case IR_NEG:
        if (x == INT64_MIN)
            return NS_IR_OVERFLOW;
        *out = -x;
        return 0;
    case IR_ABS:
        if (x == INT64_MIN)
            return NS_IR_OVERFLOW;
        *out = x < 0 ? -x : x;
        return 0;
    case IR_NOT: *out = !x; return 0;
    case IR_ADD: return __builtin_add_overflow(x, y, out) ? NS_IR_OVERFLOW : 0;
    case IR_SUB: return __builtin_sub_overflow(x, y, out) ? NS_IR_OVERFLOW : 0;
    case IR_MUL: return __builtin_mul_overflow(x, y, out) ? NS_IR_OVERFLOW : 0;
    case IR_DIV: return ns_ir_div(x, y, out);
    case IR_MOD: return ns_ir_mod(x, y, out);
    case IR_MIN: *out = x < y ? x : y; return 0;
    case IR_MAX: *out = x > y ? x : y; return 0;
    case IR_LT: *out = x < y; return 0;
    case IR_LE: *out = x <= y; return 0;
    case IR_GT: *out = x > y; return 0;
    case IR_GE: *out = x >= y; return 0;
    case IR_EQ: *out = x == y; return 0;
    case IR_NE: *out = x != y; return 0;
    case IR_AND: *out = x && y; return 0;
    case IR_OR: *out = x || y; return 0;
    case IR_BAND: *out = x & y; return 0;
    case IR_BOR: *out = x | y; return 0;
    case IR_BXOR: *out = x ^ y; return 0;
    case IR_SHL: return ns_ir_shl(x, y, out);
    case IR_SHR: return ns_ir_shr(x, y, out);
    case IR_POW: return ns_ir_pow(x, y, out);
    case IR_POPCOUNT: return ns_ir_popcount(x, out);
    default: *out = 0; return 0;
    }
}

static int is_unary(ns_ir_op op)
{
    return op == IR_NEG || op == IR_ABS || op == IR_NOT || op == IR_POPCOUNT;
}

/* ---------- building ---------- */

static int push(ns_ir_pool *p, ns_ir_op op, int a, int b, int64_t v, uint32_t off, ns_ir_fault *f)
{
    if (p->nn == p->cap) {
        int lim = p->limit > 0 ? p->limit : (1 << 20);
        if (p->nn >= lim) {
            f->code = NS_IR_TOOBIG;
            f->off = off;
            return -1;
        }
        int nc = p->cap ? p->cap * 2 : 256;
        ns_ir *n = realloc(p->n, (size_t)nc * sizeof *n);
        if (!n) {
            f->code = NS_IR_NOMEM;
            f->off = off;
            return -1;
        }
        p->n = n;
        p->cap = nc;
    }
    int depth = 1;
    uint64_t tsize = 1;
    if (op >= IR_NEG) {
        if (p->n[a].depth + 1 > depth)
            depth = p->n[a].depth + 1;
        tsize += p->n[a].tsize;
        if (!is_unary(op)) {
            if (p->n[b].depth + 1 > depth)
                depth = p->n[b].depth + 1;
            tsize += p->n[b].tsize;
        }
    }
    if (depth > NS_IR_MAX_DEPTH || tsize > NS_IR_MAX_TREE) {
        f->code = NS_IR_TOOBIG;
        f->off = off;
        return -1;
    }
    ns_ir *n = &p->n[p->nn];
    memset(n, 0, sizeof *n);
    n->op = (uint8_t)op;
    n->depth = (uint16_t)depth;
    n->tsize = (uint32_t)tsize;
    n->a = a;
    n->b = b;
    n->v = v;
    n->off = off;
    return p->nn++;
}

int ns_ir_add(ns_ir_pool *p, ns_ir_op op, int a, int b, int64_t v, uint32_t off, ns_ir_fault *f)
{
    f->code = NS_IR_OK;
    if (op >= IR_NEG) {
        int ca = ns_ir_is_const(p, a);
        int cb = is_unary(op) ? 1 : ns_ir_is_const(p, b);
        if (op == IR_AND && ca)
            return p->n[a].v ? (ns_ir_is_const(p, b) ? push(p, IR_CONST, -1, -1, p->n[b].v != 0, off, f) : b)
                             : push(p, IR_CONST, -1, -1, 0, off, f);
        if (op == IR_OR && ca)
            return p->n[a].v ? push(p, IR_CONST, -1, -1, 1, off, f)
                             : (ns_ir_is_const(p, b) ? push(p, IR_CONST, -1, -1, p->n[b].v != 0, off, f) : b);
        if ((op == IR_DIV || op == IR_MOD) && ns_ir_is_const(p, b) && p->n[b].v == 0) {
            /* a constant zero divisor fails whatever the dividend */
            f->code = NS_IR_DIVZERO;
            f->off = off;
            return -1;
        }
        if (ca && cb) {
            int64_t r;
            int code = apply(op, p->n[a].v, is_unary(op) ? 0 : p->n[b].v, &r);
            if (code) {
                f->code = code;
                f->off = off;
                return -1;
            }
            return push(p, IR_CONST, -1, -1, r, off, f);
        }
    }
    return push(p, op, a, b, v, off, f);
}

void ns_ir_pool_free(ns_ir_pool *p)
{
    if (!p)
        return;
    free(p->n);
    p->n = NULL;
    p->nn = p->cap = 0;
}

/* ---------- evaluation ---------- */

/* A leaf's value without a call; 0 when id is no leaf. */
static inline int leaf(const ns_ir *n, int id, const ns_ir_env *env, int64_t *out)
{
    const ns_ir *x = &n[id];
    switch ((ns_ir_op)x->op) {
    case IR_CONST: *out = x->v; return 1;
    case IR_PILE: *out = env->s[x->a]; return 1;
    case IR_SIZE: *out = env->size[x->a]; return 1;
    case IR_VAR: *out = env->var[x->a]; return 1;
    default: return 0;
    }
}

int ns_ir_eval(const ns_ir *n, int id, const ns_ir_env *env, int64_t *out, ns_ir_fault *f)
{
    const ns_ir *x = &n[id];
    int64_t a, b;
    int code;
    switch ((ns_ir_op)x->op) {
    case IR_CONST: *out = x->v; return 0;
    case IR_PILE: *out = env->s[x->a]; return 0;
    case IR_SIZE: *out = env->size[x->a]; return 0;
    case IR_VAR: *out = env->var[x->a]; return 0;
    case IR_AND:
        if ((code = ns_ir_eval(n, x->a, env, &a, f)))
            return code;
        if (!a) {
            *out = 0;
            return 0;
        }
        if ((code = ns_ir_eval(n, x->b, env, &b, f)))
            return code;
        *out = b != 0;
        return 0;
    case IR_OR:
        if ((code = ns_ir_eval(n, x->a, env, &a, f)))
            return code;
        if (a) {
            *out = 1;
            return 0;
        }
        if ((code = ns_ir_eval(n, x->b, env, &b, f)))
            return code;
        *out = b != 0;
        return 0;
    default:
        break;
    }
    if (!leaf(n, x->a, env, &a) && (code = ns_ir_eval(n, x->a, env, &a, f)))
        return code;
    b = 0;
    if (!is_unary((ns_ir_op)x->op) && !leaf(n, x->b, env, &b) && (code = ns_ir_eval(n, x->b, env, &b, f)))
        return code;
    if ((code = apply((ns_ir_op)x->op, a, b, out))) {
        f->code = code;
        f->off = x->off;
    }
    return code;
}

/* ---------- bytecode ---------- */

#define CODE(op, mode) (((op) << 3) | (mode))

/* op: an ns_ir_op (combined with mode into one opcode) or NS_IR_I* */
static int emit_ins(ns_ir_code *c, int op, int mode, int32_t a, int64_t v, uint32_t off)
{
    if (c->n == c->cap) {
        int lim = c->limit > 0 ? c->limit : (1 << 20);
        if (c->n >= lim)
            return -1;
        int nc = c->cap ? c->cap * 2 : 256;
        if (nc > lim)
            nc = lim;
        ns_ir_ins *p = realloc(c->ins, (size_t)nc * sizeof *p);
        if (!p)
            return -1;
        c->ins = p;
        c->cap = nc;
    }
    ns_ir_ins *x = &c->ins[c->n];
    x->op = (uint8_t)(op >= NS_IR_IEND ? op : CODE(op, mode));
    x->a = a;
    x->v = v;
    x->off = off;
    return c->n++;
}

static int is_leaf(const ns_ir *x)
{
    return x->op == IR_CONST || x->op == IR_PILE || x->op == IR_SIZE || x->op == IR_VAR;
}

static int leaf_mode(const ns_ir *x)
{
    return x->op == IR_CONST ? NS_IR_RCONST : x->op == IR_PILE ? NS_IR_RPILE : x->op == IR_SIZE ? NS_IR_RSIZE : NS_IR_RVAR;
}

/* sp: stack depth before the node's code runs; fails past NS_IR_RUN_STACK */
static int compile_rec(const ns_ir *n, int id, ns_ir_code *c, int sp)
{
    const ns_ir *x = &n[id];
    if (sp + 1 > NS_IR_RUN_STACK)
        return -1;
    if (is_leaf(x))
        return emit_ins(c, IR_CONST, leaf_mode(x), x->a, x->v, x->off) < 0 ? -1 : 0;
    if (compile_rec(n, x->a, c, sp))
        return -1;
    if (is_unary((ns_ir_op)x->op))
        return emit_ins(c, x->op, NS_IR_RSTACK, 0, 0, x->off) < 0 ? -1 : 0;
    if (x->op == IR_AND || x->op == IR_OR) {
        int j = emit_ins(c, x->op == IR_AND ? NS_IR_IANDJ : NS_IR_IORJ, 0, 0, 0, x->off);
        if (j < 0 || compile_rec(n, x->b, c, sp) || emit_ins(c, NS_IR_IBOOL, 0, 0, 0, x->off) < 0)
            return -1;
        c->ins[j].a = c->n;
        return 0;
    }
    const ns_ir *y = &n[x->b];
    if (is_leaf(y))
        return emit_ins(c, x->op, leaf_mode(y), y->a, y->v, x->off) < 0 ? -1 : 0;
    if (compile_rec(n, x->b, c, sp + 1))
        return -1;
    return emit_ins(c, x->op, NS_IR_RSTACK, 0, 0, x->off) < 0 ? -1 : 0;
}

int ns_ir_compile(const ns_ir *n, int id, ns_ir_code *c)
{
    int start = c->n;
    if (compile_rec(n, id, c, 0) || emit_ins(c, NS_IR_IEND, 0, 0, 0, 0) < 0) {
        c->n = start;
        return -1;
    }
    return start;
}

void ns_ir_code_free(ns_ir_code *c)
{
    if (!c)
        return;
    free(c->ins);
    c->ins = NULL;
    c->n = c->cap = 0;
}

/* One switch per instruction: the opcode combines the operator and the
 * source of its right operand (see ns_ir_compile). */

int ns_ir_run(const ns_ir_ins *code, int start, const ns_ir_env *env, int64_t *out, ns_ir_fault *f)
{
    int64_t st[NS_IR_RUN_STACK];
    int sp = 0; /* st[sp-1] is the top */
    int64_t b;
    int rc;
    const ns_ir_ins *x = code + start;
#define RIGHT(OP, BODY)                                                                                                                \
    case CODE(OP, NS_IR_RSTACK): b = st[--sp]; BODY; x++; continue;                                                                    \
    case CODE(OP, NS_IR_RCONST): b = x->v; BODY; x++; continue;                                                                        \
    case CODE(OP, NS_IR_RPILE): b = env->s[x->a]; BODY; x++; continue;                                                                 \
    case CODE(OP, NS_IR_RSIZE): b = env->size[x->a]; BODY; x++; continue;                                                              \
    case CODE(OP, NS_IR_RVAR): b = env->var[x->a]; BODY; x++; continue;
#define TOP st[sp - 1]
    for (;;) {
        switch (x->op) {
        case CODE(IR_CONST, NS_IR_RCONST): st[sp++] = x->v; x++; continue;
        case CODE(IR_CONST, NS_IR_RPILE): st[sp++] = env->s[x->a]; x++; continue;
        case CODE(IR_CONST, NS_IR_RSIZE): st[sp++] = env->size[x->a]; x++; continue;
        case CODE(IR_CONST, NS_IR_RVAR): st[sp++] = env->var[x->a]; x++; continue;
        RIGHT(IR_ADD, if (__builtin_add_overflow(TOP, b, &TOP)) { rc = NS_IR_OVERFLOW; goto fault; })
        RIGHT(IR_SUB, if (__builtin_sub_overflow(TOP, b, &TOP)) { rc = NS_IR_OVERFLOW; goto fault; })
        RIGHT(IR_MUL, if (__builtin_mul_overflow(TOP, b, &TOP)) { rc = NS_IR_OVERFLOW; goto fault; })
        RIGHT(IR_DIV, if ((rc = ns_ir_div(TOP, b, &TOP))) goto fault;)
        RIGHT(IR_MOD, if ((rc = ns_ir_mod(TOP, b, &TOP))) goto fault;)
        RIGHT(IR_MIN, TOP = TOP < b ? TOP : b)
        RIGHT(IR_MAX, TOP = TOP > b ? TOP : b)
        RIGHT(IR_LT, TOP = TOP < b)
        RIGHT(IR_LE, TOP = TOP <= b)
        RIGHT(IR_GT, TOP = TOP > b)
        RIGHT(IR_GE, TOP = TOP >= b)
        RIGHT(IR_EQ, TOP = TOP == b)
        RIGHT(IR_NE, TOP = TOP != b)
        RIGHT(IR_BAND, TOP = TOP & b)
        RIGHT(IR_BOR, TOP = TOP | b)
        RIGHT(IR_BXOR, TOP = TOP ^ b)
        RIGHT(IR_SHL, if ((rc = ns_ir_shl(TOP, b, &TOP))) goto fault;)
        RIGHT(IR_SHR, if ((rc = ns_ir_shr(TOP, b, &TOP))) goto fault;)
        RIGHT(IR_POW, if ((rc = ns_ir_pow(TOP, b, &TOP))) goto fault;)
        case CODE(IR_NEG, 0):
            if (TOP == INT64_MIN) {
                rc = NS_IR_OVERFLOW;
                goto fault;
            }
            TOP = -TOP;
            x++;
            continue;
        case CODE(IR_ABS, 0):
            if (TOP == INT64_MIN) {
                rc = NS_IR_OVERFLOW;
                goto fault;
            }
            TOP = TOP < 0 ? -TOP : TOP;
            x++;
            continue;
        case CODE(IR_NOT, 0):
            TOP = !TOP;
            x++;
            continue;
        case CODE(IR_POPCOUNT, 0):
            if ((rc = ns_ir_popcount(TOP, &TOP)))
                goto fault;
            x++;
            continue;
        case NS_IR_IANDJ:
            if (TOP == 0) {
                x = code + x->a;
                continue;
            }
            sp--;
            x++;
            continue;
        case NS_IR_IORJ:
            if (TOP != 0) {
                TOP = 1;
                x = code + x->a;
                continue;
            }
            sp--;
            x++;
            continue;
        case NS_IR_IBOOL:
            TOP = TOP != 0;
            x++;
            continue;
        default: /* NS_IR_IEND */
            *out = TOP;
            return 0;
        }
    }
#undef RIGHT
#undef TOP
fault:
    f->code = rc;
    f->off = x->off;
    return rc;
}

void ns_ir_deps_of(const ns_ir *n, int id, ns_ir_deps *d)
{
    const ns_ir *x = &n[id];
    switch ((ns_ir_op)x->op) {
    case IR_CONST: return;
    case IR_PILE: d->piles = 1; return;
    case IR_SIZE: d->sizes = 1; return;
    case IR_VAR: d->vars |= (uint64_t)1 << (x->a < 63 ? x->a : 63); return;
    default:
        ns_ir_deps_of(n, x->a, d);
        if (!is_unary((ns_ir_op)x->op))
            ns_ir_deps_of(n, x->b, d);
        return;
    }
}

/* ---------- intervals ---------- */

__extension__ typedef __int128 wide;

static int64_t clamp_lo(wide v)
{
    if (v <= (wide)INT64_MIN)
        return NEG_INF;
    if (v >= (wide)INT64_MAX)
        return INT64_MAX - 1;
    return (int64_t)v;
}

static int64_t clamp_hi(wide v)
{
    if (v >= (wide)INT64_MAX)
        return POS_INF;
    if (v <= (wide)INT64_MIN)
        return INT64_MIN + 1;
    return (int64_t)v;
}

static int finite(ns_iv a)
{
    return a.lo != NEG_INF && a.hi != POS_INF;
}

static const ns_iv everything = {NEG_INF, POS_INF};
static const ns_iv boolean = {0, 1};

static ns_iv iv_add(ns_iv a, ns_iv b)
{
    ns_iv r;
    r.lo = (a.lo == NEG_INF || b.lo == NEG_INF) ? NEG_INF : clamp_lo((wide)a.lo + b.lo);
    r.hi = (a.hi == POS_INF || b.hi == POS_INF) ? POS_INF : clamp_hi((wide)a.hi + b.hi);
    return r;
}

static ns_iv iv_neg(ns_iv a)
{
    ns_iv r;
    r.lo = a.hi == POS_INF ? NEG_INF : clamp_lo(-(wide)a.hi);
    r.hi = a.lo == NEG_INF ? POS_INF : clamp_hi(-(wide)a.lo);
    return r;
}

static ns_iv iv_mul(ns_iv a, ns_iv b)
{
    if ((a.lo == 0 && a.hi == 0) || (b.lo == 0 && b.hi == 0))
        return (ns_iv){0, 0};
    if (!finite(a) || !finite(b))
        return everything;
    wide c[4] = {(wide)a.lo * b.lo, (wide)a.lo * b.hi, (wide)a.hi * b.lo, (wide)a.hi * b.hi};
    wide lo = c[0], hi = c[0];
    for (int i = 1; i < 4; i++) {
        lo = c[i] < lo ? c[i] : lo;
        hi = c[i] > hi ? c[i] : hi;
    }
    return (ns_iv){clamp_lo(lo), clamp_hi(hi)};
}

static wide floor_div_w(wide a, wide b)
{
    wide q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static ns_iv iv_join(ns_iv a, ns_iv b, int have_a)
{
    if (!have_a)
        return b;
    return (ns_iv){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}

/* floor(a / b) over the non-zero values of b (zero divisors fail at run time) */
static ns_iv iv_div(ns_iv a, ns_iv b)
{
    if (!finite(a))
        return everything;
    ns_iv r = {0, 0};
    int have = 0;
    ns_iv parts[2];
    int np = 0;
    if (b.lo <= -1)
        parts[np++] = (ns_iv){b.lo, b.hi < -1 ? b.hi : -1};
    if (b.hi >= 1)
        parts[np++] = (ns_iv){b.lo > 1 ? b.lo : 1, b.hi};
    for (int i = 0; i < np; i++) {
        ns_iv q;
        if (!finite(parts[i])) {
            wide m = a.lo < 0 ? -(wide)a.lo : a.lo;
            wide m2 = a.hi < 0 ? -(wide)a.hi : a.hi;
            if (m2 > m)
                m = m2;
            q = (ns_iv){clamp_lo(-m), clamp_hi(m)};
        } else {
            wide c[4] = {floor_div_w(a.lo, parts[i].lo), floor_div_w(a.lo, parts[i].hi),
                         floor_div_w(a.hi, parts[i].lo), floor_div_w(a.hi, parts[i].hi)};
            wide lo = c[0], hi = c[0];
            for (int j = 1; j < 4; j++) {
                lo = c[j] < lo ? c[j] : lo;
                hi = c[j] > hi ? c[j] : hi;
            }
            q = (ns_iv){clamp_lo(lo), clamp_hi(hi)};
        }
        r = iv_join(r, q, have);
        have = 1;
    }
    return r;
}

static ns_iv iv_mod(ns_iv a, ns_iv b)
{
    ns_iv r = {0, 0};
    int have = 0;
    if (b.hi >= 1) {
        ns_iv q = {0, b.hi == POS_INF ? POS_INF : b.hi - 1};
        if (a.lo >= 0 && a.hi < q.hi)
            q.hi = a.hi;
        r = iv_join(r, q, have);
        have = 1;
    }
    if (b.lo <= -1) {
        ns_iv q = {b.lo == NEG_INF ? NEG_INF : b.lo + 1, 0};
        r = iv_join(r, q, have);
        have = 1;
    }
    return r;
}

static ns_iv iv_abs(ns_iv a)
{
    if (a.lo >= 0)
        return a;
    if (a.hi <= 0)
        return iv_neg(a);
    ns_iv n = iv_neg(a);
    return (ns_iv){0, n.hi > a.hi ? n.hi : a.hi};
}

ns_iv ns_ir_interval(const ns_ir *n, int id, const ns_iv *s, const ns_iv *size, const ns_iv *var)
{
    const ns_ir *x = &n[id];
    switch ((ns_ir_op)x->op) {
    case IR_CONST: return (ns_iv){x->v, x->v};
    case IR_PILE: return s[x->a];
    case IR_SIZE: return size[x->a];
    case IR_VAR: return var[x->a];
    case IR_NOT:
    case IR_LT:
    case IR_LE:
    case IR_GT:
    case IR_GE:
    case IR_EQ:
    case IR_NE:
    case IR_AND:
    case IR_OR:
        return boolean;
    default:
        break;
    }
    ns_iv a = ns_ir_interval(n, x->a, s, size, var);
    if (x->op == IR_NEG)
        return iv_neg(a);
    if (x->op == IR_ABS)
        return iv_abs(a);
    if (x->op == IR_POPCOUNT)
        return (ns_iv){0, 63};
    ns_iv b = ns_ir_interval(n, x->b, s, size, var);
    switch ((ns_ir_op)x->op) {
    case IR_ADD: return iv_add(a, b);
    case IR_SUB: return iv_add(a, iv_neg(b));
    case IR_MUL: return iv_mul(a, b);
    case IR_DIV: return iv_div(a, b);
    case IR_MOD: return iv_mod(a, b);
    case IR_MIN: return (ns_iv){a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
    case IR_MAX: return (ns_iv){a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
    case IR_BAND:
        /* x & y lies in [0, y] for y >= 0 (and in [0, x] for x >= 0) */
        if (a.lo >= 0 && b.lo >= 0)
            return (ns_iv){0, a.hi < b.hi ? a.hi : b.hi};
        if (a.lo >= 0)
            return (ns_iv){0, a.hi};
        if (b.lo >= 0)
            return (ns_iv){0, b.hi};
        return everything;
    case IR_BOR:
    case IR_BXOR:
        /* below the next power of two of the larger operand */
        if (a.lo >= 0 && b.lo >= 0 && a.hi != POS_INF && b.hi != POS_INF) {
            uint64_t m = (uint64_t)(a.hi > b.hi ? a.hi : b.hi), p2 = 1;
            while (p2 <= m && p2 < ((uint64_t)1 << 62))
                p2 <<= 1;
            if (p2 > m)
                return (ns_iv){x->op == IR_BOR ? (a.lo > b.lo ? a.lo : b.lo) : 0, (int64_t)(p2 - 1)};
            return (ns_iv){0, POS_INF};
        }
        return everything;
    case IR_SHR:
        /* a >> b with b >= 0 lies between min(a, 0) and max(a, 0) */
        if (b.lo >= 0)
            return (ns_iv){a.lo < 0 ? a.lo : 0, a.hi > 0 ? a.hi : 0};
        return everything;
    default: return everything;
    }
}
