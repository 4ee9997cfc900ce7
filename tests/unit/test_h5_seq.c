/* test_h5_seq.c - a streamed heap-game sequence (ns_h5_seq.c): values that
 * outgrow uint8 and then uint16 after whole chunks were stored (the stored
 * chunks are rewritten wider), a checkpoint, suspend and resume into a
 * fresh table, and the finished file equal to ns_h5_write's of the same
 * table: values read back, /grundy's stored type and the chunk shapes of
 * every dataset (raw HDF5). The values come from a closed formula. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>

#include "store/ns_h5.h"
#include "game/ns_table.h"
#include "testutil.h"

#define N 2600000
#define STEP 4096

/* i % 11 (uint8) to 1.1e6, i % 1000 (uint16) to 2.2e6, then i % 70001
 * (max 70000: uint32) */
static uint32_t g_of(int64_t i)
{
    return i < 1100000 ? (uint32_t)(i % 11) : i < 2200000 ? (uint32_t)(i % 1000) : (uint32_t)(i % 70001);
}

static ns_table *new_table_of(int elem)
{
    ns_error err = {0};
    const int64_t b[1] = {N};
    ns_table *t = ns_table_new(1, b, elem, 0, &err);
    if (!t) {
        fprintf(stderr, "ns_table_new: %s\n", err.msg);
        exit(2);
    }
    for (uint64_t i = 0; i < t->ncells; i++)
        ns_table_set(t, i, ns_table_invalid(t));
    return t;
}

static ns_table *new_table(void)
{
    return new_table_of(4);
}

/* G(i) = v into t, widened first when v needs more, as the sequence
 * engines do */
static void put(ns_table *t, int64_t i, uint32_t v)
{
    ns_error err = {0};
    if (v >= ns_table_invalid(t))
        CHECKF(ns_table_widen(t, ns_table_elem_for(v), (uint64_t)i, &err) == NS_OK, "%s", err.msg);
    ns_table_set(t, (uint64_t)i, v);
}

/* raw: the stored size of name's type and its chunk (0 when absent) */
static void raw_info(const char *p, const char *name, size_t *tsize, hsize_t *chunk)
{
    *tsize = 0;
    chunk[0] = chunk[1] = 0;
    hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = f >= 0 ? H5Dopen2(f, name, H5P_DEFAULT) : -1;
    if (d >= 0) {
        hid_t ty = H5Dget_type(d), pl = H5Dget_create_plist(d);
        *tsize = H5Tget_size(ty);
        H5Pget_chunk(pl, 2, chunk);
        H5Tclose(ty);
        H5Pclose(pl);
        H5Dclose(d);
    }
    if (f >= 0)
        H5Fclose(f);
}

int main(void)
{
    char dir[64], a[128], b[128], ck[128];
    snprintf(dir, sizeof dir, "/tmp/test_h5_seq.XXXXXX");
    if (!mkdtemp(dir))
        return 2;
    snprintf(a, sizeof a, "%s/stream.h5", dir);
    snprintf(b, sizeof b, "%s/whole.h5", dir);
    snprintf(ck, sizeof ck, "%s/stream.h5.ckpt", dir);
    ns_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "octal");
    m.complete = 1;
    ns_error err = {0};
    /* the first run in a child that stops after its checkpoint, as a solve
     * does (the suspended .part's frozen close leaves its HDF5 file id
     * open; the process ends then) */
    const int64_t stop = 1700000 / STEP * STEP;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        ns_table *t = new_table();
        ns_h5_seq *s = ns_h5_seq_open(a, N, 2, 0, &err);
        CHECKF(s != NULL, "%s", err.msg);
        /* up to `stop`: one uint8 chunk stored, then widened to uint16 */
        for (int64_t d = STEP; s && d <= stop; d += STEP) {
            for (int64_t i = d - STEP; i < d; i++)
                ns_table_set(t, (uint64_t)i, g_of(i));
            CHECKF(ns_h5_seq_append(s, t, d, &err) == NS_OK, "%s", err.msg);
        }
        ns_h5_ckpt c = {.units_done = (uint64_t)(stop / STEP), .units_total = (N + STEP - 1) / STEP};
        snprintf(c.kernel, sizeof c.kernel, "rare-common");
        CHECKF(s && ns_h5_seq_checkpoint(s, t, stop, ck, &m, &c, &err) == NS_OK, "%s", err.msg);
        ns_h5_seq_suspend(s);
        ns_table_free(t);
        _exit(ns_test_failed ? 1 : 0);
    }
    int wst = 0;
    CHECK(pid > 0 && waitpid(pid, &wst, 0) == pid && WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
    /* resume into a fresh table of one byte a value, as the engines start
     * (game/ns_table.h): widened to the values read back (up to 999), and
     * every value before stop read back */
    ns_table *t = new_table_of(1);
    ns_h5_seq *s = ns_h5_seq_resume(a, ck, t, 1, stop, &err);
    CHECKF(s != NULL, "%s", err.msg);
    CHECKF(t->elem == 2, "the table is %d bytes a value after the resume, expected 2", t->elem);
    int bad = 0;
    for (int64_t i = 0; s && i < stop; i++)
        bad += ns_table_get(t, (uint64_t)i) != g_of(i);
    CHECKF(bad == 0, "%d values read back wrong", bad);
    for (int64_t d = stop + STEP; s; d += STEP) {
        const int64_t e = d < N ? d : N;
        for (int64_t i = d - STEP; i < e; i++)
            put(t, i, g_of(i));
        CHECKF(ns_h5_seq_append(s, t, e, &err) == NS_OK, "%s", err.msg);
        if (e == N)
            break;
    }
    ns_table_stats st;
    CHECKF(s && ns_h5_seq_close(s, t, &m, &st, &err) == NS_OK, "%s", err.msg);
    CHECK(access(a, F_OK) == 0);
    CHECKF(ns_h5_write(b, t, &m, 0, &err) == NS_OK, "%s", err.msg);

    /* the streamed file read back equals the closed formula */
    ns_table *r = NULL;
    ns_meta rm;
    memset(&rm, 0, sizeof rm);
    CHECKF(ns_h5_read(a, &r, &rm, &err) == NS_OK, "%s", err.msg);
    if (r) {
        bad = 0;
        for (int64_t i = 0; i < N; i++)
            bad += ns_table_get(r, (uint64_t)i) != g_of(i);
        CHECKF(bad == 0, "%d values of the streamed file wrong", bad);
        ns_table_free(r);
        ns_meta_free(&rm);
    }
    /* the same layout as ns_h5_write's: uint32 /grundy, same chunks */
    const char *names[3] = {"/grundy", "/pn", "/p_positions"};
    for (int k = 0; k < 3; k++) {
        size_t sa, sb;
        hsize_t ca[2], cb[2];
        raw_info(a, names[k], &sa, ca);
        raw_info(b, names[k], &sb, cb);
        CHECKF(sa == sb && sa > 0 && ca[0] == cb[0] && ca[1] == cb[1], "%s: type size %zu vs %zu, chunk %llu vs %llu",
               names[k], sa, sb, (unsigned long long)ca[0], (unsigned long long)cb[0]);
    }
    size_t gs;
    hsize_t gc[2];
    raw_info(a, "/grundy", &gs, gc);
    CHECK(gs == 4);
    ns_table_free(t);
    remove(a);
    remove(b);
    remove(ck);
    rmdir(dir);
    ssize_t nobj = H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL);
    /* none (the widenings in the resumed run left two before) */
    CHECKF(nobj == 0, "%zd HDF5 files or objects left open", nobj);
    return TEST_REPORT();
}
