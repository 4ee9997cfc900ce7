/* ns_h5_direct.c - an HDF5 file driver for the files written front to
 * back (streamed tables): their bytes bypass the page cache and the
 * computing threads.
 *
 * HDF5's sec2 driver hands every chunk to pwrite: a 65536^2 streamed
 * table makes half a million calls of ~10 KB, each a copy into the page
 * cache that the kernel writes back later, on the same cores (measured:
 * 13 s of system time in a 53 s solve). This HDF5 has no direct-I/O
 * driver (H5_HAVE_DIRECT is not set), so this is one, small:
 *
 * - The bytes at and above `base` (a multiple of ALIGN) are gathered in a
 *   window of `block` bytes; when the file's writes pass its end, the
 *   window goes whole to a writer thread, which writes it with O_DIRECT
 *   (aligned buffer, offset and length), and the next window begins
 *   where it ended. HDF5 writes a streamed file nearly in address order
 *   (chunks at its end), so nearly every byte goes this way.
 * - A write below `base` (metadata at the close, a small chunk placed in
 *   a block HDF5 reserved earlier) waits for the writer thread's queue to
 *   empty and is written through an ordinary descriptor. `base` only
 *   grows and each window's range is written only by it, so the direct
 *   and the buffered writes never cover the same page (ALIGN >= the page)
 *   and never race.
 * - A flush (HDF5's, or ns_h5_direct_sync before a checkpoint) waits for
 *   the queue and writes the window's written part (rounded up to ALIGN;
 *   a truncate at the close gives the file its exact end).
 * - Where the file system refuses O_DIRECT (the open, or the first
 *   write, fails with EINVAL: tmpfs, some network file systems) the
 *   writer thread writes the same blocks through the ordinary descriptor:
 *   still off the computing threads, in large writes.
 *
 * NS_H5_DIRECT=0 turns O_DIRECT off (the blocks go through the page
 * cache); NS_H5_DIRECT_BLOCK=BYTES sets the window (a multiple of ALIGN;
 * the tests use a page or two so that every path runs on small files).
 * The files are plain HDF5 files: the driver stores nothing in them, any
 * reader opens them with its default driver. */
#define _GNU_SOURCE /* O_DIRECT */
#include "store/ns_h5_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    ALIGN = 4096,          /* offsets, lengths and buffers of O_DIRECT */
    BLOCK = 8 << 20,       /* the window, by default */
    NBUF = 4               /* windows: one filling, the others queued */
};

typedef struct dfile {
    H5FD_t pub;            /* HDF5's part: first */
    int fd;                /* the ordinary descriptor (what H5Fget_vfd_handle gives) */
    int dfd;               /* O_DIRECT, write only; -1: none */
    int writer;            /* opened for writing: the window and the thread exist */
    haddr_t eoa, eof;
    dev_t dev;
    ino_t ino;
    size_t block;
    uint8_t *buf[NBUF];    /* owned */
    uint8_t *win;          /* buf[k] being filled: bytes [base, base + block) */
    haddr_t base;
    size_t hi;             /* the window's bytes [0, hi) are written or zeroed;
                              past hi they are stale (a window is reused
                              without clearing it) */
    int dirty;             /* written since the window was last written out */
    /* the writer thread, under mu */
    pthread_t th;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct { uint8_t *buf; haddr_t off; size_t len; } q[NBUF];
    int qhead, qn, busy;
    uint8_t *spare[NBUF];
    int nspare;
    int werr;              /* errno of a failed block write; 0 */
    int stop;
    int frozen;            /* ns_h5_direct_freeze: nothing more reaches the file
                              (set under mu) */
    int skip;              /* ns_h5_direct_skip: raw data is not written */
    haddr_t skip_addr;     /* where the last raw data skipped lies */
    size_t skip_len;
} dfile;

static hid_t driver_id = H5I_INVALID_HID;

static size_t block_bytes(void)
{
    const char *e = getenv("NS_H5_DIRECT_BLOCK");
    char *end;
    long long v = e && *e ? strtoll(e, &end, 10) : 0;
    if (e && *e && !*end && v >= ALIGN && v % ALIGN == 0 && v <= (1LL << 30))
        return (size_t)v;
    return BLOCK;
}

static int direct_wanted(void)
{
    const char *e = getenv("NS_H5_DIRECT");
    return !(e && strcmp(e, "0") == 0);
}

static int pwrite_all(int fd, const void *p, size_t n, off_t off)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t w = pwrite(fd, b, n, off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        b += w;
        n -= (size_t)w;
        off += w;
    }
    return 0;
}

/* Read [off, off + n) through fd; what lies past the file's end reads as
 * zeros. */
static int pread_all(int fd, void *p, size_t n, off_t off)
{
    uint8_t *b = p;
    while (n) {
        ssize_t r = pread(fd, b, n, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        if (r == 0) {
            memset(b, 0, n);
            return 0;
        }
        b += r;
        n -= (size_t)r;
        off += r;
    }
    return 0;
}

/* A failure's cause on HDF5's error stack, innermost (ns_h5_fail quotes
 * it): "writing the file: No space left on device". */
static void say(const char *fn, const char *what, int e)
{
    H5Epush2(H5E_DEFAULT, __FILE__, fn, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_WRITEERROR, "%s: %s", what,
             strerror(e));
    errno = e;
}

/* ---- the writer thread ---- */

static void *writer_main(void *arg)
{
    dfile *f = arg;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        while (!f->qn && !f->stop)
            pthread_cond_wait(&f->cv, &f->mu);
        if (!f->qn)
            break;
        const int k = f->qhead;
        uint8_t *buf = f->q[k].buf;
        const haddr_t off = f->q[k].off;
        const size_t len = f->q[k].len;
        f->qhead = (f->qhead + 1) % NBUF;
        f->qn--;
        f->busy = 1;
        const int dfd = f->dfd, frozen = f->frozen;
        pthread_mutex_unlock(&f->mu);
        int e = frozen ? 0 : pwrite_all(dfd >= 0 ? dfd : f->fd, buf, len, (off_t)off);
        if (e == EINVAL && dfd >= 0) {
            /* the file system takes O_DIRECT at the open but not the
             * write: every block from now on through the page cache */
            e = pwrite_all(f->fd, buf, len, (off_t)off);
            pthread_mutex_lock(&f->mu);
            close(f->dfd);
            f->dfd = -1;
            pthread_mutex_unlock(&f->mu);
        }
        pthread_mutex_lock(&f->mu);
        if (e && !f->werr)
            f->werr = e;
        f->spare[f->nspare++] = buf;
        f->busy = 0;
        pthread_cond_broadcast(&f->cv);
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* Wait until every queued block is written; the first error of a block
 * write (as errno), or 0. */
static int drain(dfile *f)
{
    if (!f->started)
        return 0;
    pthread_mutex_lock(&f->mu);
    while (f->qn || f->busy)
        pthread_cond_wait(&f->cv, &f->mu);
    const int e = f->werr;
    pthread_mutex_unlock(&f->mu);
    return e;
}

/* The window's written part, rounded up to ALIGN with zeros: its length. */
static size_t padded(dfile *f)
{
    const size_t len = (f->hi + ALIGN - 1) / ALIGN * ALIGN;
    memset(f->win + f->hi, 0, len - f->hi);
    return len;
}

/* Queue the window's first len bytes (a multiple of ALIGN, written or
 * zeroed) and take a fresh window for the bytes from next_base on. */
static int push_window(dfile *f, size_t len, haddr_t next_base)
{
    pthread_mutex_lock(&f->mu);
    if (f->werr) {
        const int e = f->werr;
        pthread_mutex_unlock(&f->mu);
        return e;
    }
    if (len) {
        const int k = (f->qhead + f->qn) % NBUF;
        f->q[k].buf = f->win;
        f->q[k].off = f->base;
        f->q[k].len = len;
        f->qn++;
        pthread_cond_broadcast(&f->cv);
        while (!f->nspare)
            pthread_cond_wait(&f->cv, &f->mu);
        f->win = f->spare[--f->nspare];
    }
    pthread_mutex_unlock(&f->mu);
    f->base = next_base;
    f->hi = 0;
    f->dirty = 0;
    return 0;
}

/* Write the window's written part where it belongs, now (the window
 * stays: later writes may fill it further). */
static int write_window(dfile *f)
{
    int e = drain(f);
    if (e || !f->dirty)
        return e;
    const size_t len = padded(f);
    e = pwrite_all(f->dfd >= 0 ? f->dfd : f->fd, f->win, len, (off_t)f->base);
    if (e == EINVAL && f->dfd >= 0) {
        close(f->dfd);
        f->dfd = -1;
        e = pwrite_all(f->fd, f->win, len, (off_t)f->base);
    }
    if (!e)
        f->dirty = 0;
    return e;
}

/* ---- the driver's callbacks ---- */

static H5FD_t *d_open(const char *name, unsigned flags, hid_t fapl, haddr_t maxaddr)
{
    (void)fapl;
    if (!name || !*name || maxaddr == HADDR_UNDEF)
        return NULL;
    int o = (flags & H5F_ACC_RDWR) ? O_RDWR : O_RDONLY;
    if (flags & H5F_ACC_TRUNC)
        o |= O_TRUNC;
    if (flags & H5F_ACC_CREAT)
        o |= O_CREAT;
    if (flags & H5F_ACC_EXCL)
        o |= O_EXCL;
    dfile *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->dfd = -1;
    if ((f->fd = open(name, o | O_CLOEXEC, 0666)) < 0) {
        free(f);
        return NULL;
    }
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        goto fail;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->eof = (haddr_t)st.st_size;
    f->writer = (flags & H5F_ACC_RDWR) != 0;
    if (!f->writer)
        return &f->pub;
    f->block = block_bytes();
    for (int k = 0; k < NBUF; k++)
        if (posix_memalign((void **)&f->buf[k], ALIGN, f->block) != 0) {
            f->buf[k] = NULL;
            goto fail;
        }
    f->win = f->buf[0];
    for (int k = 1; k < NBUF; k++)
        f->spare[f->nspare++] = f->buf[k];
    /* an existing file's bytes are left where they are: the windows
     * begin past its end */
    f->base = (f->eof + ALIGN - 1) / ALIGN * ALIGN;
    if (direct_wanted())
        f->dfd = open(name, O_WRONLY | O_DIRECT | O_CLOEXEC);
    if (pthread_mutex_init(&f->mu, NULL) != 0)
        goto fail;
    if (pthread_cond_init(&f->cv, NULL) != 0) {
        pthread_mutex_destroy(&f->mu);
        goto fail;
    }
    /* signals stay with the other threads (a SIGTERM's handler, say) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    f->started = pthread_create(&f->th, NULL, writer_main, f) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!f->started) {
        pthread_cond_destroy(&f->cv);
        pthread_mutex_destroy(&f->mu);
        goto fail;
    }
    return &f->pub;
fail:
    for (int k = 0; k < NBUF; k++)
        free(f->buf[k]);
    if (f->dfd >= 0)
        close(f->dfd);
    close(f->fd);
    free(f);
    return NULL;
}

static herr_t d_close(H5FD_t *file)
{
    dfile *f = (dfile *)file;
    int e = 0;
    if (f->writer) {
        e = f->frozen ? 0 : write_window(f);
        pthread_mutex_lock(&f->mu);
        f->stop = 1;
        pthread_cond_broadcast(&f->cv);
        pthread_mutex_unlock(&f->mu);
        pthread_join(f->th, NULL);
        if (!e && !f->frozen)
            e = f->werr;
        pthread_cond_destroy(&f->cv);
        pthread_mutex_destroy(&f->mu);
        for (int k = 0; k < NBUF; k++)
            free(f->buf[k]);
    }
    if (f->dfd >= 0)
        close(f->dfd);
    if (close(f->fd) != 0 && !e)
        e = errno;
    free(f);
    if (e)
        say("d_close", "writing the file", e);
    return e ? -1 : 0;
}

static int d_cmp(const H5FD_t *a, const H5FD_t *b)
{
    const dfile *f = (const dfile *)a, *g = (const dfile *)b;
    if (f->dev != g->dev)
        return f->dev < g->dev ? -1 : 1;
    if (f->ino != g->ino)
        return f->ino < g->ino ? -1 : 1;
    return 0;
}

static herr_t d_query(const H5FD_t *file, unsigned long *flags)
{
    (void)file;
    if (flags)
        *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
                 H5FD_FEAT_AGGREGATE_SMALLDATA;
    return 0;
}

static haddr_t d_get_eoa(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const dfile *)file)->eoa;
}

static herr_t d_set_eoa(H5FD_t *file, H5FD_mem_t type, haddr_t addr)
{
    (void)type;
    ((dfile *)file)->eoa = addr;
    return 0;
}

static haddr_t d_get_eof(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const dfile *)file)->eof;
}

static herr_t d_get_handle(H5FD_t *file, hid_t fapl, void **handle)
{
    (void)fapl;
    if (!handle)
        return -1;
    *handle = &((dfile *)file)->fd;
    return 0;
}

static herr_t d_read(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size, void *buffer)
{
    (void)type;
    (void)dxpl;
    dfile *f = (dfile *)file;
    uint8_t *out = buffer;
    if (addr == HADDR_UNDEF || addr + size < addr || addr + size > f->eoa)
        return -1;
    if (f->writer && drain(f))
        return -1;
    while (size) {
        size_t n = size;
        int e = 0;
        if (f->writer && addr >= f->base && addr < f->base + f->block) {
            const size_t off = (size_t)(addr - f->base);
            n = f->block - off < n ? f->block - off : n;
            const size_t have = off < f->hi ? (f->hi - off < n ? f->hi - off : n) : 0;
            memcpy(out, f->win + off, have);
            memset(out + have, 0, n - have);   /* never written: a hole */
        } else {
            if (f->writer && addr < f->base && addr + n > f->base)
                n = (size_t)(f->base - addr);
            e = pread_all(f->fd, out, n, (off_t)addr);
        }
        if (e) {
            say("d_read", "reading the file", e);
            return -1;
        }
        out += n;
        addr += n;
        size -= n;
    }
    return 0;
}

static herr_t d_write(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size, const void *buffer)
{
    (void)dxpl;
    dfile *f = (dfile *)file;
    const uint8_t *in = buffer;
    if (!f->writer || f->frozen || addr == HADDR_UNDEF || addr + size < addr || addr + size > f->eoa) {
        errno = f->frozen ? EBADF : EINVAL;
        return -1;
    }
    const haddr_t end = addr + size;
    if (f->skip && type == H5FD_MEM_DRAW) {
        /* another process writes these bytes (ns_h5_direct_skip) */
        f->skip_addr = addr;
        f->skip_len = size;
        size = 0;
    }
    while (size) {
        int e = 0;
        size_t n;
        if (addr < f->base) {
            /* below the window: after the blocks queued, through the page cache */
            n = (size_t)(f->base - addr) < size ? (size_t)(f->base - addr) : size;
            if (!(e = drain(f)))
                e = pwrite_all(f->fd, in, n, (off_t)addr);
        } else if (addr < f->base + f->block) {
            const size_t off = (size_t)(addr - f->base);
            n = f->block - off < size ? f->block - off : size;
            if (off > f->hi)
                memset(f->win + f->hi, 0, off - f->hi);   /* a gap: zeros, as on disk */
            memcpy(f->win + off, in, n);
            f->hi = off + n > f->hi ? off + n : f->hi;
            f->dirty = 1;
            if (f->hi == f->block)
                e = push_window(f, f->block, f->base + f->block);
        } else {
            /* past the window: it goes as far as it was written, the next
             * one begins at this write (the bytes between were never
             * written: they stay a hole) */
            n = 0;
            e = push_window(f, f->dirty ? padded(f) : 0, addr / ALIGN * ALIGN);
        }
        if (e) {
            say("d_write", "writing the file", e);
            return -1;
        }
        in += n;
        addr += n;
        size -= n;
    }
    f->eof = end > f->eof ? end : f->eof;
    return 0;
}

static herr_t d_flush(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    (void)dxpl;
    (void)closing;
    dfile *f = (dfile *)file;
    if (!f->writer)
        return 0;
    if (f->frozen)
        return -1;
    const int e = write_window(f);
    if (e)
        say("d_flush", "writing the file", e);
    return e ? -1 : 0;
}

static herr_t d_truncate(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    dfile *f = (dfile *)file;
    if (!f->writer)
        return 0;
    if (d_flush(file, dxpl, closing) < 0)
        return -1;
    struct stat st;
    if (fstat(f->fd, &st) != 0 || ((haddr_t)st.st_size != f->eoa && ftruncate(f->fd, (off_t)f->eoa) != 0)) {
        say("d_truncate", "setting the file's end", errno);
        return -1;
    }
    f->eof = f->eoa;
    return 0;
}

static herr_t d_lock(H5FD_t *file, hbool_t rw)
{
    dfile *f = (dfile *)file;
    if (flock(f->fd, (rw ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 || errno == ENOSYS)
        return 0;
    return -1;
}

static herr_t d_unlock(H5FD_t *file)
{
    dfile *f = (dfile *)file;
    if (flock(f->fd, LOCK_UN) == 0 || errno == ENOSYS)
        return 0;
    return -1;
}

static herr_t d_terminate(void)
{
    driver_id = H5I_INVALID_HID;
    return 0;
}

static const H5FD_class_t d_class = {
    .name = "nimsieve_direct",
    .maxaddr = (haddr_t)(((uint64_t)1 << 62) - 1),
    .fc_degree = H5F_CLOSE_WEAK,
    .terminate = d_terminate,
    .open = d_open,
    .close = d_close,
    .cmp = d_cmp,
    .query = d_query,
    .get_eoa = d_get_eoa,
    .set_eoa = d_set_eoa,
    .get_eof = d_get_eof,
    .get_handle = d_get_handle,
    .read = d_read,
    .write = d_write,
    .flush = d_flush,
    .truncate = d_truncate,
    .lock = d_lock,
    .unlock = d_unlock,
    .fl_map = H5FD_FLMAP_DICHOTOMY,
};

static hid_t driver(void)
{
    if (driver_id < 0 || H5Iis_valid(driver_id) <= 0)
        driver_id = H5FDregister(&d_class);
    return driver_id;
}

ns_err ns_h5_direct_fapl(hid_t fapl, const char *path, ns_error *err)
{
    const hid_t id = driver();
    if (id < 0 || H5Pset_driver(fapl, id, NULL) < 0)
        return ns_h5_fail(err, NS_EIO, "%s: cannot set up the file driver for direct writes", path);
    return NS_OK;
}

/* The driver's state of an open file, or NULL when it is not ours. */
static dfile *ours(hid_t file)
{
    if (file < 0 || driver() < 0)
        return NULL;
    hid_t fapl = H5Fget_access_plist(file);
    if (fapl < 0) {
        H5Eclear2(H5E_DEFAULT);
        return NULL;
    }
    const hid_t d = H5Pget_driver(fapl);
    H5Pclose(fapl);
    void *handle = NULL;
    if (d != driver_id || H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || !handle) {
        H5Eclear2(H5E_DEFAULT);
        return NULL;
    }
    return (dfile *)((char *)handle - offsetof(dfile, fd));
}

ns_err ns_h5_direct_sync(hid_t file, const char *path, ns_error *err)
{
    dfile *f = ours(file);
    if (!f || !f->writer)
        return NS_OK;
    const int e = f->frozen ? EBADF : write_window(f);
    if (e)
        return ns_error_set(err, NS_EIO, "%s: cannot write: %s", path, strerror(e));
    return NS_OK;
}

int ns_h5_direct_freeze(hid_t file)
{
    dfile *f = ours(file);
    if (!f)
        return 0;
    if (f->writer) {
        (void)drain(f);   /* the blocks under way land; the window is dropped */
        pthread_mutex_lock(&f->mu);
        f->frozen = 1;
        pthread_mutex_unlock(&f->mu);
    }
    return 1;
}

int ns_h5_direct_active(hid_t file)
{
    dfile *f = ours(file);
    if (!f || !f->writer)
        return 0;
    return f->base == (haddr_t)1 << 62 ? 3 : f->dfd >= 0 ? 2 : 1;
}

ns_err ns_h5_direct_share(hid_t file, const char *path, ns_error *err)
{
    dfile *f = ours(file);
    if (!f || !f->writer)
        return ns_error_set(err, NS_EINTERNAL, "%s: not written through the direct-I/O driver", path);
    const int e = f->frozen ? EBADF : write_window(f);
    if (e)
        return ns_error_set(err, NS_EIO, "%s: cannot write: %s", path, strerror(e));
    /* every later write is below the window: written at once, buffered */
    f->base = (haddr_t)1 << 62;
    f->hi = 0;
    f->dirty = 0;
    return NS_OK;
}

ns_err ns_h5_direct_skip(hid_t file, int on, uint64_t *addr, uint64_t *len)
{
    dfile *f = ours(file);
    if (!f || !f->writer || f->base != (haddr_t)1 << 62)
        return NS_EINTERNAL;
    if (on) {
        f->skip = 1;
        f->skip_addr = HADDR_UNDEF;
        f->skip_len = 0;
        return NS_OK;
    }
    f->skip = 0;
    if (addr)
        *addr = f->skip_addr == HADDR_UNDEF ? UINT64_MAX : (uint64_t)f->skip_addr;
    if (len)
        *len = f->skip_len;
    return f->skip_addr == HADDR_UNDEF ? NS_EINTERNAL : NS_OK;
}
