#ifndef IMSH_CSQLITE_SHIM_H
#define IMSH_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type imsh_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_db_config is variadic: keep the WAL as it is when this connection closes
/// (used before moving a corrupt database aside, so closing does not rewrite the evidence).
static inline int imsh_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/// sqlite3_db_config is variadic: turn off this connection's lookaside allocator, which
/// otherwise holds its slots for as long as the connection is open.
static inline int imsh_sqlite_disable_lookaside(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_LOOKASIDE, (void *)0, 0, 0);
}

/// sqlite3_config is variadic: no preallocated block of page-cache pages per connection;
/// pages come from the heap as needed. Only effective before sqlite3_initialize.
static inline int imsh_sqlite_page_cache_on_demand(void) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}
/// sqlite3_config is variadic: no process-wide count of SQLite's heap, which takes a global
/// mutex on every allocation SQLite makes. Only effective before sqlite3_initialize.
static inline int imsh_sqlite_memory_statistics_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// sqlite3_config is variadic: copy the page cache SQLite uses into `methods`.
static inline int imsh_sqlite_get_page_cache(sqlite3_pcache_methods2 *methods) {
    return sqlite3_config(SQLITE_CONFIG_GETPCACHE2, methods);
}

/// sqlite3_config is variadic: use `methods` as the page cache (SQLite copies the struct).
/// Only effective before sqlite3_initialize.
static inline int imsh_sqlite_set_page_cache(const sqlite3_pcache_methods2 *methods) {
    return sqlite3_config(SQLITE_CONFIG_PCACHE2, methods);
}
#endif
