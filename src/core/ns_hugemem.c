/* ns_hugemem.c - see ns_hugemem.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "core/ns_hugemem.h"

#include <stdlib.h>
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

void ns_huge_free(void *p, size_t mapped)
{
    if (p && mapped)
        munmap(p, mapped);
    else
        free(p);
}
