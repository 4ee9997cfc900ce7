/* ns_seq_pipe.h - internal to the sequence engine (ns_sequence.c): the
 * rare/common method as a pipeline over groups of 32 heaps, every thread
 * on one game (ns_seq_pipe.c). */
#ifndef NS_SEQ_PIPE_H
#define NS_SEQ_PIPE_H

#include <stdint.h>

#include "engine/ns_seq_rc.h"

enum {
    NS_SEQ_PIPE_GROUP = 32, /* heaps of a group */
    NS_SEQ_PIPE_WORDS = 8,  /* the most bitset words it runs with (values below 512) */
};

typedef struct ns_seq_pipe_job {
    const ns_seq_moves *mv; /* borrowed */
    ns_seq_rc *rs;          /* mask, rare values (rv, >= w words), rare heaps, histogram: updated */
    ns_table *t;            /* G(0 .. b0-1) final; cells of one or two bytes */
    uint64_t w;             /* bitset words: every value so far below 64 w, w <= NS_SEQ_PIPE_WORDS */
    uint64_t *maxv;         /* the largest value so far: updated */
    uint64_t max_value;     /* the a-priori bound on a value */
    int64_t b0, b1;         /* heaps to finish, b1 - b0 a multiple of NS_SEQ_PIPE_GROUP */
    int threads;
    ns_seq_scan scan;       /* NS_SEQ_SCAN_SCALAR: no vector kernels */
} ns_seq_pipe_job;

/* The lag of the pipeline for this many threads and moves (see
 * ns_seq_pipe.c); the pipeline may start at a heap b0 >= 4 * lag. */
int64_t ns_seq_pipe_lag(const ns_seq_moves *mv, int threads);

/* Finish heaps job->b0 .. job->b1 - 1 in order, as the rare/common method
 * does heap by heap (the same values): G into job->t, each value counted
 * in rs->hist; the rare list is read, not changed. Stops early at a rare
 * heap (the pipeline guesses that heaps are not rare), and at a heap whose
 * value needs what the pipeline does not change under its threads: a
 * wider cell, more bitset words, a value over max_value; the caller
 * finishes that heap its own way. Returns the first heap not finished
 * (cells from there on hold garbage). Updates rs->st (pipe_heaps,
 * rc_heaps, scans: the rare heaps it stopped at, vec_scans). */
int64_t ns_seq_pipe_run(const ns_seq_pipe_job *job);

#endif
