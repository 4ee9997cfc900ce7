/* ns_sequence.h - what the sequence engines (ns_sequence.c: `rare-common`
 * and `sequence`, both behind the door of ns_engine.h) tell about a run,
 * for the tests and the benchmark, and their checkpoint unit (for `solve
 * --until-periodic`, which looks for a proven period at checkpoints). */
#ifndef NS_SEQUENCE_H
#define NS_SEQUENCE_H

#include <stdint.h>

#include "core/ns_error.h"
#include "engine/ns_engine.h"

/* Heap sizes of a checkpoint unit of both engines: after u units,
 * G(0 .. min(N, u * NS_SEQ_UNIT) - 1) are final. */
enum { NS_SEQ_UNIT = 4096 };

typedef struct ns_seq_stats {
    uint32_t mask;          /* the rare/common mask at the end (0: none) */
    uint64_t mask_changes;  /* times a mask was chosen (the first included) */
    int64_t rare;           /* rare heap sizes under it at the end */
    uint64_t rc_heaps;      /* heaps done by the rare/common method ... */
    uint64_t scans;         /* ... of which needed a scan of all splits */
} ns_seq_stats;

/* Fill t (1-D, from ns_engine_table_new) for the take-and-break game g by
 * the rare/common method (rare_common = 1) or the plain mex (0), and fill
 * *st. NS_EINVAL with the reason when that engine does not apply. */
ns_err ns_seq_run_stats(const ns_game *g, ns_table *t, const ns_engine_opts *o, int rare_common, ns_seq_stats *st,
                        ns_error *err);

#endif
