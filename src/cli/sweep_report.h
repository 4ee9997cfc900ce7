/* sweep_report.h - what `nimsieve sweep --report` adds to the catalogue's
 * table: the ranked conjectures (analysis/ns_sweep_conj.h) and the whole
 * catalogue as JSON; shared with `nimsieve plot` (the landscape's curve). */
#ifndef NS_SWEEP_REPORT_H
#define NS_SWEEP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/ns_sweep_conj.h"
#include "core/ns_error.h"
#include "game/ns_params.h"
#include "store/ns_h5_sweep.h"

/* Each row's parameters parsed (*ps: s->n entries) and the conjectures of
 * s (*c: *nc entries), both malloc'ed and owned by the caller (free()). */
ns_err ns_sweep_conjectures(const ns_h5_sweep *s, ns_params **ps, ns_conj **c, size_t *nc, ns_error *err);

/* The "conjectures:" section: numbered, best first ("none" when empty). */
void ns_sweep_print_conjectures(FILE *out, const ns_conj *c, size_t nc);

/* The catalogue of s and its conjectures as one JSON object (NaN: null). */
ns_err ns_sweep_print_json(FILE *out, const ns_h5_sweep *s, ns_error *err);

#endif
