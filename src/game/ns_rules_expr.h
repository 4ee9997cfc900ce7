/* ns_rules_expr.h - the rule-set language: the elaborator's shared state,
 * symbols and typed values, and the elaboration of expressions (internal to
 * ns_rules_expr.c and ns_rules_elab.c).
 *
 * Expressions are elaborated into the IR pool of the program being built:
 * names resolve through a stack of symbols (parameters, piles, pile groups,
 * forall and comprehension indices, bound variables), comprehensions are
 * expanded, constants are folded, and every error is reported with its
 * position through ns_elab_fail_at (the first error wins). Functions
 * returning int give 0 (or a node id / slot >= 0) on success and -1 on
 * error. */
#ifndef NS_RULES_EXPR_H
#define NS_RULES_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "game/ns_rules_elab.h"

typedef enum { SYM_PARAM, SYM_PILE, SYM_GROUP, SYM_INDEX, SYM_VAR, SYM_ARG } ns_sym_kind;

typedef struct ns_sym {
    ns_sym_kind kind;
    uint32_t name, nlen;    /* span in the text */
    uint32_t off;           /* where it was declared */
    int64_t value;          /* SYM_INDEX */
    int param;              /* SYM_PARAM: index in prog->params */
    int slot;               /* SYM_PILE, SYM_VAR; SYM_GROUP: slot of index glo */
    int64_t glo, ghi;       /* SYM_GROUP */
    int has_sub;            /* SYM_VAR declared as t[sub] */
    int64_t sub;
    int node, is_bool;      /* SYM_ARG: the IR node of the argument, a condition or a number */
} ns_sym;

#define NS_DEF_MAX_ARGS 16
#define NS_DEF_MAX_DEPTH 32      /* functions calling functions */

typedef enum { V_INT, V_BOOL, V_SET, V_GROUP } ns_vtype;

typedef struct ns_val {
    ns_vtype t;
    int node;               /* V_INT, V_BOOL */
    int range;              /* V_SET: 1 for lo..hi, 0 for a list */
    int lo, hi;
    int list, n;            /* V_SET list: n IR nodes at prog->lists[list] */
    int group;              /* V_GROUP: index of its symbol */
} ns_val;

typedef struct ns_elab {
    const ns_src *src;
    const ns_ast_prog *ast;
    ns_rules_prog *prog;
    ns_error *err;
    ns_err rc;
    ns_sym *syms;
    int nsyms, capsyms;
    int piles_ok, sizes_ok;
    const char *ctx;        /* what is being elaborated, for messages */
    /* the family being built */
    ns_rfam *fam;
    int *tmp;               /* scratch stack of IR ids / slots */
    int ntmp, captmp;
    int *dom;               /* domain conditions gathered so far */
    int ndom, capdom;
    /* the body of a user function ('def') being expanded: symbols below
     * def_floor other than parameters are hidden; def_active: the 'def'
     * statements being expanded (a recursion is an error) */
    int def_floor;
    int ndef_active;
    int def_active[NS_DEF_MAX_DEPTH];
    int dom_filter;         /* the domain pass: 0 plain statements, 1 'domain filter' */
    /* k_hint: a group whose size is a parameter left to the bounds */
    int retry_param;        /* index in prog->params or -1 */
    int64_t retry_value;
} ns_elab;

typedef int (*ns_item_fn)(ns_elab *e, int id, void *u);

/* errors and text */
int ns_elab_fail_at(ns_elab *e, uint32_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ns_elab_oom(ns_elab *e);
const ns_ast *ns_elab_node(const ns_elab *e, int id);
const char *ns_elab_text_of(const ns_elab *e, int id, char *buf, size_t len);
void ns_elab_where_of(const ns_elab *e, uint32_t off, char *buf, size_t len);
const char *ns_elab_type_name(ns_vtype t);

/* the scratch stack of node ids / slots */
int ns_elab_push_tmp(ns_elab *e, int v);
int ns_elab_flush_tmp(ns_elab *e, int base, int *n);  /* store tmp[base..] as a list, pop it */

/* symbols */
int ns_elab_declare(ns_elab *e, const ns_sym *s);      /* checks duplicates and built-ins */
const ns_sym *ns_elab_lookup(const ns_elab *e, uint32_t name, uint32_t nlen);

/* expressions */
int ns_elab_val(ns_elab *e, int id, ns_val *out);
int ns_elab_int(ns_elab *e, int id);                   /* node of a number */
int ns_elab_bool(ns_elab *e, int id);                  /* node of a condition */
int ns_elab_set(ns_elab *e, int id, ns_val *out);
int ns_elab_const(ns_elab *e, int id, const char *what, int64_t *out);
/* values of a constant set; *vals malloc'd (caller frees) */
int ns_elab_const_values(ns_elab *e, int id, const char *what, int64_t **vals, int *n, int maxn);
/* call fn on each plain item of tuples and comprehensions */
int ns_elab_expand(ns_elab *e, int id, ns_item_fn fn, void *u);
/* slot of a pile reference (x, p[i]); report != 0: say why when it is none */
int ns_elab_pile_slot(ns_elab *e, int id, int report);
/* push the conjuncts of condition node n on the scratch stack */
int ns_elab_split_and(ns_elab *e, int n);
/* check the 'def' statements: names, arguments (before anything else) */
int ns_elab_defs(ns_elab *e);
/* non-zero when expression id reads only numbers, parameters, forall and
 * comprehension indices and functions of them (a constant once the
 * indices are set) */
int ns_elab_index_only(ns_elab *e, int id);
/* 'rank lex(c_1, ...)': is id such a call; elaborate its components into
 * prog->rank_lex */
int ns_elab_is_lex(const ns_elab *e, int id);
int ns_elab_lex(ns_elab *e, int id);

#endif
