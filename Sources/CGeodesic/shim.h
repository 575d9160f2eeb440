// PROJ's geodesic.h (Karney's geodesics) and, for proj_info() (the PROJ release the binary runs
// with, `landmark-near --version`), proj.h. PROJ is opened on first use rather than linked
// (SharedLibrary.swift says why); its functions are reached through the table below, each field
// declared with the type of the function in the header (`__typeof__` of a declaration does not
// link to it), filled by dlsym (LANDMARK_RESOLVE, ../CShared/landmark_resolve.h).
#include "../CShared/landmark_resolve.h"
#include <geodesic.h>
#include <proj.h>
#include <stdint.h>

struct landmark_proj {
    __typeof__(geod_init) *_Nonnull geod_init;
    __typeof__(geod_inverse) *_Nonnull geod_inverse;
    __typeof__(geod_direct) *_Nonnull geod_direct;
    __typeof__(geod_geninverse) *_Nonnull geod_geninverse;
    __typeof__(geod_lineinit) *_Nonnull geod_lineinit;
    __typeof__(geod_inverseline) *_Nonnull geod_inverseline;
    __typeof__(geod_genposition) *_Nonnull geod_genposition;
    __typeof__(geod_polygonarea) *_Nonnull geod_polygonarea;
    __typeof__(proj_info) *_Nonnull proj_info;
};

/// The table of `library` (a handle from dlopen); `*missing` names the first function it lacks
/// (the table is then incomplete and must not be used), else is set to NULL.
static inline struct landmark_proj landmark_proj_resolve(void *_Nonnull library, const char *_Nullable *_Nonnull missing) {
    struct landmark_proj table;
    memset(&table, 0, sizeof table);  // never used when incomplete, but not left undefined
    *missing = NULL;
    LANDMARK_RESOLVE(geod_init, geod_init);
    LANDMARK_RESOLVE(geod_inverse, geod_inverse);
    LANDMARK_RESOLVE(geod_direct, geod_direct);
    LANDMARK_RESOLVE(geod_geninverse, geod_geninverse);
    LANDMARK_RESOLVE(geod_lineinit, geod_lineinit);
    LANDMARK_RESOLVE(geod_inverseline, geod_inverseline);
    LANDMARK_RESOLVE(geod_genposition, geod_genposition);
    LANDMARK_RESOLVE(geod_polygonarea, geod_polygonarea);
    LANDMARK_RESOLVE(proj_info, proj_info);
    return table;
}
