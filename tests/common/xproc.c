/* xproc.c - the in-process exchange of xproc.h: mailboxes under one lock,
 * and the processes run as threads. */
#include "xproc.h"

#include <stdlib.h>
#include <string.h>

#include "core/ns_omp.h"

int ns_xp_post_init(ns_xp_post *p, int ranks, int64_t slots)
{
    memset(p, 0, sizeof *p);
    if (ranks < 1 || ranks > NS_XP_MAXR || slots < 1)
        return -1;
    p->ranks = ranks;
    p->slots = slots;
    for (int r = 0; r < ranks; r++)
        if (!(p->box[r] = calloc((size_t)slots, sizeof *p->box[r]))) {
            while (r--)
                free(p->box[r]);
            return -1;
        }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    return 0;
}

long ns_xp_post_free(ns_xp_post *p)
{
    long left = 0;
    if (!p->box[0])
        return 0;   /* never made */
    for (int r = 0; r < p->ranks; r++) {
        for (int64_t i = 0; i < p->slots; i++) {
            left += p->box[r][i] != NULL;
            free(p->box[r][i]);
        }
        free(p->box[r]);
        p->box[r] = NULL;
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond);
    return left;
}

int ns_xp_send(ns_xp_post *p, int from, int to, int64_t slot, const void *data, size_t bytes)
{
    int rc = 0;
    if (slot < 0 || slot >= p->slots || to >= p->ranks)
        return -1;
    pthread_mutex_lock(&p->lock);
    for (int r = 0; r < p->ranks; r++) {
        if (to < 0 ? r == from : r != to)
            continue;
        unsigned char *c = malloc(bytes ? bytes : 1);
        if (!c) {
            rc = -1;
            break;
        }
        memcpy(c, data, bytes);
        free(p->box[r][slot]);  /* a copy never taken (not in a correct run) */
        p->box[r][slot] = c;
        p->sent++;
    }
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int ns_xp_recv(ns_xp_post *p, int rank, int64_t slot, void *out, size_t bytes)
{
    if (slot < 0 || slot >= p->slots || rank < 0 || rank >= p->ranks)
        return -1;
    unsigned char **box = &p->box[rank][slot];
    pthread_mutex_lock(&p->lock);
    while (!*box)
        pthread_cond_wait(&p->cond, &p->lock);
    memcpy(out, *box, bytes);
    free(*box);
    *box = NULL;
    pthread_mutex_unlock(&p->lock);
    return 0;
}

int ns_xp_mine(void *user, int64_t row)
{
    const ns_xp_proc *q = user;
    return row % q->p->ranks == q->rank;
}

int ns_xp_recv_fail(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    (void)user, (void)x0, (void)y0, (void)nx, (void)ny, (void)vals;
    return 1;
}

int ns_xp_tile_sink(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *v)
{
    ns_xp_proc *q = user;
    NS_PRAGMA(omp critical(ns_xp_tile_sink))
    for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++) {
            q->vals[(x0 + i) * q->n1 + y0 + j] = v[i * ny + j];
            q->seen[(x0 + i) * q->n1 + y0 + j]++;
        }
    return 0;
}

static void *run_one(void *arg)
{
    ns_xp_proc *q = arg;
    q->rc = ns_engine_resume(q->g, q->t, &q->o, q->resume, &q->err);
    return NULL;
}

int ns_xp_run(ns_xp_proc *const *procs, int ranks)
{
    pthread_t th[NS_XP_MAXR];
    int started = 0;
    while (started < ranks && started < NS_XP_MAXR && pthread_create(&th[started], NULL, run_one, procs[started]) == 0)
        started++;
    for (int r = 0; r < started; r++)
        pthread_join(th[r], NULL);
    return started == ranks ? 0 : -1;
}
