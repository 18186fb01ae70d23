-- pressdb schema version 6: the summary report's cells, maintained as results are written.
--
-- One row of `summary_cells` per combination of a result's configuration, version and
-- counterfactual flag with its session's report keys (variant, control, screen, app_version):
-- the sessions, the sessions with each per-result event of `result_events`, and the largest
-- release jump; `summary_latencies` holds each cell's feedback and action latencies by exact
-- value (frame-quantised and configured delays: few values, so percentiles from them are exact).
-- They are a `Partial` (PressStore/Partial.swift) kept in the database: the one code path that
-- writes `results` (Store.insertResult, Store.deleteResults) adds and subtracts each row in
-- memory and writes the touched cells and bins in the same transaction, before it commits
-- (PressStore/SummaryCells.swift). `pressdb report` (the summary, filtered by report keys only)
-- reads them instead of the sessions, when `summary_state` shows they match the tables.
--
-- Writes made outside pressdb (a plain `sqlite3`) do not maintain the cells. They are detected:
-- an insert changes the row count or the largest rowid of `results`, which `summary_state`
-- records at every commit; an update or delete of `results`, and an update of a report key or
-- delete of `sessions`, counts in `outside_writes` through the triggers below (pressdb
-- subtracts the firings of its own updates and deletes in the same transaction). A report then
-- reads the rows, and the next writing pressdb rebuilds the cells from them. `results = -1`:
-- not built yet (the first writing connection after this migration builds them).

CREATE TABLE summary_cells (
    id                  INTEGER PRIMARY KEY,
    config              TEXT NOT NULL,
    config_version      TEXT NOT NULL,
    counterfactual      INTEGER NOT NULL,
    variant             TEXT,
    control             TEXT,
    screen              TEXT,
    app_version         TEXT,
    sessions            INTEGER NOT NULL,
    tap                 INTEGER NOT NULL,
    cancel              INTEGER NOT NULL,
    scroll_abort        INTEGER NOT NULL,
    false_action        INTEGER NOT NULL,
    unseen_press        INTEGER NOT NULL,
    dead_press          INTEGER NOT NULL,
    release_jump_pt_max REAL NOT NULL
);
CREATE INDEX summary_cells_by_key ON summary_cells(config, config_version, counterfactual, variant, control, screen, app_version);

CREATE TABLE summary_latencies (
    cell_id  INTEGER NOT NULL REFERENCES summary_cells(id),
    metric   TEXT NOT NULL,       -- 'feedback_latency_ms' or 'action_latency_ms'
    value    REAL NOT NULL,       -- ms, exactly as `results` stores it
    sessions INTEGER NOT NULL,
    PRIMARY KEY (cell_id, metric, value)
) WITHOUT ROWID;

CREATE TABLE summary_state (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    results        INTEGER NOT NULL,   -- rows of `results` the cells count; -1: not built
    max_rowid      INTEGER,            -- max(rowid) of `results` at the last commit
    outside_writes INTEGER NOT NULL    -- trigger firings not made by pressdb's own writes
);
INSERT INTO summary_state(id, results, max_rowid, outside_writes) VALUES (1, -1, NULL, 0);

CREATE TRIGGER summary_results_updated AFTER UPDATE ON results
BEGIN UPDATE summary_state SET outside_writes = outside_writes + 1; END;
CREATE TRIGGER summary_results_deleted AFTER DELETE ON results
BEGIN UPDATE summary_state SET outside_writes = outside_writes + 1; END;
CREATE TRIGGER summary_sessions_updated AFTER UPDATE OF id, variant, control, screen, app_version ON sessions
BEGIN UPDATE summary_state SET outside_writes = outside_writes + 1; END;
CREATE TRIGGER summary_sessions_deleted AFTER DELETE ON sessions
BEGIN UPDATE summary_state SET outside_writes = outside_writes + 1; END;
