/* ns_rules_parse.h - the rule-set language: syntax tree and parser.
 *
 * The parser only checks the grammar (data/rules/README.md); names, types,
 * arity and values are checked by the elaborator (ns_rules_elab.h). Nodes
 * and statements refer to the source by byte offsets; identifiers are spans
 * of the text, so the tree owns no strings. */
#ifndef NS_RULES_PARSE_H
#define NS_RULES_PARSE_H

#include <stdint.h>

#include "core/ns_error.h"
#include "game/ns_rules_lex.h"

typedef enum {
    AST_NUM,    /* num */
    AST_NAME,   /* name */
    AST_INDEX,  /* name[a] */
    AST_CALL,   /* name(list...) */
    AST_NEG,    /* -a */
    AST_NOT,    /* not a */
    AST_ADD, AST_SUB, AST_MUL, AST_DIV, AST_MOD,
    AST_LT, AST_LE, AST_GT, AST_GE, AST_EQ, AST_NE,
    AST_AND, AST_OR,
    AST_IN,     /* a in b */
    AST_RANGE,  /* a..b */
    AST_SET,    /* {list...} */
    AST_TUPLE,  /* (list...) with at least two items */
    AST_COMP,   /* (a for name in b where c): a comprehension over index variable name */
    AST_BAND, AST_BOR, AST_BXOR, AST_SHL, AST_SHR, AST_POW  /* & | xor << >> ** */
} ns_ast_kind;

typedef struct ns_ast {
    ns_ast_kind kind;
    uint32_t off, end;      /* source span [off, end) */
    uint32_t name, nlen;    /* NAME, INDEX, CALL: identifier; COMP: index variable */
    int64_t num;
    int a, b;               /* children (node ids), -1 when absent */
    int list, nlist;        /* CALL args, SET elements, TUPLE items (ids in lists) */
    int depth;              /* longest path to a leaf (at most NS_AST_MAX_DEPTH) */
    int c;                  /* COMP: the 'where' filter, or -1 */
} ns_ast;

#define NS_AST_MAX_DEPTH 500

typedef enum {
    ST_GAME, ST_PARAM, ST_PILES, ST_RANK, ST_PLAY, ST_DOMAIN, ST_REQUIRE, ST_MOVE,
    ST_DEF, ST_SYMMETRIC, ST_HEAP, ST_OUTSIDE
} ns_stmt_kind;

typedef struct ns_stmt {
    ns_stmt_kind kind;
    uint32_t off, end;      /* from the keyword to the end of the statement */
    uint32_t name, nlen;    /* GAME: title (without quotes); PARAM, DEF: name */
    int misere;             /* PLAY */
    int filter;             /* DOMAIN: 'domain filter ...' (options outside are dropped) */
    int a, b;               /* PARAM: a value; RANK: a; DOMAIN, REQUIRE: a condition;
                               MOVE: a left of '->', b right of it; DEF: a the body */
    int piles, npiles;      /* PILES, SYMMETRIC, HEAP: NAME or INDEX nodes (subscript a range) */
    int binds, nbinds;      /* MOVE: 'for' items (IN or COMP nodes) */
    int wheres, nwheres;    /* MOVE: 'where' conditions; DOMAIN: the filter of its 'forall' */
    int foralls, nforalls;  /* MOVE, DOMAIN: 'forall' items (IN nodes) */
    int args, nargs;        /* DEF: the argument names (NAME nodes) */
} ns_stmt;

typedef struct ns_ast_prog {
    ns_ast *nodes;          /* owned */
    int nnodes, capnodes;
    int *lists;             /* owned: node ids referenced by (list, n) pairs */
    int nlists, caplists;
    ns_stmt *stmts;         /* owned */
    int nstmts, capstmts;
} ns_ast_prog;

/* Parse src into *out (zeroed first). On error *out is freed and err gets
 * "FILE:LINE:COL: found X, expected Y". Free with ns_ast_prog_free. */
ns_err ns_rules_parse(const ns_src *src, ns_ast_prog *out, ns_error *err);
void ns_ast_prog_free(ns_ast_prog *p);

#endif
