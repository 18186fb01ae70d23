#ifndef PRESSDB_CSQLITE_SHIM_H
#define PRESSDB_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros that cast integers to function pointers, which
// Swift cannot import; these constants give Swift the same values.
static const sqlite3_destructor_type pressdb_sqlite_transient = (sqlite3_destructor_type)-1;
static const sqlite3_destructor_type pressdb_sqlite_static = (sqlite3_destructor_type)0;
#endif
