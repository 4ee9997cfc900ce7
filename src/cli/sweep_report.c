/* sweep_report.c - see sweep_report.h. */
#include "cli/sweep_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_json.h"

ns_err ns_sweep_conjectures(const ns_h5_sweep *s, ns_params **ps, ns_conj **c, size_t *nc, ns_error *err)
{
    const size_t n = s->n, m = n ? n : 1;
    ns_err rc = NS_OK;
    int64_t *pp = malloc(m * sizeof *pp), *pre = malloc(m * sizeof *pre), *per = malloc(m * sizeof *per);
    uint8_t *prov = malloc(m);
    double *sa = malloc(m * sizeof *sa), *sb = malloc(m * sizeof *sb);
    ns_params *p = malloc(m * sizeof *p);
    *ps = NULL;
    *c = NULL;
    *nc = 0;
    if (!pp || !pre || !per || !prov || !sa || !sb || !p) {
        rc = ns_error_set(err, NS_ENOMEM, "conjectures: out of memory for %zu variants", n);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const ns_h5_sweep_row *r = &s->rows[i];
        p[i].n = 0;   /* parse_list adds to what is there */
        if ((rc = ns_params_parse_list(&p[i], r->params, err)))
            goto done;
        pp[i] = r->p_positions;
        pre[i] = r->preperiod;
        per[i] = r->period;
        prov[i] = r->proven;
        sa[i] = r->slope_a;
        sb[i] = r->slope_b;
    }
    const ns_conj_data d = {.n = n, .piles = s->piles, .size = s->size, .params = p, .p_positions = pp,
                            .preperiod = s->piles == 1 ? pre : NULL, .period = s->piles == 1 ? per : NULL,
                            .proven = s->piles == 1 ? prov : NULL, .slope_a = s->piles == 2 ? sa : NULL,
                            .slope_b = s->piles == 2 ? sb : NULL};
    if ((rc = ns_sweep_conj_find(&d, c, nc, err)))
        goto done;
    *ps = p;
    p = NULL;
done:
    free(p);
    free(sb);
    free(sa);
    free(prov);
    free(per);
    free(pre);
    free(pp);
    return rc;
}

void ns_sweep_print_conjectures(FILE *out, const ns_conj *c, size_t nc)
{
    fprintf(out, "\nconjectures (what held for the variants of this file, best first; laws in a\n"
                 "parameter are observed on these variants, not proven beyond them):\n");
    if (nc == 0)
        fprintf(out, "  none: no field is constant, linear in a parameter or a closed form of one\n");
    for (size_t i = 0; i < nc; i++)
        fprintf(out, "  %zu. %s\n", i + 1, c[i].text);
}

static const char *kind_name(ns_conj_kind k)
{
    return k == NS_CONJ_CONSTANT ? "constant" : k == NS_CONJ_LINEAR ? "linear" : "closed";
}

static void json_params(FILE *out, const ns_params *ps)
{
    fputc('{', out);
    for (int j = 0; j < ps->n; j++) {
        const ns_param *p = &ps->p[j];
        fputs(j ? ", " : "", out);
        ns_json_string(out, p->name);
        fputs(": ", out);
        if (p->n == 0)
            ns_json_string(out, p->text);
        else if (p->n == 1)
            fprintf(out, "%" PRId64, p->v[0]);
        else {
            fputc('[', out);
            for (int k = 0; k < p->n; k++)
                fprintf(out, "%s%" PRId64, k ? ", " : "", p->v[k]);
            fputc(']', out);
        }
    }
    fputc('}', out);
}

ns_err ns_sweep_print_json(FILE *out, const ns_h5_sweep *s, ns_error *err)
{
    ns_params *ps = NULL;
    ns_conj *c = NULL;
    size_t nc = 0;
    ns_err rc = ns_sweep_conjectures(s, &ps, &c, &nc, err);
    if (rc)
        return rc;
    fputs("{\n  \"kind\": \"sweep\",\n  \"game\": ", out);
    ns_json_string(out, s->game);
    fputs(",\n  \"ranges\": ", out);
    ns_json_string(out, s->ranges);
    fputs(",\n  \"parameters\": [", out);
    int k = 0;
    for (const char *p = s->parameters; *p;) {
        const size_t l = strcspn(p, ",");
        char name[NS_PARAM_NAME_LEN];
        snprintf(name, sizeof name, "%.*s", (int)(l < sizeof name - 1 ? l : sizeof name - 1), p);
        fputs(k++ ? ", " : "", out);
        ns_json_string(out, name);
        p += l + (p[l] == ',');
    }
    fprintf(out, "],\n  \"piles\": %d,\n  \"size\": %" PRId64 ",\n  \"threads\": %d,\n  \"wall_seconds\": ", s->piles,
            s->size, s->threads);
    ns_json_double(out, s->wall_seconds);
    fprintf(out, ",\n  \"variants\": [");
    for (size_t i = 0; i < s->n; i++) {
        const ns_h5_sweep_row *r = &s->rows[i];
        fprintf(out, "%s\n    {\"index\": %zu, \"params\": ", i ? "," : "", i);
        json_params(out, &ps[i]);
        fputs(", \"params_text\": ", out);
        ns_json_string(out, r->params);
        fprintf(out, ", \"size\": %" PRId64 ", \"p_positions\": %" PRId64, r->size, r->p_positions);
        if (s->piles == 1)
            fprintf(out, ", \"preperiod\": %" PRId64 ", \"period\": %" PRId64 ", \"proven\": %s", r->preperiod,
                    r->period, r->proven ? "true" : "false");
        else {
            fputs(", \"slope_a\": ", out);
            ns_json_double(out, r->slope_a);
            fputs(", \"slope_b\": ", out);
            ns_json_double(out, r->slope_b);
        }
        fprintf(out, ", \"group\": %" PRId64 ", \"max_value\": %" PRId64, r->group, r->max_value);
        if (s->piles == 1)
            fprintf(out, ", \"saltus\": %" PRId64, r->saltus);
        else if (s->analysed) {
            fprintf(out, ", \"complementary\": %s, \"beatty\": %s, \"const_a\": ", r->complementary ? "true" : "false",
                    r->beatty ? "true" : "false");
            ns_json_string(out, r->const_a);
            fputs(", \"const_b\": ", out);
            ns_json_string(out, r->const_b);
            fputs(", \"cf_a\": ", out);
            ns_json_string(out, r->cf_a);
            fputs(", \"cf_b\": ", out);
            ns_json_string(out, r->cf_b);
            fprintf(out, ", \"rows_additive\": %" PRId64 ", \"additive_pmax\": %" PRId64, r->rows_additive,
                    r->additive_pmax);
        }
        if (s->analysed) {
            fputs(", \"checks\": ", out);
            ns_json_string(out, r->checks);
        }
        fputs(", \"seconds\": ", out);
        ns_json_double(out, r->seconds);
        fputc('}', out);
    }
    fprintf(out, "%s],\n  \"conjectures\": [", s->n ? "\n  " : "");
    for (size_t i = 0; i < nc; i++) {
        const ns_conj *q = &c[i];
        fprintf(out, "%s\n    {\"rank\": %zu, \"kind\": \"%s\", \"field\": ", i ? "," : "", i + 1, kind_name(q->kind));
        ns_json_string(out, q->field);
        fprintf(out, ", \"covered\": %zu", q->covered);
        if (q->kind != NS_CONJ_CONSTANT) {
            fputs(", \"param\": ", out);
            ns_json_string(out, q->param);
            fprintf(out, ", \"x_lo\": %" PRId64 ", \"x_hi\": %" PRId64, q->x_lo, q->x_hi);
        }
        if (q->kind == NS_CONJ_CONSTANT)
            fprintf(out, ", \"value\": %" PRId64, q->value);
        else if (q->kind == NS_CONJ_LINEAR && q->m == 0)   /* linear in each group, the laws differ */
            fprintf(out, ", \"groups\": %zu, \"m\": null, \"c\": null", q->groups);
        else if (q->kind == NS_CONJ_LINEAR)
            fprintf(out, ", \"groups\": %zu, \"m\": %" PRId64 ", \"c\": %" PRId64, q->groups, q->m, q->c);
        else {
            fprintf(out, ", \"p\": %d, \"q\": %d, \"r\": %d, \"s\": %d, \"t\": %d, \"u\": %d, \"max_dev\": ", q->p,
                    q->q, q->r, q->s, q->t, q->u);
            ns_json_double(out, q->max_dev);
            fputs(", \"tol\": ", out);
            ns_json_double(out, q->tol);
            fprintf(out, ", \"others\": %zu", q->others);
        }
        if (q->kind != NS_CONJ_CONSTANT)
            fprintf(out, ", \"forms\": %zu", q->forms);
        if (q->by[0]) {   /* coefficients exactly linear in the other parameter */
            static const char *const cn[6] = {"p", "q", "r", "s", "t", "u"};
            const int nco = q->kind == NS_CONJ_LINEAR ? 2 : 6;
            fputs(", \"by\": ", out);
            ns_json_string(out, q->by);
            fprintf(out, ", \"y_lo\": %" PRId64 ", \"y_hi\": %" PRId64 ", \"coef\": {", q->y_lo, q->y_hi);
            for (int j = 0, w = 0; j < nco; j++)
                if (q->coef_linear >> j & 1u)
                    fprintf(out, "%s\"%s\": [%" PRId64 ", %" PRId64 "]", w++ ? ", " : "",
                            q->kind == NS_CONJ_LINEAR ? (j ? "c" : "m") : cn[j], q->coef_m[j], q->coef_c[j]);
            fputc('}', out);
        }
        fprintf(out, ", \"all_proven\": %s, \"text\": ", q->all_proven ? "true" : "false");
        ns_json_string(out, q->text);
        fputc('}', out);
    }
    fprintf(out, "%s]\n}\n", nc ? "\n  " : "");
    free(c);
    free(ps);
    return NS_OK;
}
