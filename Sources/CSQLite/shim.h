#ifndef IMSH_CSQLITE_SHIM_H
#define IMSH_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type imsh_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
