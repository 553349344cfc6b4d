#ifndef NAVLOG_CZLIB_SHIM_H
#define NAVLOG_CZLIB_SHIM_H
// zlib's deflate and inflate, from the system (zlib1g-dev; macOS ships it).
#include <zlib.h>

// deflateInit2 is a macro Swift cannot call: a gzip stream (header and
// CRC-32 trailer, windowBits 15 + 16) at `level`, default memory and strategy.
static inline int navlog_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

// inflateInit2, the same: reads a gzip stream only (windowBits 15 + 16).
static inline int navlog_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
#endif
