/* ns_h5_errors.c - HDF5's errors turned into ours (ns_h5_fail), HDF5
 * kept quiet (ns_h5_quiet), and the names of a file's companions
 * (ns_h5_path_plus); see ns_h5_internal.h. The bottom of the store:
 * every other ns_h5*.c file calls these, and they call no other file of
 * the store. */
#include "store/ns_h5_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

typedef struct detail_ctx {
    char *buf;
    size_t len;
} detail_ctx;

/* The sec2 driver's messages carry a time stamp, a descriptor, a buffer
 * address and sizes around the system's error text: keep what it said
 * ("file write failed") and the text ("No space left on device"). */
static void shorten_io(char *buf, size_t len, const char *desc)
{
    const char *m = strstr(desc, "error message = '");
    const char *colon = strchr(desc, ':');
    if (!m || !colon || colon > m) {
        snprintf(buf, len, "%s", desc);
        return;
    }
    m += strlen("error message = '");
    const char *end = strchr(m, '\'');
    snprintf(buf, len, "%.*s: %.*s", (int)(colon - desc), desc, (int)(end ? end - m : (ptrdiff_t)strlen(m)), m);
}

static herr_t detail_cb(unsigned n, const H5E_error2_t *e, void *user)
{
    (void)n;
    detail_ctx *c = user;
    if (c->buf[0] == '\0' && e->desc && e->desc[0])
        shorten_io(c->buf, c->len, e->desc);
    return 0;
}

/* The innermost (most specific) message on HDF5's error stack, then clear
 * the stack. buf is "" when the stack was empty. */
static void h5_detail(char *buf, size_t len)
{
    detail_ctx c = {buf, len};
    buf[0] = '\0';
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, detail_cb, &c);
    H5Eclear2(H5E_DEFAULT);
}

/* See ns_h5_internal.h. */
ns_err ns_h5_fail(ns_error *err, ns_err code, const char *fmt, ...)
{
    char what[NS_ERROR_MSG_LEN], detail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    h5_detail(detail, sizeof detail);
    if (detail[0])
        return ns_error_set(err, code, "%s (HDF5: %s)", what, detail);
    return ns_error_set(err, code, "%s", what);
}

void ns_h5_quiet(void)
{
    /* before the library starts (the first call only): no exit handler.
     * HDF5 1.10's handler flushes files a failed write left open and
     * crashes on them (seen after EFBIG); every file we finish is closed
     * explicitly, so there is nothing for it to do. */
    static int once = 0;
    if (!once) {
        once = 1;
        H5dont_atexit();
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

char *ns_h5_path_plus(const char *path, const char *suffix)
{
    const size_t la = strlen(path), lb = strlen(suffix);
    char *p = malloc(la + lb + 1);
    if (p) {
        memcpy(p, path, la);
        memcpy(p + la, suffix, lb + 1);
    }
    return p;
}
