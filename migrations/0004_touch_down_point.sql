-- pressdb schema version 4: each session's touch-down point, `x0` and `y0` (points), the first
-- sample's position — what the frustration signals measure distances between (docs/frustration.md:
-- a rage press lies within 30 pt of its run's first press; a press with no frame gets the 44 pt hit
-- target centred there). Ingest writes them from the samples it already holds (Store.insertSession);
-- sessions stored before this version get them from their samples BLOB here, through
-- touch_down_x()/touch_down_y(), which pressdb registers on the migrating connection
-- (PressStore/SampleCodec.swift: the little-endian binary64 at bytes 8 and 16 of the first 25-byte
-- sample, the bits as stored). `session_results` gains them with the other sequence columns
-- (t1, end_phase and the frame), so the views over it see a press's whole position in a sequence.

ALTER TABLE sessions ADD COLUMN x0 REAL;
ALTER TABLE sessions ADD COLUMN y0 REAL;
UPDATE sessions SET x0 = touch_down_x(samples), y0 = touch_down_y(samples);

DROP VIEW session_results;
CREATE VIEW session_results AS
SELECT s.session, s.variant, s.control, s.screen, s.app_version, s.user, s.device, s.container,
       s.t0, s.t1, s.end_phase, s.x0, s.y0, s.frame_x, s.frame_y, s.frame_w, s.frame_h, e.*
FROM sessions AS s JOIN result_events AS e ON e.session_id = s.id;
