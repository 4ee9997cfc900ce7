/* ns_h5_internal.h - shared by the files of the HDF5 layer only
 * (ns_h5.c, ns_h5_region.c); not for the rest of the code. */
#ifndef NS_H5_INTERNAL_H
#define NS_H5_INTERNAL_H

#include "ns_error.h"

/* Set err to the formatted message plus " (HDF5: innermost message)" when
 * HDF5 left one on its error stack, clear the stack, and return code. */
ns_err ns_h5_fail(ns_error *err, ns_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
