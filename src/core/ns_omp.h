/* ns_omp.h - OpenMP behind small macros that compile away without it. */
#ifndef NS_OMP_H
#define NS_OMP_H

#ifdef _OPENMP
#include <omp.h>
#define NS_PRAGMA(x) _Pragma(#x)
#define NS_OMP_FOR(nthreads) NS_PRAGMA(omp parallel for schedule(static) num_threads(nthreads))
#define NS_OMP_FOR_DYNAMIC(nthreads) NS_PRAGMA(omp parallel for schedule(dynamic, 64) num_threads(nthreads))
#define NS_OMP_FOR_DYNAMIC1(nthreads) NS_PRAGMA(omp parallel for schedule(dynamic, 1) num_threads(nthreads))
/* parallel only when cond holds: small loops run on the calling thread */
#define NS_OMP_FOR_IF(nthreads, cond) NS_PRAGMA(omp parallel for schedule(static) num_threads(nthreads) if(cond))
#define NS_OMP_FOR_DYNAMIC_IF(nthreads, cond) NS_PRAGMA(omp parallel for schedule(dynamic, 64) num_threads(nthreads) if(cond))
static inline int ns_omp_max_threads(void) { return omp_get_max_threads(); }
static inline int ns_omp_thread_num(void) { return omp_get_thread_num(); }
#else
#define NS_PRAGMA(x)
#define NS_OMP_FOR(nthreads)
#define NS_OMP_FOR_DYNAMIC(nthreads)
#define NS_OMP_FOR_DYNAMIC1(nthreads)
#define NS_OMP_FOR_IF(nthreads, cond)
#define NS_OMP_FOR_DYNAMIC_IF(nthreads, cond)
static inline int ns_omp_max_threads(void) { return 1; }
static inline int ns_omp_thread_num(void) { return 0; }
#endif

#endif
