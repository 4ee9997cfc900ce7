/* ns_h5_ledger.c - the chunk ledger of a streamed .part file (see
 * ns_h5_internal.h): part of the HDF5 layer, so it includes hdf5.h.
 *
 * Why: HDF5 writes a file's metadata (the chunk index, the superblock) in
 * place when it flushes, and a kill in the middle of a flush leaves an
 * index that points past the file's recorded end: such a .part cannot be
 * opened again. So a checkpoint does not rely on the .part's metadata at
 * all: it records where each finished chunk lies (address, size, and the
 * Fletcher-32 sum its last 4 bytes carry), and a resume reads the chunks
 * there with plain reads, each checked against its sum, never opening the
 * .part with HDF5. Chunks are written once and never moved (direct chunk
 * writes, no frees of raw data), so what a checkpoint records stays valid
 * whatever the run does after it. */
#include "store/ns_h5_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/ns_chunkfilter.h"

ns_err ns_h5_ledger_add(ns_h5_ledger *l, int ds, uint64_t off0, uint64_t off1)
{
    if (l->n == l->cap) {
        uint64_t nc = l->cap ? 2 * l->cap : 1024;
        ns_h5_ledger_entry *p = realloc(l->e, (size_t)nc * sizeof *p);
        if (!p)
            return NS_ENOMEM;
        l->e = p;
        l->cap = nc;
    }
    l->e[l->n++] = (ns_h5_ledger_entry){.ds = (uint64_t)ds, .off = {off0, off1}};
    return NS_OK;
}

void ns_h5_ledger_free(ns_h5_ledger *l)
{
    free(l->e);
    memset(l, 0, sizeof *l);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

ns_err ns_h5_ledger_resolve(ns_h5_ledger *l, const hid_t *dsets, const char *path, const char *file, ns_error *err)
{
    if (l->nres == l->n)
        return NS_OK;
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ns_error_set(err, NS_EIO, "%s: cannot open %s to record its chunks: %s", path, file, strerror(errno));
    ns_err rc = NS_OK;
    for (; l->nres < l->n; l->nres++) {
        ns_h5_ledger_entry *e = &l->e[l->nres];
        const hsize_t off[2] = {(hsize_t)e->off[0], (hsize_t)e->off[1]};
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        hsize_t size = 0;
        if (H5Dget_chunk_info_by_coord(dsets[e->ds], off, &mask, &addr, &size) < 0) {
            rc = ns_h5_fail(err, NS_EIO, "%s: cannot look up the chunk at %llu,%llu of %s", path,
                            (unsigned long long)off[0], (unsigned long long)off[1], file);
            break;
        }
        if (addr == HADDR_UNDEF || size == 0) { /* not stored: the fill value */
            e->addr = e->size = e->sum = 0;
            continue;
        }
        uint8_t tail[4];
        if (size < 4 || mask != 0 || pread(fd, tail, 4, (off_t)(addr + size - 4)) != 4) {
            rc = ns_error_set(err, NS_EIO, "%s: cannot read the end of the chunk at %llu,%llu of %s", path,
                              (unsigned long long)off[0], (unsigned long long)off[1], file);
            break;
        }
        e->addr = (uint64_t)addr;
        e->size = (uint64_t)size;
        e->sum = le32(tail);
    }
    close(fd);
    return rc;
}

ns_err ns_h5_ledger_read(int fd, const ns_h5_ledger_entry *e, void **buf, size_t *cap, const char *file,
                         ns_error *err)
{
    if (e->size > *cap) {
        void *p = realloc(*buf, (size_t)e->size);
        if (!p)
            return ns_error_set(err, NS_ENOMEM, "%s: out of memory for a chunk of %llu bytes", file,
                                (unsigned long long)e->size);
        *buf = p;
        *cap = (size_t)e->size;
    }
    uint8_t *b = *buf;
    size_t got = 0;
    while (got < e->size) {
        ssize_t r = pread(fd, b + got, (size_t)e->size - got, (off_t)(e->addr + got));
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got != e->size || e->size < 4 || le32(b + e->size - 4) != (uint32_t)e->sum ||
        ns_fletcher32(b, (size_t)e->size - 4) != (uint32_t)e->sum)
        return ns_error_set(err, NS_EFORMAT, "%s: the chunk at %llu,%llu is not where its checkpoint records it "
                            "(%llu bytes at %llu, Fletcher-32 %08llx): damaged, or another run's file", file,
                            (unsigned long long)e->off[0], (unsigned long long)e->off[1],
                            (unsigned long long)e->size, (unsigned long long)e->addr, (unsigned long long)e->sum);
    return NS_OK;
}

ns_err ns_h5_ledger_promote(const char *pending, const char *part, const char *path, ns_error *err)
{
    /* a kill before the rename leaves both files; the next resume takes
     * the pending one (ns_h5_ledger_locate). Test hook: the moment held. */
    ns_h5_test_delay("NS_TEST_PROMOTE_DELAY");
    if (rename(pending, part) != 0)
        return ns_error_set(err, NS_EIO, "%s: cannot rename %s to %s: %s", path, pending, part, strerror(errno));
    return ns_h5_sync_dir_of(part, err);
}

/* Does file hold the first and the last stored chunk of the n that e records? */
static int holds(const ns_h5_ledger_entry *e, uint64_t n, const char *file)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    void *buf = NULL;
    size_t cap = 0;
    int ok = 1;
    const ns_h5_ledger_entry *first = NULL, *last = NULL;
    for (uint64_t i = 0; i < n && !first; i++)
        if (e[i].size)
            first = &e[i];
    for (uint64_t i = n; i > 0 && !last; i--)
        if (e[i - 1].size)
            last = &e[i - 1];
    ns_error err = {0};
    if (first && (ns_h5_ledger_read(fd, first, &buf, &cap, file, &err) ||
                  ns_h5_ledger_read(fd, last, &buf, &cap, file, &err)))
        ok = 0;
    free(buf);
    close(fd);
    return ok;
}

ns_err ns_h5_ledger_locate(const ns_h5_ledger_entry *e, uint64_t n, const char *part, const char *pending,
                           const char *path, const char *ckpt_path, ns_error *err)
{
    struct stat sb;
    const int has_part = stat(part, &sb) == 0, has_pending = stat(pending, &sb) == 0;
    if (!has_part && !has_pending)
        return ns_error_set(err, NS_EINVAL, "%s: the table the checkpoint %s goes with is missing: %s", part,
                            ckpt_path, strerror(ENOENT));
    if (has_part && holds(e, n, part))
        return NS_OK;
    /* a run killed between writing a checkpoint that records its fresh
     * file and renaming that file over the .part */
    if (has_pending && holds(e, n, pending)) {
        if (rename(pending, part) != 0)
            return ns_error_set(err, NS_EIO, "%s: cannot rename %s to %s: %s", path, pending, part, strerror(errno));
        return ns_h5_sync_dir_of(part, err);
    }
    return ns_error_set(err, NS_EFORMAT, "%s: does not hold the chunks its checkpoint %s records (damaged, or the "
                        "file of another run); --force starts over", has_part ? part : pending, ckpt_path);
}
