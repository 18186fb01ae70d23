-- pressdb schema version 9: display profiles and touch-to-photon latency (docs/press-model.md §5).
--
-- `sessions.display` (and `pending.display`) is the session attribute `display`: the profile the
-- press was seen on (`iphone-60hz` when NULL). `displays` holds the profiles added from JSON
-- (`pressdb displays add`); the built-in ones are not stored.
--
-- `results` gains `feedback_photon_ms` and `action_photon_ms`: the model's latencies plus the
-- touch's sampling and delivery delay and the pipeline to the glass, on the session's profile.
-- Every result stored before this version was measured on the default display (a replay on
-- another display printed its results and stored none), so its photon latencies are the default
-- profile's, computed here by default_feedback_photon_ms()/default_action_photon_ms(), which
-- pressdb registers on the migrating connection (PressStore/PhotonFunctions.swift), from the
-- stored milliseconds exactly as replay computes them.

ALTER TABLE sessions ADD COLUMN display TEXT;
ALTER TABLE pending ADD COLUMN display TEXT;

ALTER TABLE results ADD COLUMN feedback_photon_ms REAL;
ALTER TABLE results ADD COLUMN action_photon_ms REAL;
-- Not an outside write: the summary cells do not count photon latencies by row.
DROP TRIGGER summary_results_updated;
UPDATE results SET feedback_photon_ms = default_feedback_photon_ms(feedback_latency_ms),
                   action_photon_ms = default_action_photon_ms(action_latency_ms);
CREATE TRIGGER summary_results_updated AFTER UPDATE ON results
BEGIN UPDATE summary_state SET outside_writes = outside_writes + 1; END;

CREATE TABLE displays (
    name        TEXT PRIMARY KEY,
    definition  TEXT NOT NULL,                 -- canonical JSON (docs/press-model.md §5)
    added_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

DROP VIEW session_results;
CREATE VIEW session_results AS
SELECT s.session, s.variant, s.control, s.screen, s.app_version, s.user, s.device, s.display, s.container,
       s.t0, s.t1, s.end_phase, s.x0, s.y0, s.frame_x, s.frame_y, s.frame_w, s.frame_h, e.*
FROM sessions AS s JOIN result_events AS e ON e.session_id = s.id;
