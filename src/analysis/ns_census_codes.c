/* ns_census_codes.c - the census's list of octal codes (ns_census.h), in a
 * file of its own: the sweep's octal(D) range reads it and the census runs
 * on the sweep driver, so neither file calls the other both ways. */
#include "analysis/ns_census.h"

size_t ns_census_count(int digits)
{
    if (digits < 1 || digits > NS_CENSUS_MAX_DIGITS)
        return 0;
    size_t n = 7;
    for (int i = 1; i < digits; i++)
        n *= 8;
    return n;
}

/* The codes are the base-8 numbers d1..dD with dD != 0, in increasing
 * order: write i = 7q + r (0 <= r < 7), the i-th is 8q + r + 1. */
void ns_census_code(int digits, size_t i, char buf[NS_CENSUS_CODE_LEN])
{
    size_t lead = 1;
    for (int k = 1; k < digits; k++)
        lead *= 8;
    const size_t v = i / 7 * 8 + i % 7 + 1;
    buf[0] = '0';
    buf[1] = '.';
    size_t p = lead;
    for (int k = 0; k < digits; k++, p /= 8)
        buf[2 + k] = (char)('0' + v / p % 8);
    buf[2 + digits] = '\0';
}
