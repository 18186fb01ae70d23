/* The replay row's peer in scripts/bench: the database work of `pressdb replay --as`, done
 * directly through SQLite's C API, with no model in between.
 *
 *     replay-peer DB ROWS_DB
 *
 * Reads every column of every session of DB in id order (`SELECT * FROM sessions ORDER BY id`,
 * each value fetched with sqlite3_column_* by its type, nothing printed), then upserts the result
 * rows kept in ROWS_DB's table `rows` (the very rows a pressdb replay wrote) into DB's `results`
 * in one transaction, with the upsert pressdb uses (update only when a value differs). The
 * connection is set up as pressdb's: WAL (persisted in the file), synchronous NORMAL, foreign
 * keys on. scripts/bench compiles it with `cc -O2 … -lsqlite3`.
 *
 * Exit status: 0 done (the sessions read and the rows written, on standard output), 1 an
 * SQLite error (the message and the statement on standard error), 2 bad arguments. */
#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

static int fail(sqlite3 *db, const char *sql) {
    fprintf(stderr, "replay-peer: %s\n  in: %.200s\n", db ? sqlite3_errmsg(db) : "cannot open", sql);
    return 1;
}

#define COLUMNS "config, counterfactual, outcome, cancel_reason, action_fired, feedback_latency_ms, " \
    "action_latency_ms, duration_ms, max_travel_pt, press_depth, release_jump_pt, feedback_photon_ms, " \
    "action_photon_ms"
#define EXCLUDED "excluded.config, excluded.counterfactual, excluded.outcome, excluded.cancel_reason, " \
    "excluded.action_fired, excluded.feedback_latency_ms, excluded.action_latency_ms, excluded.duration_ms, " \
    "excluded.max_travel_pt, excluded.press_depth, excluded.release_jump_pt, excluded.feedback_photon_ms, " \
    "excluded.action_photon_ms"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: replay-peer DB ROWS_DB\n");
        return 2;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) return fail(db, argv[1]);
    const char *setup = "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;";
    if (sqlite3_exec(db, setup, NULL, NULL, NULL) != SQLITE_OK) return fail(db, setup);

    /* Every value is fetched as what it is stored as, and folded into `sink` so that no fetch
     * can be left out: the work of reading the rows, without that of printing them. */
    const char *read = "SELECT * FROM sessions ORDER BY id";
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, read, -1, &s, NULL) != SQLITE_OK) return fail(db, read);
    uint64_t sink = 0;
    long sessions = 0;
    int n = sqlite3_column_count(s), rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        for (int i = 0; i < n; i++) {
            switch (sqlite3_column_type(s, i)) {
            case SQLITE_INTEGER: sink += (uint64_t)sqlite3_column_int64(s, i); break;
            case SQLITE_FLOAT: sink += (uint64_t)(int64_t)sqlite3_column_double(s, i); break;
            case SQLITE_TEXT: {
                const unsigned char *t = sqlite3_column_text(s, i);
                int bytes = sqlite3_column_bytes(s, i);
                sink += (uint64_t)bytes + (bytes > 0 ? t[0] : 0);
                break;
            }
            case SQLITE_BLOB: {
                const unsigned char *b = sqlite3_column_blob(s, i);
                int bytes = sqlite3_column_bytes(s, i);
                sink += (uint64_t)bytes + (bytes > 0 ? b[bytes - 1] : 0);
                break;
            }
            default: break;  /* NULL */
            }
        }
        sessions++;
    }
    if (rc != SQLITE_DONE) return fail(db, read);
    sqlite3_finalize(s);

    char *attach = sqlite3_mprintf("ATTACH %Q AS w", argv[2]);
    if (!attach || sqlite3_exec(db, attach, NULL, NULL, NULL) != SQLITE_OK) return fail(db, "ATTACH");
    sqlite3_free(attach);
    const char *write =
        "BEGIN;"
        "INSERT INTO results SELECT * FROM w.rows WHERE true ON CONFLICT(session_id, config_version) "
        "DO UPDATE SET (" COLUMNS ") = (" EXCLUDED ") WHERE (" COLUMNS ") IS NOT (" EXCLUDED ");";
    if (sqlite3_exec(db, write, NULL, NULL, NULL) != SQLITE_OK) return fail(db, write);
    int written = sqlite3_changes(db);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) return fail(db, "COMMIT");
    if (sqlite3_close(db) != SQLITE_OK) return fail(db, "close");
    printf("%ld sessions read (sink %llu), %d result rows written\n", sessions, (unsigned long long)sink, written);
    return 0;
}
