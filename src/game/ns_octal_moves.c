/* ns_octal_moves.c - the options of one heap of a take-and-break game,
 * each as the heaps it leaves (see ns_octal.h): for `query` and `move` on a
 * sum of heaps, and for the sequence engine on rule files. */
#include "game/ns_octal.h"

int ns_octal_foreach_option(const ns_octal *o, int64_t n, ns_heap_opt_fn fn, void *user, ns_error *err)
{
    int64_t p[3];
    if (n < 1)
        return 0;
    if (o->kind == NS_TB_RULE) {
        if (!o->rule_options)
            return -(int)ns_error_set(err, NS_EINTERNAL, "a rule heap game without its moves");
        return o->rule_options(o->rule, n, fn, user, err) < 0 ? -1 : 0;
    }
    if (o->kind == NS_TB_GRUNDY) { /* a + b = n, 1 <= a < b */
        for (int64_t a = 1; 2 * a < n; a++) {
            p[0] = a, p[1] = n - a;
            if (fn(user, 0, p, 2))
                return 1;
        }
        return 0;
    }
    for (int t = 0; t <= o->tmax && t <= n; t++) {
        const unsigned d = o->d[t];
        const int64_t m = n - t;
        if ((d & 1) && m == 0 && fn(user, t, p, 0))
            return 1;
        if ((d & 2) && m >= 1 && t >= 1) {
            p[0] = m;
            if (fn(user, t, p, 1))
                return 1;
        }
        if (d & 4)
            for (int64_t a = 1; 2 * a <= m; a++) {
                p[0] = a, p[1] = m - a;
                if (fn(user, t, p, 2))
                    return 1;
            }
        if (d & 8)
            for (int64_t a = 1; 3 * a <= m; a++)
                for (int64_t b = a; 2 * b <= m - a; b++) {
                    p[0] = a, p[1] = b, p[2] = m - a - b;
                    if (fn(user, t, p, 3))
                        return 1;
                }
    }
    return 0;
}
