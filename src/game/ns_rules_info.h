/* ns_rules_info.h - how a rule file was understood, for `nimsieve rules`,
 * and reading rule files.
 *
 * ns_rules_compile_info compiles like ns_rules_compile and also reports,
 * for every move family of the file (after 'forall' expansion), its class
 * and, when it is general, why it is neither a ray nor a finite set. */
#ifndef NS_RULES_INFO_H
#define NS_RULES_INFO_H

#include "core/ns_error.h"
#include "game/ns_game.h"
#include "game/ns_params.h"
#include "game/ns_rules_elab.h"

typedef struct ns_rules_fam_info {
    int line, col;          /* the move statement */
    char idx[48];           /* forall assignment ("i=2") or "" */
    char text[200];         /* the statement on one line (shortened) */
    ns_fam_kind kind;
    int first, count;       /* the game's families g->fam[first .. first+count) */
    int parts;              /* heap games: the most heaps one of its moves leaves */
    char why[160];          /* NS_FAM_GENERAL: the reason; NS_FAM_RAY: the
                               substitution that made the rays, or "" */
} ns_rules_fam_info;

typedef struct ns_rules_info {
    char title[NS_NAME_LEN];        /* 'game' statement or "" */
    int nparams;
    ns_rparam param[NS_PARAMS_MAX]; /* as declared; values in g->params */
    char rank[200];                 /* the rank expression, or "" (sum of piles) */
    char order[400];                /* no rank statement and the sum failed: the
                                       order found and why (else "") */
    char domain[400];               /* the domain statements, or "" */
    int has_filter;                 /* some are 'domain filter' */
    char symmetric[NS_MAX_DIM * 34];/* the piles of 'symmetric', or "" */
    int ndropped;                   /* families never applicable (constant false) */
    int heap;                       /* a heap game ('heap n', ns_rules_heap.h): its families
                                       have no entries in g->fam (count 0) and parts set */
    int nfam;
    ns_rules_fam_info *fam;         /* owned */
} ns_rules_info;

/* As ns_rules_compile; on success *info (owned by the caller, free with
 * ns_rules_info_free) describes the compilation. */
ns_err ns_rules_compile_info(const char *text, const char *fname, const ns_params *ps, int k_hint,
                             ns_game **out, ns_rules_info **info, ns_error *err);
void ns_rules_info_free(ns_rules_info *info);

/* Read a rule file: *text is malloc'd and NUL-terminated (caller frees).
 * Fails on files that cannot be read, are over 1 MiB or hold NUL bytes. */
ns_err ns_rules_read_file(const char *path, char **text, ns_error *err);

#endif
