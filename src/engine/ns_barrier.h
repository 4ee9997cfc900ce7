/* ns_barrier.h - a spinning barrier for the threads of one OpenMP team.
 *
 * The general engine meets at a barrier after every rank level, thousands
 * of times a solve. OpenMP's own barrier puts waiting threads to sleep
 * when OMP_WAIT_POLICY=PASSIVE (the test suite sets it, users may), and
 * every wake-up is then a system call and an interrupt: measured on a
 * 2-core VM, a-Wythoff 2048^2 on 2 threads took 0.54 s with passive
 * waits against 0.42 s with spinning ones. This barrier spins on a shared
 * word whatever the policy, and yields the core after a while so that a
 * machine with more threads than cores still makes progress.
 *
 * Sense-reversing: every thread keeps its own sense; the last one to
 * arrive resets the count and flips the shared sense, which releases the
 * others. What a thread wrote before the barrier is seen by every thread
 * after it (the count is a release sequence; the flip a release store that
 * the waiters acquire). */
#ifndef NS_BARRIER_H
#define NS_BARRIER_H

#include <sched.h>

typedef struct ns_barrier {
    int n;          /* threads that meet here */
    int count;      /* arrived in this round */
    int sense;      /* flips when a round completes */
    char pad[64 - 3 * sizeof(int)];
} ns_barrier;

/* A barrier for n threads; each thread's *my_sense starts at 0. */
static inline void ns_barrier_init(ns_barrier *b, int n)
{
    b->n = n;
    b->count = 0;
    b->sense = 0;
}

static inline void ns_barrier_wait(ns_barrier *b, int *my_sense)
{
    const int s = !*my_sense;
    *my_sense = s;
    if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
        __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&b->sense, s, __ATOMIC_RELEASE);
        return;
    }
    for (unsigned spin = 0; __atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) != s; spin++) {
        if (spin > 2000)
            sched_yield();   /* more threads than cores: let the others run */
#if defined(__x86_64__) || defined(__i386__)
        else
            __builtin_ia32_pause();
#endif
    }
}

/* Thread 0's side of a barrier that runs serial work between two phases:
 * ns_barrier_hold returns once every other thread has arrived (they call
 * ns_barrier_wait as usual and keep waiting); thread 0 then does what must
 * run while no other thread works (callbacks, small levels) and lets them
 * go with ns_barrier_release. One meeting instead of two: the general
 * engine used a second barrier per level for its progress and checkpoint
 * callbacks. Thread 0 must not also call ns_barrier_wait in that round.
 * What the others wrote before arriving is seen by thread 0 after hold,
 * and what thread 0 wrote before release by them after their wait. */
static inline void ns_barrier_hold(ns_barrier *b)
{
    for (unsigned spin = 0; __atomic_load_n(&b->count, __ATOMIC_ACQUIRE) != b->n - 1; spin++) {
        if (spin > 2000)
            sched_yield();
#if defined(__x86_64__) || defined(__i386__)
        else
            __builtin_ia32_pause();
#endif
    }
}

static inline void ns_barrier_release(ns_barrier *b, int *my_sense)
{
    const int s = !*my_sense;
    *my_sense = s;
    __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->sense, s, __ATOMIC_RELEASE);
}

#endif
