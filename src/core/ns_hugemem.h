/* ns_hugemem.h - zeroed memory for large arrays that are touched all over:
 * from a certain size mapped anonymously with transparent huge pages
 * (madvise), so that first touches fault once per 2 MiB and TLB misses are
 * rare; smaller ones from calloc. */
#ifndef NS_HUGEMEM_H
#define NS_HUGEMEM_H

#include <stddef.h>

/* bytes of zeroed memory; mapped when bytes >= map_from (then *mapped gets
 * the size, else 0). NULL when out of memory. Free with ns_huge_free. */
void *ns_huge_calloc(size_t bytes, size_t map_from, size_t *mapped);

/* Grow p (from ns_huge_calloc, old_bytes long, *mapped as it gave) to
 * new_bytes >= old_bytes, keeping its contents; the bytes after old_bytes
 * are zero. A mapped block is remapped (no copy, no second block at once);
 * a block from calloc is reallocated, and mapped when it reaches map_from.
 * Returns the new block and updates *mapped; NULL when out of memory (p is
 * then untouched and still owned by the caller). */
void *ns_huge_grow(void *p, size_t old_bytes, size_t new_bytes, size_t map_from, size_t *mapped);

/* Free p from ns_huge_calloc (NULL is a no-op). */
void ns_huge_free(void *p, size_t mapped);

#endif
