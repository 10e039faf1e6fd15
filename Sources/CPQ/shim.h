#ifndef IMSH_CPQ_SHIM_H
#define IMSH_CPQ_SHIM_H
// libpq-fe.h includes "postgres_ext.h" from its own folder, so no include path is needed.
#include <postgresql/libpq-fe.h>
#endif
