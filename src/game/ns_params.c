/* ns_params.c - see ns_params.h */
#include "game/ns_params.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ns_parse_i64(const char *s, int64_t *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    errno = 0;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE || end == s || *end != '\0')
        return -1;
    *out = (int64_t)v;
    return 0;
}

static int valid_name(const char *s, size_t n)
{
    if (n == 0 || n >= NS_PARAM_NAME_LEN)
        return 0;
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

ns_err ns_params_set(ns_params *ps, const char *name, const int64_t *v, int n,
                     ns_error *err)
{
    if (!valid_name(name, strlen(name)))
        return ns_error_set(err, NS_EINVAL, "bad parameter name '%s': expected a letter followed by letters, digits or '_'", name);
    if (n < 1 || n > NS_PARAM_MAX_VALUES)
        return ns_error_set(err, NS_EINVAL, "parameter '%s': expected 1 to %d values, got %d", name, NS_PARAM_MAX_VALUES, n);
    ns_param *p = NULL;
    for (int i = 0; i < ps->n; i++)
        if (strcmp(ps->p[i].name, name) == 0)
            p = &ps->p[i];
    if (!p) {
        if (ps->n >= NS_PARAMS_MAX)
            return ns_error_set(err, NS_EINVAL, "too many parameters (at most %d)", NS_PARAMS_MAX);
        p = &ps->p[ps->n++];
        snprintf(p->name, sizeof p->name, "%s", name);
    }
    p->n = n;
    memcpy(p->v, v, (size_t)n * sizeof *v);
    p->text[0] = '\0';
    return NS_OK;
}

ns_err ns_params_set_text(ns_params *ps, const char *name, const char *text, ns_error *err)
{
    if (!strchr(text, '.') || strchr(text, ';'))
        return ns_error_set(err, NS_EINVAL, "parameter '%s' = '%s': a code needs a '.' and no ';'", name, text);
    if (strlen(text) >= NS_PARAM_TEXT_LEN)
        return ns_error_set(err, NS_EINVAL, "parameter '%s': the code is longer than %d characters", name,
                            NS_PARAM_TEXT_LEN - 1);
    int64_t zero = 0;
    ns_err rc = ns_params_set(ps, name, &zero, 1, err);
    if (rc)
        return rc;
    ns_param *p = (ns_param *)ns_params_get(ps, name);
    p->n = 0;
    p->v[0] = 0;
    snprintf(p->text, sizeof p->text, "%s", text);
    return NS_OK;
}

ns_err ns_params_parse(ns_params *ps, const char *assign, ns_error *err)
{
    const char *eq = strchr(assign, '=');
    if (!eq)
        return ns_error_set(err, NS_EINVAL, "bad parameter '%s': expected name=value", assign);
    size_t nlen = (size_t)(eq - assign);
    char name[NS_PARAM_NAME_LEN];
    if (!valid_name(assign, nlen))
        return ns_error_set(err, NS_EINVAL, "bad parameter '%s': expected name=value with a name of letters, digits or '_'", assign);
    memcpy(name, assign, nlen);
    name[nlen] = '\0';
    int64_t v[NS_PARAM_MAX_VALUES];
    int n = 0;
    const char *s = eq + 1;
    if (!*s)
        return ns_error_set(err, NS_EINVAL, "bad value for parameter '%s': empty (expected an integer, a list like 1,3,4 "
                            "or a code like 0.77)", name);
    if (strchr(s, '.'))
        return ns_params_set_text(ps, name, s, err);
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        char tok[32];
        if (len == 0 || len >= sizeof tok)
            return ns_error_set(err, NS_EINVAL, "bad value for parameter '%s': expected an integer or a list like 1,3,4", name);
        memcpy(tok, s, len);
        tok[len] = '\0';
        if (n >= NS_PARAM_MAX_VALUES)
            return ns_error_set(err, NS_EINVAL, "parameter '%s': more than %d values", name, NS_PARAM_MAX_VALUES);
        if (ns_parse_i64(tok, &v[n]) != 0)
            return ns_error_set(err, NS_EINVAL, "bad value '%s' for parameter '%s': expected a 64-bit integer", tok, name);
        n++;
        if (!comma)
            break;
        s = comma + 1;
    }
    return ns_params_set(ps, name, v, n, err);
}

const ns_param *ns_params_get(const ns_params *ps, const char *name)
{
    for (int i = 0; i < ps->n; i++)
        if (strcmp(ps->p[i].name, name) == 0)
            return &ps->p[i];
    return NULL;
}

ns_err ns_params_int(const ns_params *ps, const char *name, int64_t def,
                     int64_t lo, int64_t hi, int64_t *out, ns_error *err)
{
    const ns_param *p = ns_params_get(ps, name);
    if (!p) {
        *out = def;
        return NS_OK;
    }
    if (p->n == 0)
        return ns_error_set(err, NS_EINVAL, "parameter '%s' = '%s': expected one integer", name, p->text);
    if (p->n != 1)
        return ns_error_set(err, NS_EINVAL, "parameter '%s': expected one integer, got a list of %d", name, p->n);
    if (p->v[0] < lo || p->v[0] > hi)
        return ns_error_set(err, NS_EINVAL, "parameter '%s' = %" PRId64 ": expected a value in [%" PRId64 ", %" PRId64 "]", name, p->v[0], lo, hi);
    *out = p->v[0];
    return NS_OK;
}

void ns_params_format(const ns_params *ps, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < ps->n && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s=", i ? ";" : "", ps->p[i].name);
        if (w < 0)
            return;
        used += (size_t)w;
        if (ps->p[i].n == 0 && used < len) {
            w = snprintf(buf + used, len - used, "%s", ps->p[i].text);
            if (w < 0)
                return;
            used += (size_t)w;
        }
        for (int j = 0; j < ps->p[i].n && used < len; j++) {
            w = snprintf(buf + used, len - used, "%s%" PRId64, j ? "," : "", ps->p[i].v[j]);
            if (w < 0)
                return;
            used += (size_t)w;
        }
    }
}

ns_err ns_params_parse_list(ns_params *ps, const char *text, ns_error *err)
{
    char buf[4096];
    if (strlen(text) >= sizeof buf)
        return ns_error_set(err, NS_EINVAL, "parameter list too long");
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        ns_err rc = ns_params_parse(ps, tok, err);
        if (rc)
            return rc;
    }
    return NS_OK;
}

int ns_name_distance(const char *a, const char *b)
{
    enum { MAXN = 64 };
    const size_t n = strlen(a), m = strlen(b);
    if (n >= MAXN || m >= MAXN)
        return MAXN;
    int row[MAXN], prev[MAXN];
    for (size_t j = 0; j <= m; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int v = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < v)
                v = prev[j] + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
        }
        memcpy(prev, row, (m + 1) * sizeof *row);
    }
    return prev[m];
}
