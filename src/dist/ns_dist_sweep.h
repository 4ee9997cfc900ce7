/* ns_dist_sweep.h - a sweep's variants across the ranks of an MPI job
 * (issue 21, item 2): the contract of ns_sweep_run (analysis/ns_sweep.h),
 * so that whatever is built on that driver (sweeps; the census once it is
 * a builder over its codes) runs under mpirun unchanged.
 *
 * Every rank calls it with the same job. Rank 0 is the manager: it hands
 * out batches of consecutive variants (dynamic: a batch to whichever
 * worker asks), receives their rows and runs job->each and job->progress
 * in variant order, exactly as ns_sweep_run does; it solves nothing
 * itself (with 2 ranks: one manager, one worker). Ranks 1 .. R-1 are
 * workers: a batch is as many variants as the worker's threads
 * (job->threads, <= 0: OpenMP's default), solved by ns_sweep_run on the
 * worker, one variant per thread. Tables travel to the manager only when
 * job->each is set (each receives them, with the game the manager builds
 * again with job->build, which must give the same game on every rank);
 * otherwise only the rows. The manager starts no batch more than
 * job->window variants (0: 4 x the workers' threads) ahead of the next
 * one to deliver. More ranks than batches: the extra workers get none.
 *
 * On rank 0: rows[i - first] for every variant (rows OPTIONAL), and on
 * failure the message of the lowest failing variant received, naming the
 * worker's rank ("rank 2: variant 7: ..."); the batches under way are
 * finished before every worker is told to stop, so the job ends, never
 * hangs. On a worker: NS_OK once told to stop (its failures are the
 * manager's to report), rows untouched. With one rank: ns_sweep_run.
 *
 * Test hook: NS_DIST_TEST_FAIL_RANK=R makes worker R fail its first batch
 * as if out of memory; with NS_DIST_TEST_FAIL_HOW=die it kills itself
 * (SIGKILL) instead, a rank that dies. The ranks must run the same
 * binary on machines with the same byte order (rows travel as bytes). */
#ifndef NS_DIST_SWEEP_H
#define NS_DIST_SWEEP_H

#include "analysis/ns_sweep.h"
#include "core/ns_error.h"

ns_err ns_dist_sweep_run(const ns_sweep_job *job, ns_sweep_row *rows, ns_error *err);

#endif
