#include <geodesic.h>
// For proj_info(): the PROJ release the binary runs with (`landmark-near --version`).
#include <proj.h>
