// Shared by the shims of the libraries opened on first use rather than linked (CCurl, CGeodesic, CNATS,
// CMicroHTTPD, CMosquitto; SharedLibrary.swift says why): how each fills its table of functions. Not a module
// of its own; each shim includes it.
#ifndef LANDMARK_NEAR_RESOLVE_H
#define LANDMARK_NEAR_RESOLVE_H
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

/// Inside a shim's `landmark_…_resolve(library, missing)`, whose table is the local `table`:
/// sets `table.field` to the address of `symbol` in `library`, or names `symbol` in `*missing`
/// and returns the table as it is (incomplete: never used).
#define LANDMARK_RESOLVE(field, symbol)                             \
    do {                                                            \
        void *address = dlsym(library, #symbol);                    \
        if (address == NULL) { *missing = #symbol; return table; }  \
        table.field = (__typeof__(table.field))(uintptr_t)address;  \
    } while (0)

#endif
