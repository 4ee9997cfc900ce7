/* ns_hugemem.c - see ns_hugemem.h. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE, mremap */
#include "core/ns_hugemem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *ns_huge_calloc(size_t bytes, size_t map_from, size_t *mapped)
{
    *mapped = 0;
    if (bytes >= map_from) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
#ifdef MADV_HUGEPAGE
            madvise(p, bytes, MADV_HUGEPAGE);
#endif
            *mapped = bytes;
            return p;
        }
    }
    return calloc(bytes ? bytes : 1, 1);
}

void *ns_huge_grow(void *p, size_t old_bytes, size_t new_bytes, size_t map_from, size_t *mapped)
{
    if (*mapped) {
        void *q = mremap(p, *mapped, new_bytes, MREMAP_MAYMOVE);
        if (q == MAP_FAILED)
            return NULL;
#ifdef MADV_HUGEPAGE
        madvise(q, new_bytes, MADV_HUGEPAGE);
#endif
        *mapped = new_bytes;
        return q;
    }
    if (new_bytes >= map_from) {
        size_t m;
        void *q = ns_huge_calloc(new_bytes, map_from, &m);
        if (!q)
            return NULL;
        memcpy(q, p, old_bytes);
        free(p);
        *mapped = m;
        return q;
    }
    void *q = realloc(p, new_bytes ? new_bytes : 1);
    if (!q)
        return NULL;
    memset((char *)q + old_bytes, 0, new_bytes - old_bytes);
    return q;
}

void ns_huge_free(void *p, size_t mapped)
{
    if (p && mapped)
        munmap(p, mapped);
    else
        free(p);
}
