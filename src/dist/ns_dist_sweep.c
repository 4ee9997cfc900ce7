/* ns_dist_sweep.c - a sweep's variants across MPI ranks (ns_dist_sweep.h). */
#include "dist/ns_dist_sweep.h"

#include "dist/ns_dist.h"

#ifdef NS_MPI
#include <inttypes.h>
#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ns_omp.h"
#include "game/ns_game.h"
#include "game/ns_table.h"

enum { TAG_READY = 1, TAG_WORK = 2, TAG_RESULT = 3 };

/* a batch's result, as it travels: this header, then per variant its row
 * and, with tables, a table header and the cells */
typedef struct batch_head {
    uint64_t i0, count; /* variants i0 .. i0 + count - 1 */
    int32_t rc;         /* 0, or the first failure (the rest of the batch is absent) */
    int32_t tables;
    char msg[NS_ERROR_MSG_LEN];
} batch_head;

typedef struct table_head {
    int32_t k, elem, pn_only, pad;
    int64_t bounds[NS_MAX_DIM];
} table_head;

static void nap(void)
{
    const struct timespec ts = {0, 100000}; /* 0.1 ms: waiting ranks leave the cores to the working ones */
    nanosleep(&ts, NULL);
}

/* wait for a message (tag, source: MPI_ANY_* allowed) without spinning */
static void wait_probe(int source, int tag, MPI_Status *st)
{
    int flag = 0;
    for (;;) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st);
        if (flag)
            return;
        nap();
    }
}

/* ---- the worker ---- */

typedef struct wbuf {
    unsigned char *p;
    size_t len, cap;
    int tables;
    ns_error err; /* a failure while packing */
} wbuf;

static int put(wbuf *b, const void *src, size_t n)
{
    if (b->len + n > b->cap) {
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->len + n)
            c *= 2;
        unsigned char *q = realloc(b->p, c);
        if (!q)
            return -1;
        b->p = q;
        b->cap = c;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
    return 0;
}

/* job->each on the worker: called in variant order, one call at a time */
static int pack_one(void *user, uint64_t i, const ns_sweep_row *row, const ns_game *g, const ns_table *t)
{
    wbuf *b = user;
    (void)i;
    (void)g;
    if (put(b, row, sizeof *row)) {
        ns_error_set(&b->err, NS_ENOMEM, "out of memory for the rows to send");
        return 1;
    }
    if (!b->tables)
        return 0;
    table_head th = {.k = t->k, .elem = t->elem, .pn_only = t->pn_only};
    for (int d = 0; d < t->k; d++)
        th.bounds[d] = t->bounds[d];
    const uint64_t bytes = t->ncells * (uint64_t)t->elem;
    if (b->len + sizeof th + bytes > (uint64_t)INT_MAX) {
        ns_error_set(&b->err, NS_ERANGE,
                     "variant %" PRIu64 ": a batch of %" PRIu64 " bytes of tables is more than one message takes (2 GiB)",
                     i, (uint64_t)(b->len + sizeof th + bytes));
        return 1;
    }
    if (put(b, &th, sizeof th) || put(b, t->data, (size_t)bytes)) {
        ns_error_set(&b->err, NS_ENOMEM, "variant %" PRIu64 ": out of memory for the table to send", i);
        return 1;
    }
    return 0;
}

static void send_failure(uint64_t i0, uint64_t count, ns_err rc, const char *msg)
{
    batch_head h = {.i0 = i0, .count = count, .rc = rc};
    snprintf(h.msg, sizeof h.msg, "%s", msg);
    MPI_Send(&h, (int)sizeof h, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
}

static ns_err worker(const ns_sweep_job *job)
{
    const int rank = ns_dist_rank();
    const int threads = job->threads > 0 ? job->threads : ns_omp_max_threads();
    int32_t hello = threads;
    MPI_Send(&hello, 1, MPI_INT32_T, 0, TAG_READY, MPI_COMM_WORLD);
    const char *hook = getenv("NS_DIST_TEST_FAIL_RANK");
    const int hook_here = hook && atoi(hook) == rank;
    const char *how = getenv("NS_DIST_TEST_FAIL_HOW");
    wbuf b = {.tables = job->each != NULL};
    for (;;) {
        MPI_Status st;
        uint64_t work[2];
        wait_probe(0, TAG_WORK, &st);
        MPI_Recv(work, 2, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (work[1] == 0)
            break; /* stop */
        if (hook_here) {
            if (how && strcmp(how, "die") == 0)
                raise(SIGKILL);
            send_failure(work[0], work[1], NS_ENOMEM,
                         "out of memory (test hook NS_DIST_TEST_FAIL_RANK)");
            continue;
        }
        b.len = 0;
        ns_error_clear(&b.err);
        batch_head h = {.i0 = work[0], .count = work[1], .tables = b.tables};
        if (put(&b, &h, sizeof h)) {
            send_failure(work[0], work[1], NS_ENOMEM, "out of memory for a batch's results");
            continue;
        }
        ns_sweep_job sub = *job;
        sub.first = work[0];
        sub.n = work[0] + work[1];
        sub.threads = threads;
        sub.each = pack_one;
        sub.each_user = &b;
        sub.progress = NULL;
        sub.window = 0;
        ns_error e = {0};
        ns_err rc = ns_sweep_run(&sub, NULL, &e);
        if (rc && b.err.code) /* the packing failed: its message, not "interrupted" */
            e = b.err, rc = b.err.code;
        if (rc) {
            send_failure(work[0], work[1], rc, e.msg);
            continue;
        }
        MPI_Send(b.p, (int)b.len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
    free(b.p);
    return NS_OK;
}

/* ---- the manager ---- */

typedef struct pending {
    unsigned char *msg; /* the batch as received (owned), NULL: not yet */
    int rank;
} pending;

/* unpack and deliver the batch in p (count variants from i0) to rows and each */
static ns_err deliver(const ns_sweep_job *job, ns_sweep_row *rows, const pending *p, int *halt, ns_error *err)
{
    const batch_head *h = (const batch_head *)p->msg;
    const unsigned char *q = p->msg + sizeof *h;
    for (uint64_t k = 0; k < h->count && !*halt; k++) {
        const uint64_t i = h->i0 + k;
        ns_sweep_row row;
        memcpy(&row, q, sizeof row);
        q += sizeof row;
        if (rows)
            rows[i - job->first] = row;
        if (!job->each)
            continue;
        table_head th;
        memcpy(&th, q, sizeof th);
        q += sizeof th;
        ns_game *g = NULL;
        ns_table *t = NULL;
        ns_err rc = job->build(job->user, i, &g, err);
        if (!rc && !(t = ns_table_new(th.k, th.bounds, th.elem, th.pn_only, err)))
            rc = err->code ? err->code : NS_ENOMEM;
        if (rc) {
            ns_game_free(g);
            return ns_error_set(err, rc, "rank 0: variant %" PRIu64 ": %s", i, err->msg);
        }
        const size_t bytes = (size_t)(t->ncells * (uint64_t)t->elem);
        memcpy(t->data, q, bytes);
        q += bytes;
        *halt = job->each(job->each_user, i, &row, g, t);
        ns_table_free(t);
        ns_game_free(g);
    }
    return NS_OK;
}

static ns_err manager(const ns_sweep_job *job, ns_sweep_row *rows, ns_error *err)
{
    const int ranks = ns_dist_size();
    const uint64_t first = job->first, n = job->n, total = n - first;
    int *batch_of = calloc((size_t)ranks, sizeof *batch_of);  /* variants a worker takes at once */
    int *busy = calloc((size_t)ranks, sizeof *busy);          /* a batch out */
    int *waiting = calloc((size_t)ranks, sizeof *waiting);    /* asked, nothing given yet */
    /* the batches received and not yet delivered, by their first variant */
    pending *held = NULL;
    uint64_t *held_i0 = NULL;
    size_t nheld = 0;
    ns_err rc = NS_OK;
    if (!batch_of || !busy || !waiting) {
        rc = ns_error_set(err, NS_ENOMEM, "rank 0: out of memory for %d ranks", ranks);
        goto fail;
    }
    /* every worker says hello with its threads */
    uint64_t sum_threads = 0;
    for (int r = 1; r < ranks; r++) {
        int32_t th = 0;
        MPI_Status st;
        wait_probe(MPI_ANY_SOURCE, TAG_READY, &st);
        MPI_Recv(&th, 1, MPI_INT32_T, st.MPI_SOURCE, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        batch_of[st.MPI_SOURCE] = th > 0 ? th : 1;
        waiting[st.MPI_SOURCE] = 1;
        sum_threads += (uint64_t)batch_of[st.MPI_SOURCE];
    }
    const uint64_t window = job->window ? job->window : 4 * sum_threads;
    held = calloc((size_t)ranks + 1, sizeof *held);
    held_i0 = calloc((size_t)ranks + 1, sizeof *held_i0);
    size_t held_cap = (size_t)ranks + 1;
    if (!held || !held_i0) {
        rc = ns_error_set(err, NS_ENOMEM, "rank 0: out of memory for %d ranks", ranks);
        goto fail;
    }
    uint64_t next_out = first, next_deliver = first, done = 0, bad_i = UINT64_MAX;
    int out = 0, stopping = 0, halt = 0;
    ns_error bad = {0};
    for (;;) {
        /* hand out work to the workers waiting */
        for (int r = 1; r < ranks && !stopping; r++) {
            if (!waiting[r] || next_out >= n || next_out >= next_deliver + window)
                continue;
            uint64_t c = (uint64_t)batch_of[r];
            if (c > n - next_out)
                c = n - next_out;
            const uint64_t work[2] = {next_out, c};
            MPI_Send(work, 2, MPI_UINT64_T, r, TAG_WORK, MPI_COMM_WORLD);
            next_out += c;
            waiting[r] = 0;
            busy[r] = 1;
            out++;
        }
        if (out == 0 && (stopping || next_out >= n))
            break;
        if (out == 0) { /* the window is full of held batches that cannot be delivered: a bug */
            rc = ns_error_set(err, NS_EINTERNAL, "rank 0: sweep stalled at variant %" PRIu64, next_deliver);
            goto fail;
        }
        /* a result */
        MPI_Status st;
        wait_probe(MPI_ANY_SOURCE, TAG_RESULT, &st);
        int len = 0;
        MPI_Get_count(&st, MPI_BYTE, &len);
        unsigned char *msg = malloc(len > 0 ? (size_t)len : 1);
        if (!msg) {
            rc = ns_error_set(err, NS_ENOMEM, "rank 0: out of memory for a batch of %d bytes from rank %d", len,
                              st.MPI_SOURCE);
            goto fail;
        }
        MPI_Recv(msg, len, MPI_BYTE, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const int r = st.MPI_SOURCE;
        busy[r] = 0;
        waiting[r] = 1;
        out--;
        const batch_head *h = (const batch_head *)msg;
        if ((size_t)len < sizeof *h) {
            free(msg);
            rc = ns_error_set(err, NS_EINTERNAL, "rank 0: a short message (%d bytes) from rank %d", len, r);
            goto fail;
        }
        if (h->rc) {
            if (h->i0 < bad_i) {
                bad_i = h->i0;
                ns_error_set(&bad, h->rc, "rank %d: %s", r, h->msg);
            }
            stopping = 1;
            free(msg);
            continue;
        }
        if (nheld == held_cap) {
            pending *np = realloc(held, 2 * held_cap * sizeof *held);
            uint64_t *ni = np ? realloc(held_i0, 2 * held_cap * sizeof *held_i0) : NULL;
            if (np)
                held = np;
            if (!ni) {
                free(msg);
                rc = ns_error_set(err, NS_ENOMEM, "rank 0: out of memory for the held batches");
                goto fail;
            }
            held_i0 = ni;
            held_cap *= 2;
        }
        held[nheld] = (pending){.msg = msg, .rank = r};
        held_i0[nheld++] = h->i0;
        /* deliver the batches now in order */
        for (int moved = 1; moved && !stopping;) {
            moved = 0;
            for (size_t k = 0; k < nheld; k++) {
                if (held_i0[k] != next_deliver)
                    continue;
                const uint64_t cnt = ((const batch_head *)held[k].msg)->count;
                ns_err drc = deliver(job, rows, &held[k], &halt, err);
                free(held[k].msg);
                held[k] = held[nheld - 1];
                held_i0[k] = held_i0[nheld - 1];
                nheld--;
                if (drc) {
                    rc = drc;
                    goto fail;
                }
                next_deliver += cnt;
                done += cnt;
                if (!halt && job->progress)
                    halt = job->progress(job->progress_user, done, total);
                if (halt && bad_i == UINT64_MAX) {
                    bad_i = next_deliver;
                    ns_error_set(&bad, NS_EINTR, "interrupted after %" PRIu64 " of %" PRIu64 " variants",
                                 next_deliver, n);
                }
                stopping |= halt;
                moved = 1;
                break;
            }
        }
    }
    if (bad_i != UINT64_MAX)
        rc = ns_error_set(err, bad.code, "%s", bad.msg);
fail:
    /* finish what is out (a worker busy with a batch would wait for ever
     * for its next order otherwise), then stop every worker */
    if (busy)
        for (int r = 1; r < ranks; r++) {
            if (!busy[r])
                continue;
            MPI_Status st;
            int len = 0;
            wait_probe(r, TAG_RESULT, &st);
            MPI_Get_count(&st, MPI_BYTE, &len);
            unsigned char *msg = malloc(len > 0 ? (size_t)len : 1);
            if (!msg) { /* cannot even drain: end the job */
                ns_dist_abort(2);
                break;
            }
            MPI_Recv(msg, len, MPI_BYTE, r, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            free(msg);
        }
    for (int r = 1; r < ranks; r++) {
        const uint64_t stop[2] = {0, 0};
        MPI_Send(stop, 2, MPI_UINT64_T, r, TAG_WORK, MPI_COMM_WORLD);
    }
    for (size_t k = 0; k < nheld; k++)
        free(held[k].msg);
    free(held);
    free(held_i0);
    free(waiting);
    free(busy);
    free(batch_of);
    return rc;
}

ns_err ns_dist_sweep_run(const ns_sweep_job *job, ns_sweep_row *rows, ns_error *err)
{
    if (ns_dist_size() == 1)
        return ns_sweep_run(job, rows, err);
    if (!job->build || job->first > job->n)
        return ns_error_set(err, NS_EINVAL, "sweep: no builder, or first variant %" PRIu64 " past %" PRIu64, job->first,
                            job->n);
    if (ns_dist_rank() == 0)
        return manager(job, rows, err);
    return worker(job);
}

#else /* one process */

ns_err ns_dist_sweep_run(const ns_sweep_job *job, ns_sweep_row *rows, ns_error *err)
{
    return ns_sweep_run(job, rows, err);
}

#endif
