/* ns_octal.c - see ns_octal.h */
#include "game/ns_octal.h"

#include <stdio.h>
#include <string.h>

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void describe_char(char c, char *buf, size_t len)
{
    if (c >= ' ' && c < 127)
        snprintf(buf, len, "'%c'", c);
    else
        snprintf(buf, len, "byte 0x%02x", (unsigned)(unsigned char)c);
}

ns_err ns_octal_parse(const char *text, ns_octal *out, ns_error *err)
{
    memset(out, 0, sizeof *out);
    out->kind = NS_TB_CODE;
    if (!text || !*text)
        return ns_error_set(err, NS_EINVAL, "the octal code is empty: expected d0.d1d2... such as 0.77 (Kayles)");
    const char *dot = strchr(text, '.');
    const size_t len = strlen(text);
    char what[16];
    /* every character in turn, so that the first bad one is named */
    for (size_t i = 0; i < len; i++) {
        const char c = text[i];
        if (c == '.' && text + i == dot)
            continue;
        if (hex_value(c) >= 0)
            continue;
        describe_char(c, what, sizeof what);
        if (c == '.' && strncmp(text + i, "...", 3) != 0)
            return ns_error_set(err, NS_EINVAL, "octal code '%s': a second '.' at position %zu: expected d0.d1d2... "
                                "with one '.', e.g. 0.77", text, i + 1);
        if (c == '(' || c == ')' || c == '.' || c == '[')
            return ns_error_set(err, NS_EINVAL, "octal code '%s': %s at position %zu: repeating digits are not supported; "
                                "expected a finite code d0.d1d2...dk such as 0.77", text, what, i + 1);
        return ns_error_set(err, NS_EINVAL, "octal code '%s': %s at position %zu is not a digit (expected 0-9 or a-f "
                            "in d0.d1d2..., e.g. 0.77)", text, what, i + 1);
    }
    if (!dot)
        return ns_error_set(err, NS_EINVAL, "octal code '%s': no '.': expected d0.d1d2... such as 0.77 (d0, before the "
                            "'.', is for taking no tokens)", text);
    const size_t before = (size_t)(dot - text);
    if (before > 1)
        return ns_error_set(err, NS_EINVAL, "octal code '%s': '%c' at position 2: expected one digit d0 before the '.'",
                            text, text[1]);
    const size_t after = len - before - 1;
    if (after == 0)
        return ns_error_set(err, NS_EINVAL, "octal code '%s': no digit after the '.': expected d0.d1d2... such as 0.77",
                            text);
    if (after >= NS_OCTAL_MAX_DIGITS)
        return ns_error_set(err, NS_EINVAL, "octal code '%s': %zu digits after the '.', at most %d expected", text, after,
                            NS_OCTAL_MAX_DIGITS - 1);
    out->d[0] = (uint8_t)(before ? hex_value(text[0]) : 0);
    if (out->d[0] & 3)
        return ns_error_set(err, NS_EINVAL, "octal code '%s': d0 = %c at position 1 has bit 1 or 2: taking no tokens "
                            "can only split a heap, so d0 may use bits 4 and 8 only (0, 4, 8 or c)", text, text[0]);
    for (size_t i = 0; i < after; i++)
        out->d[i + 1] = (uint8_t)hex_value(dot[1 + i]);
    out->tmax = 0;
    for (int t = 0; t < NS_OCTAL_MAX_DIGITS; t++)
        if (out->d[t]) {
            out->tmax = t;
            const int h = out->d[t] & 8 ? 3 : out->d[t] & 4 ? 2 : out->d[t] & 2 ? 1 : 0;
            if (h > out->max_heaps)
                out->max_heaps = h;
        }
    /* canonical text: lower case, no trailing zeros, at least one digit after the '.' */
    static const char digits[] = "0123456789abcdef";
    size_t w = 0;
    out->code[w++] = digits[out->d[0]];
    out->code[w++] = '.';
    for (int t = 1; t <= (out->tmax > 0 ? out->tmax : 1); t++)
        out->code[w++] = digits[out->d[t]];
    out->code[w] = '\0';
    return NS_OK;
}

void ns_octal_grundy(ns_octal *out)
{
    memset(out, 0, sizeof *out);
    out->kind = NS_TB_GRUNDY;
    snprintf(out->code, sizeof out->code, "grundy");
    out->tmax = 0;
    out->max_heaps = 2;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    const uint64_t cap = UINT64_MAX / 4;
    return b >= cap || a >= cap - b ? cap : a + b;
}

uint64_t ns_octal_max_options(const ns_octal *o, int64_t n)
{
    if (n < 1)
        return 0;
    if (o->kind == NS_TB_RULE)
        return o->rule_max_options ? o->rule_max_options(o->rule, n) : UINT64_MAX / 4;
    const uint64_t m0 = (uint64_t)(n - 1); /* the largest heap */
    if (o->kind == NS_TB_GRUNDY)
        return m0 / 2;
    uint64_t sum = 0;
    for (int t = 0; t <= o->tmax && (uint64_t)t <= m0; t++) {
        const uint64_t m = m0 - (uint64_t)t; /* tokens left: splits of m bound those of smaller heaps */
        if (o->d[t] & 3)
            sum = sat_add(sum, 1);
        if (o->d[t] & 4)
            sum = sat_add(sum, m / 2);
        if (o->d[t] & 8) /* partitions of m into three parts: at most m^2/12 + 1 */
            sum = sat_add(sum, m > ((uint64_t)1 << 31) ? UINT64_MAX / 4 : m * m / 12 + 1);
    }
    return sum;
}
