// zlib's inflate: gzip-compressed fix inputs read as they stream (Debian: zlib1g-dev).
#include <zlib.h>

// inflateInit2 is a macro; Swift sees this function instead.
static inline int landmarknear_inflate_init_gzip(z_stream *stream) {
    // 16 + MAX_WBITS: a gzip header and trailer, not a zlib one.
    return inflateInit2(stream, 16 + MAX_WBITS);
}

// deflateInit2 is a macro too: gzip output at `level` (the tests make gzip inputs with it).
static inline int landmarknear_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}
