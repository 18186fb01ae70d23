-- pressdb schema version 1: ingested files, sessions, open (pending) sessions, rejected lines.
-- Times are seconds, positions points. See docs/log-format.md for every column.

-- One row per distinct input content ingested (a file, or standard input as "-").
CREATE TABLE sources (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL,             -- file path as given, or "-" for standard input
    content_hash    TEXT UNIQUE,               -- FNV-1a 64 of the bytes, 16 hex digits (NULL while ingesting)
    bytes           INTEGER NOT NULL DEFAULT 0,
    records         INTEGER NOT NULL DEFAULT 0, -- non-blank lines (CSV: data rows) read
    rejects         INTEGER NOT NULL DEFAULT 0,
    ingest_count    INTEGER NOT NULL DEFAULT 1, -- how many times this content was ingested
    first_ingested  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_ingested   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- One row per complete touch session (began … ended|cancelled).
CREATE TABLE sessions (
    id               INTEGER PRIMARY KEY,
    session          TEXT NOT NULL UNIQUE,     -- the log's session id
    t0               REAL NOT NULL,            -- touch-down time (the began sample), s
    t1               REAL NOT NULL,            -- time of the ended/cancelled sample, s
    sample_count     INTEGER NOT NULL,
    end_phase        TEXT NOT NULL CHECK (end_phase IN ('ended', 'cancelled')),
    samples          BLOB NOT NULL,            -- 25 bytes per sample: f64 t, f64 x, f64 y (little-endian), u8 phase
    config           TEXT,
    variant          TEXT,                     -- as given, else the config name (variant_given = 0)
    variant_given    INTEGER NOT NULL DEFAULT 0,
    control          TEXT,
    frame_x          REAL, frame_y REAL, frame_w REAL, frame_h REAL, -- points
    container        TEXT,                     -- none|scroll|table|scroll-immediate, or canonical JSON
    scroll_axis      TEXT CHECK (scroll_axis IN ('vertical', 'horizontal', 'both')),
    user             TEXT,
    device           TEXT,
    app_version      TEXT,
    screen           TEXT,
    extra            TEXT,                     -- unknown fields, a JSON object with sorted keys
    source_id        INTEGER REFERENCES sources(id), -- file of the began record
    first_line       INTEGER,
    last_source_id   INTEGER REFERENCES sources(id), -- file of the ended/cancelled record
    last_line        INTEGER,
    ingested_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX sessions_by_variant ON sessions(variant);
CREATE INDEX sessions_by_config ON sessions(config);

-- Sessions still open at the end of an ingest: completed by a later ingest, never lost.
-- Same attribute columns as sessions; variant is NULL when not given.
CREATE TABLE pending (
    session          TEXT PRIMARY KEY,
    sample_count     INTEGER NOT NULL,
    samples          BLOB NOT NULL,
    config           TEXT,
    variant          TEXT,
    control          TEXT,
    frame_x          REAL, frame_y REAL, frame_w REAL, frame_h REAL,
    container        TEXT,
    scroll_axis      TEXT,
    user             TEXT,
    device           TEXT,
    app_version      TEXT,
    screen           TEXT,
    extra            TEXT,
    source_id        INTEGER REFERENCES sources(id),
    first_line       INTEGER,
    last_source_id   INTEGER REFERENCES sources(id),
    last_line        INTEGER,
    updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Input that could not be stored, with the reason and the raw text.
CREATE TABLE rejects (
    id           INTEGER PRIMARY KEY,
    source_id    INTEGER REFERENCES sources(id),
    source_file  TEXT NOT NULL,
    line         INTEGER NOT NULL,
    reason       TEXT NOT NULL,
    raw          TEXT NOT NULL,
    rejected_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (source_id, line)
);

-- {"type":"config", ...} records exactly as read; the configuration loader interprets them.
CREATE TABLE config_records (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    definition   TEXT NOT NULL,                -- the record's JSON text as read
    source_file  TEXT NOT NULL,
    line         INTEGER NOT NULL,
    added_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (name, definition)
);
