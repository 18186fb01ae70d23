-- pressdb schema version 4: stored sweeps (`pressdb sweep`, docs/sweep.md). One row per sweep:
-- what was varied, the configuration of every point, and every point's metrics, so that
-- `pressdb sweep --show ID` prints a sweep again and `--export-config ID:POINT` gives a point's
-- configuration. Per-session results of a sweep are never stored.

CREATE TABLE sweeps (
    id            INTEGER PRIMARY KEY,
    base          TEXT NOT NULL,               -- the base configuration's name
    base_version  TEXT NOT NULL,               -- its version when the sweep ran
    definition    TEXT NOT NULL,               -- JSON: base, parameters [{path, spec, values}], sample, seed, where, objectives, weights
    sessions      INTEGER NOT NULL,            -- sessions replayed under every point
    unit          TEXT NOT NULL CHECK (unit IN ('user', 'session')), -- the clusters of the paired intervals
    units         INTEGER NOT NULL,            -- users (or sessions) among them
    points        TEXT NOT NULL,               -- JSON array, per point: {point, values, version, configuration, container}
    aggregates    TEXT NOT NULL,               -- JSON array, the base (point 0) then every point: {point, metrics, pareto, score, rank}
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
