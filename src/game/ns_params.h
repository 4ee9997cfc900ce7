/* ns_params.h - named parameters of a game (`-D name=value`).
 *
 * A value is one integer or a comma-separated list of integers (for the
 * subtraction set, say), or a code: a text that contains a '.' and no ';'
 * (an octal code such as 0.77; n = 0 and the text in text). The set is a
 * plain value type: no allocation. */
#ifndef NS_PARAMS_H
#define NS_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"

#define NS_PARAM_NAME_LEN 32
#define NS_PARAM_MAX_VALUES 64
#define NS_PARAMS_MAX 16
#define NS_PARAM_TEXT_LEN 80

typedef struct ns_param {
    char name[NS_PARAM_NAME_LEN];
    int n;                            /* number of values, >= 1; 0: a code */
    int64_t v[NS_PARAM_MAX_VALUES];
    char text[NS_PARAM_TEXT_LEN];     /* the code when n == 0, else "" */
} ns_param;

typedef struct ns_params {
    int n;
    ns_param p[NS_PARAMS_MAX];
} ns_params;

/* Parse "name=v", "name=v1,v2,..." or "name=CODE" (a value with a '.':
 * kept as text) and add or replace it in *ps. */
ns_err ns_params_parse(ns_params *ps, const char *assign, ns_error *err);

/* Add or replace one parameter. */
ns_err ns_params_set(ns_params *ps, const char *name, const int64_t *v, int n,
                     ns_error *err);

/* Add or replace a code (text with a '.' and no ';', shorter than
 * NS_PARAM_TEXT_LEN). */
ns_err ns_params_set_text(ns_params *ps, const char *name, const char *text, ns_error *err);

/* The parameter called name, or NULL. The pointer is into *ps. */
const ns_param *ns_params_get(const ns_params *ps, const char *name);

/* Single integer value of name, or def when absent. Fails when the
 * parameter is a list or lies outside [lo, hi]. */
ns_err ns_params_int(const ns_params *ps, const char *name, int64_t def,
                     int64_t lo, int64_t hi, int64_t *out, ns_error *err);

/* Canonical text "a=2;set=1,3,4;code=0.77" (names in insertion order). */
void ns_params_format(const ns_params *ps, char *buf, size_t len);

/* Inverse of ns_params_format ("" gives an empty set). */
ns_err ns_params_parse_list(ns_params *ps, const char *text, ns_error *err);

/* The edit distance (insertions, deletions, substitutions) between two
 * names, for "did you mean"; names longer than 63 characters count as far
 * from everything (64). */
int ns_name_distance(const char *a, const char *b);

/* Parse a decimal int64 with full overflow checking; the whole string must
 * be consumed. Returns 0 on success. */
int ns_parse_i64(const char *s, int64_t *out);

#endif
