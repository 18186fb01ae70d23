-- pressdb schema version 2: configurations, replay results, and the report view.

CREATE TABLE configs (
    name        TEXT NOT NULL,
    version     TEXT NOT NULL,                 -- content hash of the canonical definition
    definition  TEXT NOT NULL,                 -- canonical JSON
    added_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (name, version)
);

-- One row per session per configuration version replayed (the shared contract, HELPERS.md).
CREATE TABLE results (
    session_id          INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    config              TEXT NOT NULL,
    config_version      TEXT NOT NULL,
    counterfactual      INTEGER NOT NULL,      -- 0: the session's own configuration; 1: replayed with --as
    outcome             TEXT NOT NULL CHECK (outcome IN ('tap', 'cancel', 'scroll_abort')),
    cancel_reason       TEXT CHECK (cancel_reason IN ('drag_exit', 'system', 'safe_area')),
    action_fired        INTEGER NOT NULL,
    feedback_latency_ms REAL,
    action_latency_ms   REAL,
    duration_ms         REAL NOT NULL,
    max_travel_pt       REAL NOT NULL,
    press_depth         REAL NOT NULL,
    release_jump_pt     REAL NOT NULL,
    PRIMARY KEY (session_id, config_version)
);
CREATE INDEX results_by_config ON results(config, config_version);

-- Sessions with their replay results, for reports.
CREATE VIEW session_results AS
SELECT s.id AS session_id, s.session, r.config, r.config_version, s.variant, s.control, s.screen,
       s.app_version, s.user, s.device, s.container, s.t0,
       r.counterfactual, r.outcome, r.cancel_reason, r.action_fired,
       r.feedback_latency_ms, r.action_latency_ms, r.duration_ms, r.max_travel_pt,
       r.press_depth, r.release_jump_pt
FROM sessions AS s JOIN results AS r ON r.session_id = s.id;
