/* ns_dist_tiles.c - the tile kernel's exchange across MPI ranks
 * (ns_dist_tiles.h). */
#include "dist/ns_dist_tiles.h"

#include "dist/ns_dist.h"

#include <stdlib.h>
#include <string.h>

#ifdef NS_MPI
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "dist/ns_dist_world.h"

/* one computed tile on its way to every other rank */
typedef struct msg {
    unsigned char *buf;     /* header (x0, y0) and the values; owned */
    MPI_Request *req;       /* size - 1 requests; owned */
    int nreq;
    struct msg *next;
} msg;

enum { TAG_PUT = 1, TAG_GET = 2, TAG_REPLY = 3, TAG_DONE = 4, TAG_ADDR = 5, TAG_WRITTEN = 6, HEAD = 3 };

/* placed chunks: a placing of this rank waiting for its reply, or (with
 * the reply) for its write; at rank 0, a request (or, gathering tiles in
 * memory, a tile's message) waiting to be handled */
typedef struct placing {
    int64_t x0, y0;
    int from;               /* rank 0: the rank that asks */
    void *data;             /* owned */
    size_t data_bytes;
    void *reply;            /* rank 0's reply, header (x0, y0) cut; owned */
    size_t reply_bytes;
    struct placing *next;
} placing;

/* owned line sets: a block's packed lines (HEAD header words, its key:
 * kind, block, version; then the window), resting at its home or received */
typedef struct entry {
    uint64_t *buf;          /* header and window; owned */
    size_t nbuf;            /* words */
    struct entry *next;
} entry;

/* a get that came before the version it asks for */
typedef struct getreq {
    int from;
    int64_t key[HEAD];
    struct getreq *next;
} getreq;

struct ns_dist_tiles {
    MPI_Comm comm;          /* a duplicate of MPI_COMM_WORLD: our tags only */
    int rank, size;
    int64_t rows, tile;
    int64_t deal;           /* tile rows dealt to a rank at a time (>= 1) */
    pthread_mutex_t lock;   /* every MPI call of the hooks */
    msg *pending;           /* sends not known to be done */
    uint64_t sent, received;
    int64_t resumed;        /* anti-diagonals of a resume: their tiles come from rank 0 */
    int64_t die_after;      /* test hook: > 0, this rank kills itself after so many sends */
    int64_t nsent;          /* tiles sent */
    /* owned line sets (ns_dist_tiles_own) */
    int owned;
    int64_t cols;           /* tile columns */
    int sym;                /* the symmetric case: tiles i <= j travel */
    MPI_Comm ocomm;         /* the line windows' messages (the service's probes take any) */
    pthread_t service;
    int running;            /* the service thread runs */
    volatile int stop;      /* it stops (a failure: free without finish) */
    int ndone;              /* ranks whose engine is done (TAG_DONE) */
    int ofailed;            /* the service failed (out of memory, MPI) */
    entry *store;           /* resting blocks (home) and replies (user) */
    getreq *gets;           /* gets waiting for their version */
    uint64_t held, stored, peak; /* bytes of sets held by the kernel, of windows stored here; peak of the sum */
    uint64_t wsent, wreceived;   /* bytes of line windows sent and received (headers included) */
    uint64_t peak_max, wsent_all; /* after finish: the largest peak, the windows sent by all ranks */
    /* placed chunks (ns_dist_tiles_placing) */
    int placing;
    ns_dist_place_hooks ph;
    placing *waiting;       /* ranks but 0: placings without their reply */
    placing *jobs;          /* ranks but 0: replies in, to write (the service) */
    placing *ready;         /* rank 0: requests to place (data: the request,
                               from its header (x0, y0) on) */
    placing *later;         /* rank 0: requests of anti-diagonals not yet allowed */
    int64_t allowed;        /* rank 0: requests of anti-diagonals below are placed */
    /* rank 0, owned sets in memory (ns_dist_tiles_gather_tiles): its
     * service takes the others' tiles (ready, later) into its table */
    int taking;
    int (*take)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals);
    void *take_user;
    int64_t n0, n1;         /* the table's bounds */
    uint32_t *tbuf;         /* a tile's values; owned */
    uint64_t nplaced;       /* rank 0: placings answered; the others: made */
    uint64_t nwritten;      /* rank 0: placings written (TAG_WRITTEN) or tiles
                               taken; the others: placings written */
    /* placed P/N rows (ns_dist_tiles_rows_placing, the row kernel) */
    int rplacing;
    MPI_Comm rcomm;         /* their requests, replies and notes */
};

static void msg_free(msg *m)
{
    free(m->buf);
    free(m->req);
    free(m);
}

/* drop the sends that are done (under the lock) */
static void reap(ns_dist_tiles *d)
{
    for (msg **p = &d->pending; *p;) {
        msg *m = *p;
        int done = 0;
        MPI_Testall(m->nreq, m->req, &done, MPI_STATUSES_IGNORE);
        if (!done) {
            p = &m->next;
            continue;
        }
        *p = m->next;
        msg_free(m);
    }
}

/* the rank of a tile row: rows dealt cyclically, deal at a time */
static int owner(const ns_dist_tiles *d, int64_t row)
{
    return (int)((row / d->deal) % d->size);
}

static int mine(void *user, int64_t row)
{
    const ns_dist_tiles *d = user;
    return owner(d, row) == d->rank;
}

/* A tile's (or a block of P bitmaps') message: the header (x0, y0), then
 * either its n values as they are, or, when fewer than half of them are
 * non-zero, the (index, value) pairs of those (a sparse game's P bitmaps:
 * Wythoff's rows have about two P-positions each, so a block of its
 * bitmaps shrinks from N/8 bytes a row to about 16). The receiver tells
 * the two apart by the length: pairs are always shorter. Returns the
 * message's bytes, into *out (malloc'd), or 0 when out of memory. */
static size_t encode(int64_t x0, int64_t y0, const uint32_t *vals, size_t n, unsigned char **out)
{
    const int64_t head[2] = {x0, y0};
    size_t nz = 0;
    for (size_t i = 0; i < n; i++)
        nz += vals[i] != 0;
    const int sparse = 2 * nz < n;
    const size_t bytes = sizeof head + (sparse ? 2 * nz : n) * sizeof *vals;
    unsigned char *buf = malloc(bytes);
    if (!buf)
        return 0;
    memcpy(buf, head, sizeof head);
    uint32_t *v = (uint32_t *)(void *)(buf + sizeof head);
    if (!sparse)
        memcpy(v, vals, n * sizeof *vals);
    else
        for (size_t i = 0; i < n; i++)
            if (vals[i]) {
                *v++ = (uint32_t)i;
                *v++ = vals[i];
            }
    *out = buf;
    return bytes;
}

/* The values of a message of `bytes` bytes (encode) into vals[0, n);
 * 0, or 1 when it is not one of n values. */
static int decode(const unsigned char *buf, size_t bytes, uint32_t *vals, size_t n)
{
    const size_t head = 2 * sizeof(int64_t);
    if (bytes == head + n * sizeof *vals) {
        memcpy(vals, buf + head, n * sizeof *vals);
        return 0;
    }
    if (bytes < head || (bytes - head) % (2 * sizeof *vals) || bytes > head + n * sizeof *vals)
        return 1;
    memset(vals, 0, n * sizeof *vals);
    const size_t pairs = (bytes - head) / (2 * sizeof *vals);
    for (size_t k = 0; k < pairs; k++) {
        uint32_t iv[2];
        memcpy(iv, buf + head + k * sizeof iv, sizeof iv);
        if (iv[0] >= n)
            return 1;
        vals[iv[0]] = iv[1];
    }
    return 0;
}

static int send_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    ns_dist_tiles *d = user;
    /* owned line sets: only the holder (rank 0) takes the tiles */
    if (d->size == 1 || (d->owned && d->rank == 0))
        return 0;
    if (d->placing) {
        /* the tile's placing went to rank 0 from the sink */
        pthread_mutex_lock(&d->lock);
        if (++d->nsent == d->die_after)
            raise(SIGKILL);
        pthread_mutex_unlock(&d->lock);
        return 0;
    }
    msg *m = calloc(1, sizeof *m);
    if (!m)
        return 1;
    const size_t bytes = encode(x0, y0, vals, (size_t)nx * (size_t)ny, &m->buf);
    m->req = malloc((size_t)(d->owned ? 1 : d->size - 1) * sizeof *m->req);
    if (!bytes || !m->req) {
        msg_free(m);
        return 1;
    }
    int rc = 0;
    pthread_mutex_lock(&d->lock);
    for (int r = 0; r < d->size && !rc; r++) {
        if (r == d->rank || (d->owned && r != 0))
            continue;
        rc = MPI_Isend(m->buf, (int)bytes, MPI_BYTE, r, (int)(x0 / d->tile), d->comm, &m->req[m->nreq]) !=
             MPI_SUCCESS;
        if (!rc) {
            m->nreq++;
            d->sent += bytes;
        }
    }
    m->next = d->pending;
    d->pending = m;
    reap(d);
    /* test hook: a rank that dies mid-run (NS_DIST_TEST_DIE_AFTER_TILES) */
    if (++d->nsent == d->die_after)
        raise(SIGKILL);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

/* blocking: the tile (x0, y0) from the rank of its row; the messages of
 * a row come in column order (one sender thread a row, MPI's order) */
static int recv_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    ns_dist_tiles *d = user;
    const int64_t row = x0 / d->tile;
    /* a resume's finished tiles come from rank 0, which holds them */
    const int src = row + y0 / d->tile < d->resumed ? 0 : owner(d, row), tag = (int)row;
    const size_t most = 2 * sizeof(int64_t) + (size_t)nx * (size_t)ny * sizeof *vals;
    unsigned char *buf = NULL;
    int rc = 0, count = 0;
    for (int polls = 0;; polls++) {
        int flag = 0;
        MPI_Status st;
        pthread_mutex_lock(&d->lock);
        if (MPI_Iprobe(src, tag, d->comm, &flag, &st) != MPI_SUCCESS)
            rc = 1;
        else if (flag) {
            MPI_Get_count(&st, MPI_BYTE, &count);
            rc = count < (int)(2 * sizeof(int64_t)) || (size_t)count > most || !(buf = malloc((size_t)count)) ||
                 MPI_Recv(buf, count, MPI_BYTE, src, tag, d->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS;
            if (!rc)
                d->received += (uint64_t)count;
        }
        if (polls % 64 == 0)
            reap(d);
        pthread_mutex_unlock(&d->lock);
        if (rc || flag)
            break;
        if (polls > 16)
            nanosleep(&(struct timespec){0, 20000}, NULL);
    }
    int64_t head[2] = {-1, -1};
    if (!rc)
        memcpy(head, buf, sizeof head);
    if (!rc && (head[0] != x0 || head[1] != y0))
        rc = 1; /* out of order: cannot happen with one sender thread a row */
    if (!rc)
        rc = decode(buf, (size_t)count, vals, (size_t)nx * (size_t)ny);
    free(buf);
    return rc;
}

/* ---- owned line sets: homes and the service thread ---- */

static void count_peak(ns_dist_tiles *d)
{
    if (d->held + d->stored > d->peak)
        d->peak = d->held + d->stored;
}

static int home_of(const ns_dist_tiles *d, int64_t block)
{
    /* the plain case's diagonal blocks go negative */
    return (int)(((block % d->size) + d->size) % d->size);
}

/* Version v of a block of lines is released by tile (v - 1, j) and
 * acquired by tile (v, j) (engine/ns_engine.h: j = the block for the index
 * blocks, v + the block for the diagonal ones); a tile of a resume's
 * finished anti-diagonals is rank 0's (it replays them), any other its
 * row's rank's. When both tiles are this rank's the block stays here, with
 * no message: consecutive rows of one deal, and rank 0's replay of the
 * finished tiles. A resume's hand-overs (versions past the rows) go home.
 * Releaser and acquirer ask this with the same key. */
static int keep_here(const ns_dist_tiles *d, int64_t kind, int64_t block, int64_t v)
{
    if (v < 1 || v >= d->rows)
        return 0;
    /* the tile column of both (engine/ns_engine.h): block (index), v + block
     * (diagonal), floor((block + q v) / a) (the plain case's rays) */
    int64_t j = kind == NS_LINES_INDEX ? block : v + block;
    if (kind >= NS_LINES_RAY) {
        /* block + q v lies in [a j, a j + a): never negative */
        const int64_t a = NS_LINES_RAY_A(kind), q = NS_LINES_RAY_Q(kind);
        j = (block + q * v) / a;
    }
    const int rel = v - 1 + j < d->resumed ? 0 : owner(d, v - 1), acq = v + j < d->resumed ? 0 : owner(d, v);
    return rel == d->rank && acq == d->rank;
}

/* the key (kind, block, version) of a message's or entry's header */
static void key_of(const uint64_t *buf, int64_t key[HEAD])
{
    for (int i = 0; i < HEAD; i++)
        key[i] = (int64_t)buf[i];
}

static int same_key(const int64_t a[HEAD], const int64_t b[HEAD])
{
    return memcmp(a, b, HEAD * sizeof *a) == 0;
}

/* the entry of key (kind, block, version) taken out of the store, or NULL
 * (under the lock) */
static entry *store_take(ns_dist_tiles *d, const int64_t key[HEAD])
{
    for (entry **p = &d->store; *p; p = &(*p)->next) {
        entry *e = *p;
        int64_t k[HEAD];
        key_of(e->buf, k);
        if (same_key(k, key)) {
            *p = e->next;
            d->stored -= e->nbuf * sizeof *e->buf;
            return e;
        }
    }
    return NULL;
}

/* a non-blocking send of buf (owned from now on) on ocomm (under the lock) */
static int osend(ns_dist_tiles *d, void *buf, size_t bytes, int to, int tag)
{
    msg *m = calloc(1, sizeof *m);
    MPI_Request *req = malloc(sizeof *req);
    if (!m || !req || bytes > (size_t)INT32_MAX ||
        MPI_Isend(buf, (int)bytes, MPI_BYTE, to, tag, d->ocomm, req) != MPI_SUCCESS) {
        free(m);
        free(req);
        free(buf);
        return 1;
    }
    m->buf = buf;
    m->req = req;
    m->nreq = 1;
    m->next = d->pending;
    d->pending = m;
    return 0;
}

/* the entry goes to rank to (a get answered; under the lock) */
static int reply(ns_dist_tiles *d, entry *e, int to)
{
    const size_t bytes = e->nbuf * sizeof *e->buf;
    const int rc = osend(d, e->buf, bytes, to, TAG_REPLY);
    d->wsent += bytes;
    free(e);
    return rc;
}

/* a block came to rest here: a get waiting for it is answered (under the lock) */
static int store_add(ns_dist_tiles *d, entry *e)
{
    int64_t key[HEAD];
    key_of(e->buf, key);
    for (getreq **p = &d->gets; *p; p = &(*p)->next) {
        getreq *q = *p;
        if (same_key(q->key, key)) {
            *p = q->next;
            const int to = q->from;
            free(q);
            return reply(d, e, to);
        }
    }
    e->next = d->store;
    d->store = e;
    d->stored += e->nbuf * sizeof *e->buf;
    count_peak(d);
    return 0;
}

/* one message of ocomm taken and handled, if one is there (under the lock):
 * 1 when one was, 0 when none, -1 on failure */
static int serve_one(ns_dist_tiles *d)
{
    int flag = 0, count = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, d->ocomm, &flag, &st) != MPI_SUCCESS)
        return -1;
    if (!flag)
        return 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    uint64_t *buf = malloc(count > 0 ? (size_t)count : 1);
    if (!buf || MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, d->ocomm, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        free(buf);
        return -1;
    }
    if (st.MPI_TAG == TAG_DONE) {
        free(buf);
        d->ndone++;
        return 1;
    }
    if (st.MPI_TAG == TAG_WRITTEN) {
        free(buf);
        d->nwritten++;
        return 1;
    }
    if (st.MPI_TAG == TAG_ADDR) {
        /* the reply to a placing of this rank: its data to write */
        int64_t head[2];
        if ((size_t)count < sizeof head) {
            free(buf);
            return -1;
        }
        memcpy(head, buf, sizeof head);
        for (placing **p = &d->waiting; *p; p = &(*p)->next)
            if ((*p)->x0 == head[0] && (*p)->y0 == head[1]) {
                placing *q = *p;
                *p = q->next;
                q->reply_bytes = (size_t)count - sizeof head;
                memmove(buf, (unsigned char *)buf + sizeof head, q->reply_bytes);
                q->reply = buf;
                q->next = d->jobs;
                d->jobs = q;
                return 1;
            }
        free(buf);
        return -1;
    }
    if ((size_t)count < HEAD * sizeof *buf || count % sizeof *buf) {
        free(buf);
        return -1;
    }
    if (st.MPI_TAG == TAG_GET) {
        int64_t key[HEAD];
        key_of(buf, key);
        free(buf);
        entry *e = store_take(d, key);
        if (e)
            return reply(d, e, st.MPI_SOURCE) ? -1 : 1;
        getreq *q = malloc(sizeof *q);
        if (!q)
            return -1;
        q->from = st.MPI_SOURCE;
        memcpy(q->key, key, sizeof key);
        q->next = d->gets;
        d->gets = q;
        return 1;
    }
    /* TAG_PUT (a block comes to rest at its home) or TAG_REPLY (a block asked for) */
    entry *e = malloc(sizeof *e);
    if (!e) {
        free(buf);
        return -1;
    }
    e->buf = buf;
    e->nbuf = (size_t)count / sizeof *buf;
    d->wreceived += (uint64_t)count;
    return store_add(d, e) ? -1 : 1;
}

/* Rank 0, placed chunks: a placing request, if one is there, taken into
 * d->ready, or d->later when its anti-diagonal is not allowed yet (under
 * the lock): 1 when one was, 0 when none, -1 on failure. The requests
 * come on the tiles' communicator (tag = the tile row), where nothing else
 * comes to rank 0 when the ranks place. */
static int take_request(ns_dist_tiles *d)
{
    int flag = 0, count = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, d->comm, &flag, &st) != MPI_SUCCESS)
        return -1;
    if (!flag)
        return 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    placing *q = calloc(1, sizeof *q);
    void *buf = count >= (int)(2 * sizeof(int64_t)) ? malloc((size_t)count) : NULL;
    if (!q || !buf || MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, d->comm, MPI_STATUS_IGNORE) !=
                          MPI_SUCCESS) {
        free(q);
        free(buf);
        return -1;
    }
    d->received += (uint64_t)count;
    int64_t head[2];
    memcpy(head, buf, sizeof head);
    q->x0 = head[0];
    q->y0 = head[1];
    q->from = st.MPI_SOURCE;
    q->data = buf;
    q->data_bytes = (size_t)count;
    placing **list = q->x0 / d->tile + q->y0 / d->tile < d->allowed ? &d->ready : &d->later;
    q->next = *list;
    *list = q;
    return 1;
}

/* Rank 0: requests of anti-diagonals below upto allowed (under the lock) */
static void allow(ns_dist_tiles *d, int64_t upto)
{
    d->allowed = upto;
    for (placing **p = &d->later; *p;) {
        placing *q = *p;
        if (q->x0 / d->tile + q->y0 / d->tile < upto) {
            *p = q->next;
            q->next = d->ready;
            d->ready = q;
        } else {
            p = &q->next;
        }
    }
}

/* Rank 0, owned sets in memory: a tile's message (encode) into the table
 * through the take hook; 0, or 1 when it is not a tile of the table. */
static int take_one(ns_dist_tiles *d, const placing *q)
{
    const int64_t t = d->tile;
    if (q->x0 < 0 || q->y0 < (d->sym ? q->x0 : 0) || q->x0 % t || q->y0 % t || q->x0 >= d->n0 || q->y0 >= d->n1)
        return 1;
    const int64_t nx = q->x0 + t < d->n0 ? t : d->n0 - q->x0, ny = q->y0 + t < d->n1 ? t : d->n1 - q->y0;
    return decode(q->data, q->data_bytes, d->tbuf, (size_t)(nx * ny)) ||
           d->take(d->take_user, q->x0, q->y0, nx, ny, d->tbuf);
}

/* Rank 0: the requests allowed placed (the place hook) and answered, or
 * the tiles allowed taken (the take hook), off the lock; 1 when one was,
 * 0 when none, -1 on failure. */
static int place_ready(ns_dist_tiles *d)
{
    pthread_mutex_lock(&d->lock);
    placing *ready = d->ready;
    d->ready = NULL;
    pthread_mutex_unlock(&d->lock);
    int r = ready ? 1 : 0;
    while (ready && d->taking) {
        placing *q = ready;
        ready = q->next;
        const int bad = r < 0 || take_one(d, q);
        pthread_mutex_lock(&d->lock);
        if (bad)
            r = -1;
        else
            d->nwritten++;
        pthread_mutex_unlock(&d->lock);
        free(q->data);
        free(q);
    }
    while (ready) {
        placing *q = ready;
        ready = q->next;
        const size_t head = 2 * sizeof(int64_t);
        void *reply = NULL;
        size_t rb = 0;
        unsigned char *out = NULL;
        int bad = r < 0 || d->ph.place(d->ph.user, (unsigned char *)q->data + head, q->data_bytes - head, &reply, &rb);
        if (!bad && (out = malloc(head + rb))) {
            memcpy(out, q->data, head);
            memcpy(out + head, reply, rb);
        }
        pthread_mutex_lock(&d->lock);
        if (bad || !out || osend(d, out, head + rb, q->from, TAG_ADDR))
            r = -1;
        else
            d->nplaced++;
        pthread_mutex_unlock(&d->lock);
        free(reply);
        free(q->data);
        free(q);
    }
    return r;
}

/* Rank 0: the others' tiles (i <= j; the plain case: all) of
 * anti-diagonals below upto, past a resume's finished ones (those the
 * holder replayed): their placings. */
static uint64_t others_tiles(const ns_dist_tiles *d, int64_t upto)
{
    uint64_t n = 0;
    for (int64_t i = 0; i < d->rows; i++) {
        if (owner(d, i) == 0)
            continue;
        const int64_t jmin = d->sym ? i : 0;
        const int64_t j0 = jmin > d->resumed - i ? jmin : d->resumed - i,
                      j1 = upto - 1 - i < d->cols - 1 ? upto - 1 - i : d->cols - 1;
        n += j1 >= j0 ? (uint64_t)(j1 - j0 + 1) : 0;
    }
    return n;
}

/* the engine's gather (ns_tile_exchange; rank 0 with placed chunks) */
static int gather(void *user, int64_t upto, int wait)
{
    ns_dist_tiles *d = user;
    if (!wait) {
        pthread_mutex_lock(&d->lock);
        allow(d, upto);
        pthread_mutex_unlock(&d->lock);
        return 0;
    }
    const uint64_t need = others_tiles(d, upto);
    for (int polls = 0;; polls++) {
        pthread_mutex_lock(&d->lock);
        const uint64_t got = d->nwritten;
        const int bad = d->ofailed;
        pthread_mutex_unlock(&d->lock);
        if (bad || got > need)
            return 1;
        if (got == need)
            return 0;
        if (polls > 16)
            nanosleep(&(struct timespec){0, 20000}, NULL);
    }
}

/* Each rank's service: takes the puts, gets and replies of ocomm while the
 * kernel computes, until every rank's engine is done (or stop). */
static void *service(void *arg)
{
    ns_dist_tiles *d = arg;
    for (int idle = 0;;) {
        pthread_mutex_lock(&d->lock);
        int r = d->ofailed ? 0 : serve_one(d);
        const int places = (d->placing || d->taking) && d->rank == 0;
        if (r >= 0 && !d->ofailed && places) {
            const int q = take_request(d);
            r = q < 0 ? -1 : r + q;
        }
        if (r < 0)
            d->ofailed = 1;
        if (idle % 64 == 0)
            reap(d);
        const int end = d->ndone == d->size || d->stop;
        placing *jobs = d->jobs;
        d->jobs = NULL;
        pthread_mutex_unlock(&d->lock);
        /* rank 0: requests whose turn has come, placed off the lock */
        if (places) {
            const int q = place_ready(d);
            if (q < 0) {
                pthread_mutex_lock(&d->lock);
                d->ofailed = 1;
                pthread_mutex_unlock(&d->lock);
            } else if (q > 0) {
                idle = -1;
            }
        }
        /* placings answered: their bytes into the file, off the lock */
        while (jobs) {
            placing *q = jobs;
            jobs = q->next;
            const int bad = d->ph.write(d->ph.user, q->data, q->data_bytes, q->reply, q->reply_bytes);
            pthread_mutex_lock(&d->lock);
            unsigned char *one = bad ? NULL : malloc(1);
            if (bad || !one || osend(d, one, 1, 0, TAG_WRITTEN))
                d->ofailed = 1;
            else
                d->nwritten++;
            pthread_mutex_unlock(&d->lock);
            free(q->data);
            free(q->reply);
            free(q);
            if (!bad)
                idle = -1;
        }
        if (end)
            break;
        idle = r > 0 ? 0 : idle + 1;
        if (idle > 16)
            nanosleep(&(struct timespec){0, 20000}, NULL);
    }
    return NULL;
}

static int acquire(void *user, int64_t kind, int64_t block, int64_t version, uint64_t bytes, uint64_t **win,
                   size_t *nwin)
{
    ns_dist_tiles *d = user;
    *win = NULL;
    *nwin = 0;
    pthread_mutex_lock(&d->lock);
    d->held += bytes;
    count_peak(d);
    int rc = 0;
    const int64_t key[HEAD] = {kind, block, version};
    if (version > 0 && home_of(d, block) != d->rank && !keep_here(d, kind, block, version)) {
        uint64_t *q = malloc(sizeof key);
        rc = !q;
        if (q) {
            memcpy(q, key, sizeof key);
            rc = osend(d, q, sizeof key, home_of(d, block), TAG_GET);
        }
    }
    pthread_mutex_unlock(&d->lock);
    if (rc || version == 0)
        return rc;  /* version 0: empty sets */
    entry *e = NULL;
    for (int polls = 0; !e; polls++) {
        pthread_mutex_lock(&d->lock);
        e = store_take(d, key);
        rc = d->ofailed;
        pthread_mutex_unlock(&d->lock);
        if (rc)
            return 1;
        if (!e && polls > 16)
            nanosleep(&(struct timespec){0, 20000}, NULL);
    }
    *nwin = e->nbuf - HEAD;
    memmove(e->buf, e->buf + HEAD, *nwin * sizeof *e->buf);
    *win = e->buf;
    free(e);
    return 0;
}

static int release(void *user, int64_t kind, int64_t block, int64_t version, uint64_t bytes, uint64_t *win, size_t nwin)
{
    ns_dist_tiles *d = user;
    pthread_mutex_lock(&d->lock);
    d->held -= bytes;
    pthread_mutex_unlock(&d->lock);
    if (!win)
        return 0;   /* no one needs the block again */
    uint64_t *buf = realloc(win, (nwin + HEAD) * sizeof *buf);
    entry *e = malloc(sizeof *e);
    if (!buf || !e) {
        free(buf ? buf : win);
        free(e);
        return 1;
    }
    memmove(buf + HEAD, buf, nwin * sizeof *buf);
    buf[0] = (uint64_t)kind;
    buf[1] = (uint64_t)block;
    buf[2] = (uint64_t)version;
    e->buf = buf;
    e->nbuf = nwin + HEAD;
    const int home = home_of(d, block);
    int rc;
    pthread_mutex_lock(&d->lock);
    if (home == d->rank || keep_here(d, kind, block, version)) {
        rc = store_add(d, e);
    } else {
        const size_t bytes_out = e->nbuf * sizeof *buf;
        free(e);
        rc = osend(d, buf, bytes_out, home, TAG_PUT);
        d->wsent += bytes_out;
    }
    pthread_mutex_unlock(&d->lock);
    return rc;
}

ns_err ns_dist_tiles_own(ns_dist_tiles *d, ns_tile_exchange *x, int64_t tile_cols, int sym, ns_error *err)
{
    d->cols = tile_cols;
    d->sym = sym;
    if (MPI_Comm_dup(d->comm, &d->ocomm) != MPI_SUCCESS)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: MPI_Comm_dup failed", d->rank);
    d->owned = 1;
    if (pthread_create(&d->service, NULL, service, d) != 0) {
        MPI_Comm_free(&d->ocomm);
        d->owned = 0;
        return ns_error_set(err, NS_EINTERNAL, "rank %d: cannot start the line sets' service thread", d->rank);
    }
    d->running = 1;
    x->acquire = acquire;
    x->release = release;
    return NS_OK;
}

/* owned line sets, after the engine: this rank is done; the service ends
 * when every rank is (the others may still ask for blocks resting here),
 * then the figures are gathered (collective) */
static ns_err own_finish(ns_dist_tiles *d, ns_error *err)
{
    int bad = 0;
    if (d->placing && d->rank != 0) {
        /* every placing written (the service writes them) and on disk
         * before rank 0 hears that this rank is done: its TAG_WRITTENs go
         * before the TAG_DONE, in order */
        for (int polls = 0;; polls++) {
            pthread_mutex_lock(&d->lock);
            const int left = d->nwritten < d->nplaced && !d->ofailed;
            bad = d->ofailed;
            pthread_mutex_unlock(&d->lock);
            if (!left)
                break;
            if (polls > 16)
                nanosleep(&(struct timespec){0, 20000}, NULL);
        }
        if (!bad && d->ph.sync && d->ph.sync(d->ph.user))
            bad = 1;
        if (bad) {
            d->stop = 1;
            pthread_join(d->service, NULL);
            d->running = 0;
            return ns_error_set(err, NS_EIO, "rank %d: writing the chunks of its tiles failed", d->rank);
        }
    }
    pthread_mutex_lock(&d->lock);
    d->ndone++;
    for (int r = 0; r < d->size && !bad; r++)
        if (r != d->rank) {
            unsigned char *one = malloc(1);
            bad = !one || osend(d, one, 1, r, TAG_DONE);
        }
    pthread_mutex_unlock(&d->lock);
    if (bad)
        d->stop = 1;
    pthread_join(d->service, NULL);
    d->running = 0;
    if (bad || d->ofailed)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: the exchange of line sets failed", d->rank);
    if (d->placing && d->rank == 0 && (d->nwritten != d->nplaced || d->ready || d->later))
        return ns_error_set(err, NS_EINTERNAL, "rank 0: %llu tiles placed, %llu written by their ranks%s",
                            (unsigned long long)d->nplaced, (unsigned long long)d->nwritten,
                            d->ready || d->later ? ", requests left" : "");
    size_t left = 0;
    for (entry *e = d->store; e; e = e->next)
        left++;
    if (left || d->gets)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: %zu blocks of line sets left unclaimed, %s", d->rank, left,
                            d->gets ? "gets unanswered" : "no get unanswered");
    uint64_t mine[2] = {d->peak, d->wsent}, all[2] = {0, 0};
    if (MPI_Allreduce(&mine[0], &all[0], 1, MPI_UINT64_T, MPI_MAX, d->comm) != MPI_SUCCESS ||
        MPI_Allreduce(&mine[1], &all[1], 1, MPI_UINT64_T, MPI_SUM, d->comm) != MPI_SUCCESS)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: MPI_Allreduce failed", d->rank);
    d->peak_max = all[0];
    d->wsent_all = all[1];
    return NS_OK;
}

ns_err ns_dist_tiles_placing(ns_dist_tiles *d, ns_tile_exchange *x, const ns_dist_place_hooks *h, ns_error *err)
{
    if (!d->owned || d->size < 2 || (d->rank == 0 && !h->place) || (d->rank != 0 && !h->write))
        return ns_error_set(err, NS_EINTERNAL, "rank %d: placed chunks need owned line sets on several ranks",
                            d->rank);
    pthread_mutex_lock(&d->lock);
    d->ph = *h;
    d->placing = 1;
    pthread_mutex_unlock(&d->lock);
    /* rank 0's threads compute its own rows only: the others' tiles
     * arrive as requests, which its service places */
    x->gather = gather;
    return NS_OK;
}

int ns_dist_tiles_place(ns_dist_tiles *d, int64_t x0, int64_t y0, void *req, size_t req_bytes, void *data,
                        size_t data_bytes)
{
    placing *q = calloc(1, sizeof *q);
    unsigned char *buf = malloc(2 * sizeof(int64_t) + req_bytes);
    if (!q || !buf || !d->placing || d->rank == 0 || req_bytes > (size_t)INT32_MAX - 16) {
        free(q);
        free(buf);
        free(req);
        free(data);
        return 1;
    }
    const int64_t head[2] = {x0, y0};
    memcpy(buf, head, sizeof head);
    memcpy(buf + sizeof head, req, req_bytes);
    free(req);
    q->x0 = x0;
    q->y0 = y0;
    q->data = data;
    q->data_bytes = data_bytes;
    msg *m = calloc(1, sizeof *m);
    MPI_Request *r = malloc(sizeof *r);
    int rc = !m || !r, added = 0;
    pthread_mutex_lock(&d->lock);
    if (!rc) {
        /* waiting before the request leaves: the reply may come at once
         * (on a failure it stays there, freed with d) */
        added = 1;
        q->next = d->waiting;
        d->waiting = q;
        d->nplaced++;
        rc = MPI_Isend(buf, (int)(sizeof head + req_bytes), MPI_BYTE, 0, (int)(x0 / d->tile), d->comm, r) !=
             MPI_SUCCESS;
    }
    if (!rc) {
        m->buf = buf;
        m->req = r;
        m->nreq = 1;
        m->next = d->pending;
        d->pending = m;
        d->sent += sizeof head + req_bytes;
        reap(d);
    }
    pthread_mutex_unlock(&d->lock);
    if (rc) {
        free(m);
        free(r);
        free(buf);
        if (!added) {
            free(q->data);
            free(q);
        }
    }
    return rc;
}

/* ---- placed P/N rows: the row kernel's blocks, each written by its rank ---- */

enum { TAG_ROWS_REQ = 1, TAG_ROWS_REPLY = 2, TAG_ROWS_NOTE = 3 };

ns_err ns_dist_tiles_rows_placing(ns_dist_tiles *d, ns_error *err)
{
    if (d->owned || d->size < 2 || d->rplacing)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: placed rows need the row kernel on several ranks", d->rank);
    if (MPI_Comm_dup(d->comm, &d->rcomm) != MPI_SUCCESS)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: MPI_Comm_dup failed", d->rank);
    d->rplacing = 1;
    return NS_OK;
}

int ns_dist_tiles_rows_owner(const ns_dist_tiles *d, int64_t x0)
{
    return owner(d, x0 / d->tile);
}

/* A message from src with tag on rcomm, waited for by polling (the
 * exchange's sends progress meanwhile); *buf malloc'ed. 0, or 1 on an MPI
 * failure or out of memory. */
static int rows_recv(ns_dist_tiles *d, int src, int tag, unsigned char **buf, int *count)
{
    *buf = NULL;
    *count = 0;
    for (int polls = 0;; polls++) {
        int flag = 0, rc = 0;
        MPI_Status st;
        pthread_mutex_lock(&d->lock);
        if (MPI_Iprobe(src, tag, d->rcomm, &flag, &st) != MPI_SUCCESS) {
            rc = 1;
        } else if (flag) {
            MPI_Get_count(&st, MPI_BYTE, count);
            rc = *count < 0 || !(*buf = malloc(*count > 0 ? (size_t)*count : 1)) ||
                 MPI_Recv(*buf, *count, MPI_BYTE, src, tag, d->rcomm, MPI_STATUS_IGNORE) != MPI_SUCCESS;
        }
        if (polls % 64 == 0)
            reap(d);
        pthread_mutex_unlock(&d->lock);
        if (rc) {
            free(*buf);
            *buf = NULL;
            return 1;
        }
        if (flag)
            return 0;
        if (polls > 16)
            nanosleep(&(struct timespec){0, 20000}, NULL);
    }
}

static int rows_send(ns_dist_tiles *d, const void *buf, size_t bytes, int to, int tag)
{
    if (bytes > (size_t)INT32_MAX)
        return 1;
    pthread_mutex_lock(&d->lock);
    /* not counted in sent: those are the rows' bitmaps (the mpi: line) */
    const int rc = MPI_Send(buf, (int)bytes, MPI_BYTE, to, tag, d->rcomm) != MPI_SUCCESS;
    pthread_mutex_unlock(&d->lock);
    return rc;
}

ns_err ns_dist_tiles_rows_ask(ns_dist_tiles *d, const void *req, size_t req_bytes, void **reply, size_t *reply_bytes,
                              ns_error *err)
{
    *reply = NULL;
    *reply_bytes = 0;
    if (!d->rplacing || d->rank == 0)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: placed rows are not on", d->rank);
    unsigned char *buf = NULL;
    int count = 0;
    if (rows_send(d, req, req_bytes, 0, TAG_ROWS_REQ) || rows_recv(d, 0, TAG_ROWS_REPLY, &buf, &count))
        return ns_error_set(err, NS_EIO, "rank %d: the placing of its rows' chunks with rank 0 failed", d->rank);
    d->nplaced++;
    *reply = buf;
    *reply_bytes = (size_t)count;
    return NS_OK;
}

ns_err ns_dist_tiles_rows_written(ns_dist_tiles *d, const char *failure, ns_error *err)
{
    const char *m = failure ? failure : "";
    if (!d->rplacing || d->rank == 0 || rows_send(d, m, strlen(m), 0, TAG_ROWS_NOTE))
        return ns_error_set(err, NS_EIO, "rank %d: cannot tell rank 0 its rows' chunks are written", d->rank);
    if (!failure)
        d->nwritten++;
    return NS_OK;
}

ns_err ns_dist_tiles_rows_answer(ns_dist_tiles *d, int64_t x0,
                                 int (*place)(void *user, const void *req, size_t req_bytes, void **reply,
                                              size_t *reply_bytes),
                                 void *user, ns_error *err)
{
    const int from = owner(d, x0 / d->tile);
    if (!d->rplacing || d->rank != 0 || from == 0)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: no placing of the rows at %lld to answer", d->rank,
                            (long long)x0);
    unsigned char *buf = NULL;
    int count = 0;
    if (rows_recv(d, from, TAG_ROWS_REQ, &buf, &count))
        return ns_error_set(err, NS_EIO, "rank 0: the request of rank %d for its rows at %lld did not come", from,
                            (long long)x0);
    const int64_t *h = (const int64_t *)(const void *)buf;
    void *reply = NULL;
    size_t rb = 0;
    /* the request must be of this block (the rank's blocks come in order) */
    if ((size_t)count < 2 * sizeof *h || h[1] != x0 || place(user, buf, (size_t)count, &reply, &rb)) {
        free(buf);
        return ns_error_set(err, NS_EIO, "rank 0: cannot place the chunks of rank %d's rows at %lld", from,
                            (long long)x0);
    }
    free(buf);
    const int bad = rows_send(d, reply, rb, from, TAG_ROWS_REPLY);
    free(reply);
    if (bad || rows_recv(d, from, TAG_ROWS_NOTE, &buf, &count))
        return ns_error_set(err, NS_EIO, "rank 0: the placing of rank %d's rows at %lld failed", from, (long long)x0);
    d->nplaced++;
    if (count > 0) {
        ns_error_set(err, NS_EIO, "rank %d: %.*s", from, count < 900 ? count : 900, (const char *)buf);
        free(buf);
        return NS_EIO;
    }
    free(buf);
    d->nwritten++;
    return NS_OK;
}

uint64_t ns_dist_tiles_placed(const ns_dist_tiles *d)
{
    return d ? d->nplaced : 0;
}

ns_err ns_dist_tiles_gather_tiles(ns_dist_tiles *d, ns_tile_exchange *x, const int64_t bounds[2],
                                  int (*take)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                                              const uint32_t *vals),
                                  void *user, ns_error *err)
{
    if (!d->owned || d->size < 2 || d->placing || !take || bounds[0] < 1 || bounds[1] < 1)
        return ns_error_set(err, NS_EINTERNAL, "rank %d: gathering tiles needs owned line sets on several ranks",
                            d->rank);
    if (d->rank != 0)
        return NS_OK;   /* their tiles go to rank 0 as before */
    if (!(d->tbuf = malloc((size_t)d->tile * (size_t)d->tile * sizeof *d->tbuf)))
        return ns_error_set(err, NS_ENOMEM, "rank 0: out of memory");
    pthread_mutex_lock(&d->lock);
    d->take = take;
    d->take_user = user;
    d->n0 = bounds[0];
    d->n1 = bounds[1];
    d->taking = 1;
    pthread_mutex_unlock(&d->lock);
    x->gather = gather;
    return NS_OK;
}

void ns_dist_tiles_sets(const ns_dist_tiles *d, ns_dist_sets *s)
{
    memset(s, 0, sizeof *s);
    s->owned = d->owned;
    s->peak = d->peak;
    s->peak_max = d->peak_max;
    s->sent = d->wsent;
    s->received = d->wreceived;
    s->sent_all = d->wsent_all;
}

ns_dist_tiles *ns_dist_tiles_new(int64_t tile_rows, int64_t tile, ns_tile_exchange *x, ns_error *err)
{
    int level = 0, *ub = NULL, found = 0;
    MPI_Query_thread(&level);
    if (level < MPI_THREAD_SERIALIZED) {
        ns_error_set(err, NS_EINTERNAL, "rank %d: MPI gives thread level %d: the tile exchange needs "
                     "MPI_THREAD_SERIALIZED or more", ns_dist_rank(), level);
        return NULL;
    }
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found);
    if (!found || tile_rows - 1 > (int64_t)*ub) {
        ns_error_set(err, NS_EINVAL, "%lld rows of tiles do not fit MPI's tags (at most %d)", (long long)tile_rows,
                     found ? *ub : 32767);
        return NULL;
    }
    ns_dist_tiles *d = calloc(1, sizeof *d);
    if (!d) {
        ns_error_set(err, NS_ENOMEM, "rank %d: out of memory", ns_dist_rank());
        return NULL;
    }
    if (ns_dist_world_dup(&d->comm, &d->rank, &d->size, err)) {
        free(d);
        return NULL;
    }
    d->rows = tile_rows;
    d->tile = tile;
    d->deal = 1;
    pthread_mutex_init(&d->lock, NULL);
    memset(x, 0, sizeof *x);
    x->mine = mine;
    x->send = send_tile;
    x->recv = recv_tile;
    x->user = d;
    x->ranks = d->size;
    x->holder = d->rank == 0;
    /* test hook: NS_DIST_TEST_DIE_AFTER_TILES=N: rank NS_DIST_TEST_FAIL_RANK
     * (default 1) raises SIGKILL after sending its N-th tile */
    d->die_after = (int64_t)ns_dist_test_die_after("NS_DIST_TEST_DIE_AFTER_TILES", d->rank);
    return d;
}

void ns_dist_tiles_resume(ns_dist_tiles *d, uint64_t units_done)
{
    d->resumed = (int64_t)units_done;
}

void ns_dist_tiles_deal(ns_dist_tiles *d, int64_t rows)
{
    d->deal = rows > 0 ? rows : 1;
}

int64_t ns_dist_tiles_dealt(const ns_dist_tiles *d)
{
    return d->deal;
}

ns_err ns_dist_tiles_finish(ns_dist_tiles *d, ns_error *err)
{
    int bad = 0;
    if (d->owned && d->running && own_finish(d, err))
        return err->code;
    pthread_mutex_lock(&d->lock);
    while (d->pending) {
        msg *m = d->pending;
        d->pending = m->next;
        bad |= MPI_Waitall(m->nreq, m->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS;
        msg_free(m);
    }
    pthread_mutex_unlock(&d->lock);
    return bad ? ns_error_set(err, NS_EINTERNAL, "rank %d: a tile send failed", d->rank) : NS_OK;
}

void ns_dist_tiles_bytes(const ns_dist_tiles *d, uint64_t *sent, uint64_t *received)
{
    *sent = d->sent;
    *received = d->received;
}

void ns_dist_tiles_free(ns_dist_tiles *d)
{
    if (!d)
        return;
    if (d->running) {
        d->stop = 1;
        pthread_join(d->service, NULL);
    }
    while (d->store) {
        entry *e = d->store;
        d->store = e->next;
        free(e->buf);
        free(e);
    }
    while (d->gets) {
        getreq *q = d->gets;
        d->gets = q->next;
        free(q);
    }
    for (int k = 0; k < 4; k++)
        for (placing *q = k == 3 ? d->later : k == 2 ? d->ready : k ? d->jobs : d->waiting, *nx; q; q = nx) {
            nx = q->next;
            free(q->data);
            free(q->reply);
            free(q);
        }
    while (d->pending) {
        msg *m = d->pending;
        d->pending = m->next;
        for (int i = 0; i < m->nreq; i++) {
            MPI_Cancel(&m->req[i]);
            MPI_Request_free(&m->req[i]);
        }
        msg_free(m);
    }
    pthread_mutex_destroy(&d->lock);
    free(d->tbuf);
    if (d->owned)
        MPI_Comm_free(&d->ocomm);
    if (d->rplacing)
        MPI_Comm_free(&d->rcomm);
    MPI_Comm_free(&d->comm);
    free(d);
}

#else /* one process: no exchange */

struct ns_dist_tiles {
    int unused;
};

ns_dist_tiles *ns_dist_tiles_new(int64_t tile_rows, int64_t tile, ns_tile_exchange *x, ns_error *err)
{
    (void)tile_rows;
    (void)tile;
    (void)x;
    ns_error_set(err, NS_EINVAL, "a tile exchange needs an MPI build (-DNS_MPI=ON)");
    return NULL;
}

void ns_dist_tiles_resume(ns_dist_tiles *d, uint64_t units_done)
{
    (void)d;
    (void)units_done;
}

void ns_dist_tiles_deal(ns_dist_tiles *d, int64_t rows)
{
    (void)d;
    (void)rows;
}

int64_t ns_dist_tiles_dealt(const ns_dist_tiles *d)
{
    (void)d;
    return 1;
}

ns_err ns_dist_tiles_finish(ns_dist_tiles *d, ns_error *err)
{
    (void)d;
    (void)err;
    return NS_OK;
}

void ns_dist_tiles_bytes(const ns_dist_tiles *d, uint64_t *sent, uint64_t *received)
{
    (void)d;
    *sent = *received = 0;
}

ns_err ns_dist_tiles_own(ns_dist_tiles *d, ns_tile_exchange *x, int64_t tile_cols, int sym, ns_error *err)
{
    (void)d;
    (void)x;
    (void)tile_cols;
    (void)sym;
    return ns_error_set(err, NS_EINVAL, "owned line sets need an MPI build (-DNS_MPI=ON)");
}

void ns_dist_tiles_sets(const ns_dist_tiles *d, ns_dist_sets *s)
{
    (void)d;
    memset(s, 0, sizeof *s);
}

ns_err ns_dist_tiles_placing(ns_dist_tiles *d, ns_tile_exchange *x, const ns_dist_place_hooks *h, ns_error *err)
{
    (void)d;
    (void)x;
    (void)h;
    return ns_error_set(err, NS_EINVAL, "placed chunks need an MPI build (-DNS_MPI=ON)");
}

int ns_dist_tiles_place(ns_dist_tiles *d, int64_t x0, int64_t y0, void *req, size_t req_bytes, void *data,
                        size_t data_bytes)
{
    (void)d;
    (void)x0;
    (void)y0;
    (void)req_bytes;
    (void)data_bytes;
    free(req);
    free(data);
    return 1;
}

ns_err ns_dist_tiles_rows_placing(ns_dist_tiles *d, ns_error *err)
{
    (void)d;
    return ns_error_set(err, NS_EINVAL, "placed rows need an MPI build (-DNS_MPI=ON)");
}

int ns_dist_tiles_rows_owner(const ns_dist_tiles *d, int64_t x0)
{
    (void)d;
    (void)x0;
    return 0;
}

ns_err ns_dist_tiles_rows_ask(ns_dist_tiles *d, const void *req, size_t req_bytes, void **reply, size_t *reply_bytes,
                              ns_error *err)
{
    (void)d;
    (void)req;
    (void)req_bytes;
    *reply = NULL;
    *reply_bytes = 0;
    return ns_error_set(err, NS_EINVAL, "placed rows need an MPI build (-DNS_MPI=ON)");
}

ns_err ns_dist_tiles_rows_written(ns_dist_tiles *d, const char *failure, ns_error *err)
{
    (void)d;
    (void)failure;
    return ns_error_set(err, NS_EINVAL, "placed rows need an MPI build (-DNS_MPI=ON)");
}

ns_err ns_dist_tiles_rows_answer(ns_dist_tiles *d, int64_t x0,
                                 int (*place)(void *user, const void *req, size_t req_bytes, void **reply,
                                              size_t *reply_bytes),
                                 void *user, ns_error *err)
{
    (void)d;
    (void)x0;
    (void)place;
    (void)user;
    return ns_error_set(err, NS_EINVAL, "placed rows need an MPI build (-DNS_MPI=ON)");
}

uint64_t ns_dist_tiles_placed(const ns_dist_tiles *d)
{
    (void)d;
    return 0;
}

ns_err ns_dist_tiles_gather_tiles(ns_dist_tiles *d, ns_tile_exchange *x, const int64_t bounds[2],
                                  int (*take)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                                              const uint32_t *vals),
                                  void *user, ns_error *err)
{
    (void)d;
    (void)x;
    (void)bounds;
    (void)take;
    (void)user;
    return ns_error_set(err, NS_EINVAL, "gathering tiles needs an MPI build (-DNS_MPI=ON)");
}

void ns_dist_tiles_free(ns_dist_tiles *d)
{
    free(d);
}

#endif
