#ifndef PRESSDB_CSQLITE_SHIM_H
#define PRESSDB_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros that cast integers to function pointers, which
// Swift cannot import; these constants give Swift the same values.
static const sqlite3_destructor_type pressdb_sqlite_transient = (sqlite3_destructor_type)-1;
static const sqlite3_destructor_type pressdb_sqlite_static = (sqlite3_destructor_type)0;

// sqlite3_config is variadic, which Swift cannot call: SQLITE_CONFIG_MEMSTATUS on (1) or off (0).
static inline int pressdb_sqlite_config_memstatus(int on) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on); }
#endif
