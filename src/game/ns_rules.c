/* ns_rules.c - compile a rule text into an ns_game (ns_rules.h).
 *
 * parse (ns_rules_parse) -> elaborate (ns_rules_elab) -> classify each
 * family (ns_rules_classify) -> rays and finite sets go to the engine as
 * such, the rest as general families served by ns_rules_run. */
#include "game/ns_rules.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ns_rules_classify.h"
#include "game/ns_rules_info.h"
#include "game/ns_rules_lex.h"
#include "game/ns_rules_parse.h"
#include "game/ns_rules_run.h"

#define MAX_FILE ((size_t)1 << 20)

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void ns_rules_info_free(ns_rules_info *info)
{
    if (!info)
        return;
    free(info->fam);
    free(info);
}

/* "x + y", or the rank statement */
static void rank_text(const ns_src *src, const ns_rules_prog *p, char *buf, size_t len)
{
    if (p->rank >= 0) {
        ns_src_excerpt(src, p->rank_off, p->rank_end, buf, len);
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->k && used < len; i++) {
        int r = snprintf(buf + used, len - used, "%s%s", i ? " + " : "", p->pile_names[i]);
        if (r < 0)
            break;
        used += (size_t)r;
    }
}

static int64_t dot(int k, const int64_t *a, const int64_t *b)
{
    int64_t r = 0;
    for (int i = 0; i < k; i++)
        r += a[i] * b[i];
    return r;
}

/* Rays and offsets must decrease the rank: checked here, with the move's
 * position (ns_game_set_bounds checks again without it). */
static ns_err check_rank(const ns_src *src, const ns_game *g, const ns_rfam *f, const char *rank, const int64_t *v,
                         const char *what, ns_error *err)
{
    /* weights and vectors are small: the dot product fits */
    int64_t d = dot(g->k, g->rank_w, v);
    if (d < 0)
        return NS_OK;
    char pos[160];
    ns_format_pos(g->k, v, pos, sizeof pos);
    return ns_src_error(err, NS_EGAME, src, f->off,
                        "the move does not strictly decrease the rank %s: %s %s changes it by %+" PRId64 " (a cycle is possible)%s%s%s", rank,
                        what, pos, d, f->idx[0] ? " (" : "", f->idx, f->idx[0] ? ")" : "");
}

static int vec_small(int k, const int64_t *v)
{
    for (int i = 0; i < k; i++)
        if (v[i] > ((int64_t)1 << 40) || v[i] < -((int64_t)1 << 40))
            return 0;
    return 1;
}

static ns_err compile(const char *text, const char *fname, const ns_params *ps, int k_hint, ns_game **out,
                      ns_rules_info **infop, ns_error *err)
{
    ns_ast_prog ast;
    ns_rules_prog prog;
    ns_game *g = NULL;
    ns_rules_info *info = NULL;
    ns_lin *dom = NULL;
    ns_rclass cl;
    ns_err rc;
    memset(&cl, 0, sizeof cl);
    *out = NULL;
    if (infop)
        *infop = NULL;
    if (!fname)
        fname = "(rules)";
    if (!text)
        return ns_error_set(err, NS_EINVAL, "%s: no rule text", fname);
    ns_src src = {text, strlen(text), fname};
    if ((rc = ns_rules_parse(&src, &ast, err)))
        return rc;
    rc = ns_rules_elaborate(&src, &ast, ps, k_hint, &prog, err);
    if (rc) {
        ns_ast_prog_free(&ast);
        return rc;
    }
    g = ns_game_new("rules", prog.k);
    char *copy = dup_str(text);
    info = infop ? calloc(1, sizeof *info) : NULL;
    if (!g || !copy || (infop && !info)) {
        free(copy);
        ns_rules_prog_free(&prog);
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    g->rules_text = copy;
    g->params = prog.params;
    g->play = prog.misere ? NS_PLAY_MISERE : NS_PLAY_NORMAL;
    for (int i = 0; i < prog.k; i++)
        snprintf(g->coord_names[i], sizeof g->coord_names[i], "%.15s", prog.pile_names[i]);
    if (info) {
        snprintf(info->title, sizeof info->title, "%s", prog.title);
        info->nparams = prog.params.n;
        memcpy(info->param, prog.pinfo, sizeof info->param);
        info->ndropped = prog.ndropped;
        size_t used = 0;
        for (int i = 0; i < ast.nstmts && used < sizeof info->domain; i++) {
            const ns_stmt *st = &ast.stmts[i];
            if (st->kind != ST_DOMAIN)
                continue;
            char buf[200];
            ns_src_excerpt(&src, st->off + 6, st->end, buf, sizeof buf);
            int r = snprintf(info->domain + used, sizeof info->domain - used, "%s%s", used ? "; " : "", buf);
            if (r < 0)
                break;
            used += (size_t)r;
        }
    }
    ns_rules_rt *rt = ns_rules_rt_new(&prog, fname);
    if (!rt) {
        ns_rules_prog_free(&prog);
        rc = ns_error_set(err, NS_ENOMEM, "out of memory");
        goto fail;
    }
    if ((rc = ns_game_own(g, rt, ns_rules_rt_free, err)))
        goto fail;
    ns_rules_rt_attach(rt, g);
    ns_rules_prog *p = ns_rules_rt_prog(rt);
    const int k = p->k;
    src.text = g->rules_text;
    /* rank: a fixed non-negative weighting of the piles */
    if (p->rank >= 0) {
        ns_lin l;
        int ok = ns_lin_of(p->ir.n, p->rank, k, NULL, 0, -1, &l) == 0;
        for (int i = 0; ok && i < k; i++)
            ok = l.p[i] >= 0 && l.p[i] <= 65536 && l.n[i] == 0;
        if (!ok) {
            char buf[96];
            ns_src_excerpt(&src, p->rank_off, p->rank_end, buf, sizeof buf);
            rc = ns_src_error(err, NS_EINVAL, &src, p->rank_off,
                              "the rank must be a sum of piles with constant weights in 0..65536 (as in 'rank 2*x + y'), found '%s'", buf);
            goto fail;
        }
        memcpy(g->rank_w, l.p, (size_t)k * sizeof *l.p);
    }
    char rank[200];
    rank_text(&src, p, rank, sizeof rank);
    if (info)
        snprintf(info->rank, sizeof info->rank, "%s", p->rank >= 0 ? rank : "");
    /* domain: linear atoms for the proofs */
    int dom_linear = 1, ndom = 0;
    if (p->ndomain) {
        g->valid = ns_rules_rt_valid;
        g->valid_ctx = rt;
        dom = malloc(256 * sizeof *dom);
        if (!dom) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
        for (int i = 0; i < p->ndomain && dom_linear; i++) {
            int never = 0;
            if (ns_lin_atoms(p->ir.n, p->lists[p->domain + i], k, NULL, 0, -1, dom, &ndom, 256, &never))
                dom_linear = 0;
        }
    }
    if (info) {
        info->fam = calloc((size_t)(p->nfam ? p->nfam : 1), sizeof *info->fam);
        if (!info->fam) {
            rc = ns_error_set(err, NS_ENOMEM, "out of memory");
            goto fail;
        }
        info->nfam = p->nfam;
    }
    for (int fi = 0; fi < p->nfam; fi++) {
        const ns_rfam *f = &p->fam[fi];
        char label[NS_NAME_LEN], stmt[200];
        int line, col;
        ns_src_linecol(&src, f->off, &line, &col);
        ns_src_excerpt(&src, f->off + 4, f->end, stmt, sizeof stmt);
        char full[300];
        if (f->idx[0])
            snprintf(full, sizeof full, "line %d [%s]: %s", line, f->idx, stmt);
        else
            snprintf(full, sizeof full, "line %d: %s", line, stmt);
        size_t fl = strlen(full);
        if (fl < sizeof label) {
            memcpy(label, full, fl + 1);
        } else {
            memcpy(label, full, sizeof label - 4);
            memcpy(label + sizeof label - 4, "...", 4);
        }
        int first = g->nfam;
        if ((rc = ns_rules_classify(p, f, k, p->ndomain > 0, dom_linear, dom, ndom, &cl, err)))
            goto fail;
        f = &p->fam[fi];
        if (cl.kind == NS_FAM_RAY) {
            /* The options s + e + t*d change the rank by w.e + t*w.d: the
             * first (smallest t) must lower it; with w.d < 0 so do all the
             * others, the sieve's condition for a ray. With w.d >= 0 every
             * option may still lower it (w.d == 0: all by w.e; w.d > 0:
             * up to a t the box limits), so the family runs as a general
             * one, which checks each option as it is made. */
            int flat = -1;
            for (int r = 0; r < cl.nrays; r++) {
                const int64_t *d = cl.dir + (size_t)r * (size_t)k, *e = cl.base + (size_t)r * (size_t)k;
                if (!vec_small(k, d) || !vec_small(k, e)) {
                    rc = ns_src_error(err, NS_ERANGE, &src, f->off, "the move's step is too large (over 2^40)");
                    goto fail;
                }
                if ((rc = check_rank(&src, g, f, rank, e, "its first step", err)))
                    goto fail;
                if (flat < 0 && dot(k, g->rank_w, d) >= 0)
                    flat = r;
            }
            if (flat >= 0) {
                const int64_t *d = cl.dir + (size_t)flat * (size_t)k, *e = cl.base + (size_t)flat * (size_t)k;
                int64_t wd = dot(k, g->rank_w, d), we = dot(k, g->rank_w, e);
                char dv[160];
                ns_format_pos(k, d, dv, sizeof dv);
                char msg[400];
                if (wd == 0)
                    snprintf(msg, sizeof msg, "every option changes the rank by %+" PRId64 ", but a ray must lower it at each step of its direction %s (+0)",
                             we, dv);
                else
                    snprintf(msg, sizeof msg, "the rank changes by %+" PRId64 " at the first option and %+" PRId64 " per step of the direction %s: each option is checked to lower it",
                             we, wd, dv);
                ns_rclass_free(&cl);
                cl.kind = NS_FAM_GENERAL;
                snprintf(cl.why, sizeof cl.why, "%.159s", msg);
                if ((rc = ns_rules_rt_add_general(rt, g, fi, label, err)))
                    goto fail;
            } else {
                for (int r = 0; r < cl.nrays; r++)
                    if ((rc = ns_game_add_ray(g, label, cl.dir + (size_t)r * (size_t)k, cl.base + (size_t)r * (size_t)k, err)))
                        goto fail;
            }
        } else if (cl.kind == NS_FAM_FINITE) {
            for (size_t j = 0; j < cl.noff; j++) {
                const int64_t *o = cl.off + j * (size_t)k;
                if (!vec_small(k, o)) {
                    rc = ns_src_error(err, NS_ERANGE, &src, f->off, "the move's step is too large (over 2^40)");
                    goto fail;
                }
                if ((rc = check_rank(&src, g, f, rank, o, "the step", err)))
                    goto fail;
            }
            if (cl.noff && (rc = ns_game_add_finite(g, label, cl.off, cl.noff, err)))
                goto fail;
        } else if ((rc = ns_rules_rt_add_general(rt, g, fi, label, err))) {
            goto fail;
        }
        if (info) {
            ns_rules_fam_info *fo = &info->fam[fi];
            fo->line = line;
            fo->col = col;
            snprintf(fo->idx, sizeof fo->idx, "%s", f->idx);
            snprintf(fo->text, sizeof fo->text, "%s", stmt);
            fo->kind = cl.kind;
            fo->first = first;
            fo->count = g->nfam - first;
            snprintf(fo->why, sizeof fo->why, "%s", cl.why);
        }
        ns_rclass_free(&cl);
    }
    if ((rc = ns_rules_rt_finish(rt, err)))
        goto fail;
    free(dom);
    ns_ast_prog_free(&ast);
    *out = g;
    if (infop)
        *infop = info;
    return NS_OK;
fail:
    ns_rclass_free(&cl);
    free(dom);
    ns_ast_prog_free(&ast);
    ns_game_free(g);
    ns_rules_info_free(info);
    return rc;
}

ns_err ns_rules_compile(const char *text, const char *fname, const ns_params *ps, int k_hint, ns_game **out,
                        ns_error *err)
{
    return compile(text, fname, ps, k_hint, out, NULL, err);
}

ns_err ns_rules_compile_info(const char *text, const char *fname, const ns_params *ps, int k_hint, ns_game **out,
                             ns_rules_info **info, ns_error *err)
{
    return compile(text, fname, ps, k_hint, out, info, err);
}

ns_err ns_rules_read_file(const char *path, char **text, ns_error *err)
{
    *text = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return ns_error_set(err, NS_EIO, "cannot open rule file '%s': %s", path, strerror(errno));
    char *buf = malloc(MAX_FILE + 2);
    if (!buf) {
        fclose(fp);
        return ns_error_set(err, NS_ENOMEM, "out of memory");
    }
    size_t n = fread(buf, 1, MAX_FILE + 1, fp);
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return ns_error_set(err, NS_EIO, "cannot read rule file '%s'", path);
    }
    if (n > MAX_FILE) {
        free(buf);
        return ns_error_set(err, NS_EINVAL, "%s: the rule file is larger than 1 MiB", path);
    }
    buf[n] = '\0';
    const char *nul = memchr(buf, '\0', n);
    if (nul) {
        ns_src src = {buf, (size_t)(nul - buf), path};
        ns_err rc = ns_src_error(err, NS_EINVAL, &src, (size_t)(nul - buf), "unexpected NUL byte: expected a text file");
        free(buf);
        return rc;
    }
    *text = buf;
    return NS_OK;
}

ns_err ns_rules_compile_file(const char *path, const ns_params *ps, int k_hint, ns_game **out, ns_error *err)
{
    char *text;
    *out = NULL;
    ns_err rc = ns_rules_read_file(path, &text, err);
    if (rc)
        return rc;
    rc = ns_rules_compile(text, path, ps, k_hint, out, err);
    free(text);
    return rc;
}
