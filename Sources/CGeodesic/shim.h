// PROJ's geodesic.h (Karney's geodesics) and, for proj_info() (the PROJ release the binary runs
// with, `landmark-near --version`), proj.h. PROJ is opened on first use rather than linked
// (SharedLibrary.swift says why); its functions are reached through the table below, each field
// declared with the type of the function in the header (`__typeof__` of a declaration does not
// link to it), filled by dlsym.
#include <dlfcn.h>
#include <geodesic.h>
#include <proj.h>
#include <stdint.h>
#include <string.h>

struct landmark_proj {
    __typeof__(geod_init) *_Nonnull geod_init;
    __typeof__(geod_inverse) *_Nonnull geod_inverse;
    __typeof__(geod_direct) *_Nonnull geod_direct;
    __typeof__(proj_info) *_Nonnull proj_info;
};

#define LANDMARK_PROJ_RESOLVE(symbol)                                  \
    do {                                                               \
        void *address = dlsym(library, #symbol);                       \
        if (address == NULL) { *missing = #symbol; return table; }     \
        table.symbol = (__typeof__(table.symbol))(uintptr_t)address;   \
    } while (0)

/// The table of `library` (a handle from dlopen); `*missing` names the first function it lacks
/// (the table is then incomplete and must not be used), else is set to NULL.
static inline struct landmark_proj landmark_proj_resolve(void *_Nonnull library, const char *_Nullable *_Nonnull missing) {
    struct landmark_proj table;
    memset(&table, 0, sizeof table);  // never used when incomplete, but not left undefined
    *missing = NULL;
    LANDMARK_PROJ_RESOLVE(geod_init);
    LANDMARK_PROJ_RESOLVE(geod_inverse);
    LANDMARK_PROJ_RESOLVE(geod_direct);
    LANDMARK_PROJ_RESOLVE(proj_info);
    return table;
}
#undef LANDMARK_PROJ_RESOLVE
