/* ns_error.c - see ns_error.h */
#include "core/ns_error.h"

#include <stdarg.h>
#include <stdio.h>

ns_err ns_error_set(ns_error *e, ns_err code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        e->code = code;
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        /* one line: a control character quoted from the input (a newline
         * in an argument) shows as '?', a tab as a blank */
        for (char *c = e->msg; *c; c++)
            if (*c == '\t')
                *c = ' ';
            else if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    }
    return code;
}

void ns_error_clear(ns_error *e)
{
    if (e) {
        e->code = NS_OK;
        e->msg[0] = '\0';
    }
}

const char *ns_err_name(ns_err code)
{
    switch (code) {
    case NS_OK: return "ok";
    case NS_EINVAL: return "invalid input";
    case NS_ENOMEM: return "out of memory";
    case NS_EIO: return "I/O error";
    case NS_EFORMAT: return "bad file format";
    case NS_ERANGE: return "out of range";
    case NS_EGAME: return "invalid game";
    case NS_EINTR: return "interrupted";
    default: return "internal error";
    }
}
