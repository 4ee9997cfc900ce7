/* ns_rules_ir.h - the rule-set language: resolved expressions and their
 * evaluation.
 *
 * After elaboration every name is resolved: an expression is a node of a
 * pool whose leaves are constants, piles s_i, box sizes N_i and bound
 * variables v_j (slots). Booleans are the integers 0 and 1. Arithmetic is
 * on int64 with every overflow detected; '/' is floor division and 'mod'
 * the matching remainder (its sign is the divisor's), so x mod 3 is in
 * {0, 1, 2} for every x. '&', '|', 'xor' act on two's complement; 'a << b'
 * is a * 2^b (an overflow is an error), 'a >> b' is floor(a / 2^b); a
 * negative shift, a negative exponent of '**' and popcount of a negative
 * number are errors. Evaluation needs no allocation and no globals, so
 * many threads may evaluate the same pool at once. */
#ifndef NS_RULES_IR_H
#define NS_RULES_IR_H

#include <stdint.h>

typedef enum {
    IR_CONST,   /* v */
    IR_PILE,    /* s[a] */
    IR_SIZE,    /* N[a] */
    IR_VAR,     /* var[a] */
    IR_NEG, IR_ABS, IR_NOT,
    IR_ADD, IR_SUB, IR_MUL, IR_DIV, IR_MOD, IR_MIN, IR_MAX,
    IR_LT, IR_LE, IR_GT, IR_GE, IR_EQ, IR_NE,
    IR_AND, IR_OR,  /* short-circuit */
    IR_BAND, IR_BOR, IR_BXOR, IR_SHL, IR_SHR, IR_POW,
    IR_POPCOUNT     /* unary */
} ns_ir_op;

#define NS_IR_MAX_DEPTH 2000
#define NS_IR_MAX_TREE (1u << 22)

typedef struct ns_ir {
    uint8_t op;
    uint16_t depth;     /* longest path to a leaf, <= NS_IR_MAX_DEPTH */
    int32_t a, b;       /* children or slot */
    uint32_t tsize;     /* nodes of the expression as a tree (shared children
                           count each time), <= NS_IR_MAX_TREE: bounds the
                           cost of one evaluation */
    int64_t v;          /* IR_CONST */
    uint32_t off;       /* source offset, for run-time errors */
} ns_ir;

typedef struct ns_ir_pool {
    ns_ir *n;           /* owned */
    int nn, cap;
    int limit;          /* most nodes allowed */
} ns_ir_pool;

/* A failed evaluation: what and where. */
enum { NS_IR_OK = 0, NS_IR_DIVZERO = 1, NS_IR_OVERFLOW = 2, NS_IR_NOMEM = 3, NS_IR_TOOBIG = 4,
       NS_IR_NEGSHIFT = 5, NS_IR_NEGPOW = 6, NS_IR_NEGPOP = 7 };

/* What a fault code means, for messages: "division by zero", ... */
const char *ns_ir_fault_text(int code);
typedef struct ns_ir_fault {
    int code;
    uint32_t off;
} ns_ir_fault;

/* Values of the leaves. */
typedef struct ns_ir_env {
    const int64_t *s;
    const int64_t *size;
    const int64_t *var;
} ns_ir_env;

/* Add a node, folding it when all its children are constants (and the
 * short-circuit cases and(false, x), and(true, x), or(...)). Returns its id,
 * or -1 with *f set (a constant division by zero, an overflow, no memory,
 * the pool limit, NS_IR_MAX_DEPTH or NS_IR_MAX_TREE: NS_IR_TOOBIG). */
int ns_ir_add(ns_ir_pool *p, ns_ir_op op, int a, int b, int64_t v, uint32_t off, ns_ir_fault *f);
void ns_ir_pool_free(ns_ir_pool *p);

static inline int ns_ir_is_const(const ns_ir_pool *p, int id)
{
    return p->n[id].op == IR_CONST;
}

/* Evaluate node id. Returns NS_IR_OK and *out, or a fault code with *f. */
int ns_ir_eval(const ns_ir *n, int id, const ns_ir_env *env, int64_t *out, ns_ir_fault *f);

/* Checked floor division and remainder (0 or a fault code). */
int ns_ir_div(int64_t a, int64_t b, int64_t *q);
int ns_ir_mod(int64_t a, int64_t b, int64_t *r);
/* Checked shifts, power and popcount (0 or a fault code). */
int ns_ir_shl(int64_t a, int64_t b, int64_t *r);
int ns_ir_shr(int64_t a, int64_t b, int64_t *r);
int ns_ir_pow(int64_t a, int64_t b, int64_t *r);
int ns_ir_popcount(int64_t a, int64_t *r);

/* Bytecode: an expression flattened for fast repeated evaluation (the
 * general families evaluate their expressions once per binding). A stack
 * machine; binary operators may take their right operand directly from a
 * constant, pile, size or variable; 'and'/'or' jump over their right side. */
typedef struct ns_ir_ins {
    uint8_t op;         /* ns_ir_op * 8 + the source of the right operand
                           (NS_IR_R*; for IR_CONST: of the pushed value),
                           or one of the NS_IR_I* below */
    int32_t a;          /* slot, or jump target */
    int64_t v;          /* constant */
    uint32_t off;       /* source offset, for faults */
} ns_ir_ins;

enum { NS_IR_IEND = 240, NS_IR_IANDJ, NS_IR_IORJ, NS_IR_IBOOL };
#define NS_IR_RUN_STACK 32  /* deeper expressions are not compiled */
enum { NS_IR_RSTACK = 0, NS_IR_RCONST, NS_IR_RPILE, NS_IR_RSIZE, NS_IR_RVAR };

typedef struct ns_ir_code {
    ns_ir_ins *ins;     /* owned */
    int n, cap;
    int limit;          /* most instructions in all */
} ns_ir_code;

/* Append the code of node id (ending with NS_IR_IEND) to c; returns its
 * start, or -1 when the code would pass c->limit, need a stack deeper than
 * NS_IR_RUN_STACK, or memory is short (the caller then evaluates the tree
 * with ns_ir_eval). */
int ns_ir_compile(const ns_ir *n, int id, ns_ir_code *c);
void ns_ir_code_free(ns_ir_code *c);

/* Run the code at start: same results and faults as ns_ir_eval. */
int ns_ir_run(const ns_ir_ins *code, int start, const ns_ir_env *env, int64_t *out, ns_ir_fault *f);

/* What a node depends on: bound variables (bit j for slot j < 64, bit 63
 * also for all slots >= 63), piles, sizes. */
typedef struct ns_ir_deps {
    uint64_t vars;
    int piles, sizes;
} ns_ir_deps;
void ns_ir_deps_of(const ns_ir *n, int id, ns_ir_deps *d);

/* Intervals: lo == INT64_MIN is minus infinity, hi == INT64_MAX plus
 * infinity. */
typedef struct ns_iv {
    int64_t lo, hi;
} ns_iv;

/* An interval that holds the value of node id for every assignment of the
 * leaves within the given intervals (for which evaluation succeeds). */
ns_iv ns_ir_interval(const ns_ir *n, int id, const ns_iv *s, const ns_iv *size, const ns_iv *var);

#endif
