#ifndef NAVLOG_CLZ4_SHIM_H
#define NAVLOG_CLZ4_SHIM_H
// liblz4's frame API, from the system (liblz4-dev / brew lz4).
#include <lz4frame.h>
#endif
