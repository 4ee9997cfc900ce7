/* ns_rules_elab.h - the rule-set language: names, types and values.
 *
 * The elaborator turns a syntax tree into a program of resolved
 * expressions (ns_rules_ir.h): parameters take their values (-D overrides
 * first), piles get slots, `forall` clauses and comprehensions are expanded
 * (their indices are constants), and every move statement becomes one or
 * more concrete families: bound variables with their ranges, conditions,
 * and the new values of the piles that change. All checks of names, types,
 * arity, constant ranges and pile counts happen here, with positions. */
#ifndef NS_RULES_ELAB_H
#define NS_RULES_ELAB_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_params.h"
#include "game/ns_rules_ir.h"
#include "game/ns_rules_lex.h"
#include "game/ns_rules_parse.h"

#define NS_RULES_MAX_VARS 32      /* bound variables per family */
#define NS_RULES_MAX_FAMILIES 1024
#define NS_RULES_MAX_EXPAND 4096  /* values of one forall or comprehension index */

typedef enum { RV_RANGE = 0, RV_LIST = 1 } ns_rvar_kind;

/* A bound variable of a family: v in lo..hi, or v in {list...}. */
typedef struct ns_rvar {
    ns_rvar_kind kind;
    int lo, hi;             /* RV_RANGE: IR nodes */
    int list, n;            /* RV_LIST: n IR nodes at lists[list] */
    uint32_t off;           /* the binding in the source */
    char name[24];          /* "t" or "t[2]" */
} ns_rvar;

/* A concrete move family (one forall assignment of one move statement). */
typedef struct ns_rfam {
    uint32_t off, end;      /* the move statement */
    char idx[48];           /* forall assignment, e.g. "i=2", or "" */
    int nvars;
    ns_rvar var[NS_RULES_MAX_VARS];
    int conj, nconj;        /* the 'where' conditions split at 'and': IR nodes at lists[conj] */
    int nout;               /* piles that change: out_slot[j] gets out_expr[j] */
    int out_slot[NS_MAX_DIM];
    int out_expr[NS_MAX_DIM];
} ns_rfam;

/* A parameter as declared, with the value used. */
typedef struct ns_rparam {
    char name[NS_PARAM_NAME_LEN];
    uint32_t off;
    int is_set;             /* declared with a set value */
    int overridden;         /* given with -D (or derived from the bounds given) */
} ns_rparam;

typedef struct ns_rules_prog {
    ns_ir_pool ir;          /* owned */
    int *lists;             /* owned: IR node ids */
    int nlists, caplists;
    char title[NS_NAME_LEN];/* the 'game' statement, or "" */
    ns_params params;       /* values used, in declaration order */
    ns_rparam pinfo[NS_PARAMS_MAX];
    int k;
    char pile_names[NS_MAX_DIM][32];
    int rank;               /* IR node of the rank expression, or -1 (sum of piles) */
    uint32_t rank_off, rank_end;
    int misere;
    int outside_forbid;     /* 'outside forbid': options outside the box are not moves */
    int domain, ndomain;    /* conditions (after forall expansion): IR nodes at lists[domain] */
    int nstrict;            /* the first nstrict come from plain 'domain' statements (an option
                               outside them is an error), the rest from 'domain filter' (an
                               option outside them is not a move) */
    int nsym;               /* 'symmetric': the piles that may be permuted (0: none), */
    int sym[NS_MAX_DIM];    /* their slots, increasing */
    uint32_t sym_off;       /* the statement */
    uint32_t domain_off;    /* first domain statement */
    int nfam, capfam;
    ns_rfam *fam;           /* owned */
    int ndropped;           /* families whose conditions are constantly false */
    int rank_lex, nrank_lex;/* 'rank lex(c_1, ..., c_m)': the components, IR nodes at
                               lists[rank_lex] (nrank_lex = m; 0 otherwise) */
    int heap;               /* 'heap n': a take-and-break game of one heap (k = 1);
                               a family's out_expr[0 .. nout) are the heaps a move
                               leaves (out_slot unused), see ns_rules_heap.c */
    uint32_t heap_off;      /* the 'heap' statement */
} ns_rules_prog;

/* Elaborate ast (parsed from src) with parameter overrides ps and k_hint as
 * in ns_rules_compile. On success *out (zeroed first) holds the program;
 * free it with ns_rules_prog_free. */
ns_err ns_rules_elaborate(const ns_src *src, const ns_ast_prog *ast, const ns_params *ps, int k_hint,
                          ns_rules_prog *out, ns_error *err);
void ns_rules_prog_free(ns_rules_prog *p);

/* Append n node ids to p->lists; returns the start or -1 (no memory). */
int ns_rules_prog_list(ns_rules_prog *p, const int *ids, int n);

#endif
