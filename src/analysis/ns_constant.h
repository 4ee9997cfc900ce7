/* ns_constant.h - which simple constant lies in an interval the data imply.
 *
 * The data give an interval, not a number: a_n = floor(n c) for n = 1..N
 * holds exactly for c in [max a_n / n, min (a_n + 1) / n), an interval with
 * rational ends (ns_qinterval). A constant is named only when it lies in
 * that interval; membership is decided in exact integer arithmetic.
 *
 * Simplest means smallest height. Every real algebraic number x of degree
 * 1 or 2 has one minimal polynomial A x^2 + B x + C with integer,
 * coprime coefficients and a positive leading one (A = 0 for a rational);
 * its height is max(|A|, |B|, |C|). phi = (1+sqrt(5))/2 (x^2 - x - 1) has
 * height 1, sqrt(2) height 2, 3/2 height 3, Fraenkel's a-Wythoff constant
 * (2 - a + sqrt(a^2 + 4)) / 2 (x^2 + (a - 2) x - a) height a. Within one
 * height a rational comes before a quadratic irrational, then the smaller
 * discriminant B^2 - 4AC, then the smaller value.
 *
 * The search runs over heights 1, 2, ... and stops at the first height with
 * a number in the interval, or when a hit would no longer mean anything:
 * when the numbers of height <= h within 1/2 of the interval's middle,
 * times the interval's width, exceed NS_CONSTANT_CHANCE (about the chance
 * that an interval this wide, placed at random near there, holds one of
 * them). The result then says "none", with the simplest number in the
 * interval (if one was met) as a remark. So a constant is named only when
 * the data hold it and single it out. */
#ifndef NS_CONSTANT_H
#define NS_CONSTANT_H

#include <stdint.h>

/* The largest height searched, and the chance above which a hit is not
 * reported. */
#define NS_CONSTANT_HMAX 100
#define NS_CONSTANT_CHANCE 0.05
/* Continued-fraction terms kept (of each end, and of the constant). */
#define NS_CONSTANT_CF 48

/* The reals x with lo_num/lo_den <= x <= hi_num/hi_den (< when hi_open,
 * > when lo_open); denominators > 0. */
typedef struct ns_qinterval {
    int64_t lo_num, lo_den, hi_num, hi_den;
    int lo_open, hi_open;
} ns_qinterval;

typedef enum { NS_RECOG_NONE = 0, NS_RECOG_RATIONAL = 1, NS_RECOG_QUADRATIC = 2 } ns_recog_kind;

/* A number of degree <= 2 as (p + q sqrt(d)) / r: r >= 1, gcd(p, q, r) = 1;
 * d >= 2 squarefree and q != 0 for a quadratic irrational; q = 0 and d = 1
 * for a rational p / r. */
typedef struct ns_qnumber {
    int64_t p, q, d, r;
    int64_t poly[3];      /* minimal polynomial poly[0] x^2 + poly[1] x + poly[2] */
    int64_t height;       /* max |poly[i]| */
    double value;
    char text[96];        /* "(1+sqrt(5))/2", "sqrt(2)", "-1+sqrt(5)", "3/2", "2" */
} ns_qnumber;

typedef struct ns_recog {
    ns_recog_kind kind;       /* NONE unless a number was found and is significant */
    ns_qnumber c;             /* the constant (kind != NONE) */
    int have_simplest;        /* kind == NONE: a number was met in the interval, */
    ns_qnumber simplest;      /* ... but too complex to mean anything: this one */
    int64_t searched_to;      /* heights 1..searched_to were searched */
    double chance;            /* for the height of c (or simplest), as above */
    int rivals;               /* other numbers of the same height in the interval */
    ns_qnumber rival;         /* the first of them */
    ns_qinterval iv;          /* the interval (fit intervals rounded outwards) */
    double width;             /* hi - lo */
    /* evidence: the continued fractions of the interval's ends (exact,
     * finite; cut at NS_CONSTANT_CF terms, *_more = 1 then) and the terms
     * they share (every number in the interval starts with them) */
    int ncf_lo, ncf_hi, cf_lo_more, cf_hi_more, nterms;
    int64_t cf_lo[NS_CONSTANT_CF], cf_hi[NS_CONSTANT_CF], cf[NS_CONSTANT_CF];
    /* the constant's own continued fraction: rational: finite (ccf_n
     * terms); quadratic: ccf[0..pre-1] then ccf[pre..pre+per-1] repeated */
    int ccf_n, pre, per;
    int64_t ccf[NS_CONSTANT_CF];
} ns_recog;

/* Recognise a constant known to lie in iv (ends of absolute value below
 * 2^50, denominators below 2^50; else the result is NONE with nothing
 * searched). Fills *out completely. */
void ns_constant_recognize(const ns_qinterval *iv, ns_recog *out);

/* The same for x known to within se (a standard error): the interval
 * x +- 3 se, at least +- 1e-9 relative, rounded outwards to fractions with
 * a power-of-two denominator. */
void ns_constant_recognize_fit(double x, double se, ns_recog *out);

/* 1 when x lies in iv, decided exactly. */
int ns_qnumber_in(const ns_qnumber *x, const ns_qinterval *iv);

#endif
