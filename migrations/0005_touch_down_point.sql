-- pressdb schema version 5: each session's touch-down point and the press sequences the
-- frustration signals read (docs/frustration.md gives every definition and its source).
--
-- `x0`, `y0` (points) are the first sample's position — what the signals measure distances
-- between (a rage press lies within 30 pt of its window's first press; a press with no frame gets
-- the 44 pt hit target centred there). Ingest writes them from the samples it already holds
-- (Store.insertSession); sessions stored before this version get them from their samples BLOB
-- here, through touch_down_x()/touch_down_y(), which pressdb registers on the migrating connection
-- (PressStore/SampleCodec.swift: the little-endian binary64 at bytes 8 and 16 of the first 25-byte
-- sample, the bits as stored).
--
-- `result_events` gains `is_dead_press`, a per-press event; `press_sequences` gives every session
-- its place among one actor's presses on one control, and the rage-press flags, which depend on
-- touch-downs only. The signals that read outcomes of the press and of the next press (retries)
-- are computed per report world in `report_input` (PressStore/ReportRunner.swift).

ALTER TABLE sessions ADD COLUMN x0 REAL;
ALTER TABLE sessions ADD COLUMN y0 REAL;
UPDATE sessions SET x0 = touch_down_x(samples), y0 = touch_down_y(samples);

DROP VIEW session_results;
DROP VIEW result_events;

-- Every results row with its events, each 0 or 1 (as in version 3, and is_dead_press).
CREATE VIEW result_events AS
SELECT r.*,
       r.outcome = 'tap' AS is_tap,
       r.outcome = 'cancel' AS is_cancel,
       r.outcome = 'scroll_abort' AS is_scroll_abort,
       -- the action ran although the press was not a tap (e.g. `any_release` on a drag-out)
       r.action_fired AND r.outcome <> 'tap' AS is_false_action,
       -- the control received the press (not a scroll-abort) but no frame ever showed it
       r.outcome <> 'scroll_abort' AND r.feedback_latency_ms IS NULL AS is_unseen_press,
       -- some frame showed the press (it has a feedback latency)
       r.feedback_latency_ms IS NOT NULL AS is_seen,
       -- a dead press: the finger lifted (not a system cancel) without ever moving 10 pt from its
       -- touch-down — UIKit's tap-sized movement (UILongPressGestureRecognizer.allowableMovement,
       -- the scroll view's pan hysteresis; docs/press-model.md) — and the action did not run
       NOT r.action_fired AND r.cancel_reason IS NOT 'system' AND r.max_travel_pt < 10 AS is_dead_press
FROM results AS r;

CREATE VIEW session_results AS
SELECT s.session, s.variant, s.control, s.screen, s.app_version, s.user, s.device, s.container,
       s.t0, s.t1, s.end_phase, s.x0, s.y0, s.frame_x, s.frame_y, s.frame_w, s.frame_h, e.*
FROM sessions AS s JOIN result_events AS e ON e.session_id = s.id;

-- One row per session that has an actor (its user, else its device): its press sequence — the
-- actor's presses on its control, in touch-down order (t0, then the session's id), whatever
-- files or ingests they came from — and its place in it. The control is the session's screen
-- and control name; presses naming no control form one sequence per actor and screen, in which
-- two presses count as on the same control only when their hit targets overlap (the frame, or
-- without one the 44 × 44 pt target centred on the touch-down, as replay gives it).
--
--   actor            'user:NAME' or 'device:NAME'
--   press_index      1, 2, … within the sequence
--   next_session_id  the next press of the sequence on the same control (NULL: none)
--   next_gap_s       its touch-down minus this press's end (t1), seconds
--   is_rage_press    1 when the press lies in a rage window: rage_count presses in a row of the
--                    sequence on the same control whose touch-downs span at most rage_span_s and
--                    lie within rage_radius_pt of the window's first (PostHog's $rageclick
--                    defaults 3, 1.0 s, 30 px, taken as points)
--   is_rage_episode  1 on the first press of a maximal run of consecutive rage presses
--
-- The parameters come from signal_parameter(name), a function pressdb registers on report
-- connections with the command line's values (defaults: docs/frustration.md).
CREATE VIEW press_sequences AS
WITH
parameters AS MATERIALIZED (
    SELECT max(2, CAST(signal_parameter('rage_count') AS INTEGER)) AS rage_count,
           signal_parameter('rage_span_s') AS rage_span,
           signal_parameter('rage_radius_pt') AS rage_radius
),
presses AS MATERIALIZED (
    SELECT id AS session_id, actor, t0, t1, x0, y0, control, hit_x, hit_y, hit_w, hit_h,
           row_number() OVER sequence AS press_index,
           -- a global position: the presses of one sequence hold consecutive positions
           row_number() OVER (ORDER BY actor, screen, control, t0, id) AS position,
           dense_rank() OVER (ORDER BY actor, screen, control) AS sequence
    FROM (SELECT id, t0, t1, x0, y0, screen, control,
                 CASE WHEN user IS NOT NULL THEN 'user:' || user WHEN device IS NOT NULL THEN 'device:' || device END AS actor,
                 coalesce(frame_x, x0 - 22) AS hit_x, coalesce(frame_y, y0 - 22) AS hit_y,
                 coalesce(frame_w, 44) AS hit_w, coalesce(frame_h, 44) AS hit_h
          FROM sessions)
    WHERE actor IS NOT NULL
    WINDOW sequence AS (PARTITION BY actor, screen, control ORDER BY t0, id)
),
-- Each press with the next press of its sequence, when that one is on the same control.
pairs AS MATERIALIZED (
    SELECT a.session_id, a.position, a.sequence, a.press_index, a.actor, a.t1,
           CASE WHEN a.control IS NOT NULL OR (b.hit_x < a.hit_x + a.hit_w AND a.hit_x < b.hit_x + b.hit_w
                                               AND b.hit_y < a.hit_y + a.hit_h AND a.hit_y < b.hit_y + b.hit_h)
                THEN b.session_id END AS next_session_id,
           CASE WHEN a.control IS NOT NULL OR (b.hit_x < a.hit_x + a.hit_w AND a.hit_x < b.hit_x + b.hit_w
                                               AND b.hit_y < a.hit_y + a.hit_h AND a.hit_y < b.hit_y + b.hit_h)
                THEN b.t0 - a.t1 END AS next_gap_s
    FROM presses AS a
    LEFT JOIN presses AS b ON b.position = a.position + 1 AND b.sequence = a.sequence
),
-- The presses that open a rage window: they and the next rage_count − 1 presses of their
-- sequence touch down within rage_span of them, within rage_radius of their touch-down, and on
-- their control.
openings AS MATERIALIZED (
    SELECT a.position, a.sequence
    FROM presses AS a
    CROSS JOIN parameters AS p
    JOIN presses AS b ON b.position BETWEEN a.position + 1 AND a.position + p.rage_count - 1
    WHERE b.sequence = a.sequence
      AND b.t0 - a.t0 <= p.rage_span
      AND (b.x0 - a.x0) * (b.x0 - a.x0) + (b.y0 - a.y0) * (b.y0 - a.y0) <= p.rage_radius * p.rage_radius
      AND (a.control IS NOT NULL OR (a.hit_x < b.hit_x + b.hit_w AND b.hit_x < a.hit_x + a.hit_w
                                     AND a.hit_y < b.hit_y + b.hit_h AND b.hit_y < a.hit_y + a.hit_h))
    GROUP BY a.position
    HAVING count(*) = max(p.rage_count) - 1
),
-- Every press of a window.
rage AS MATERIALIZED (
    SELECT DISTINCT q.position
    FROM openings AS o
    CROSS JOIN parameters AS p
    JOIN presses AS q ON q.position BETWEEN o.position AND o.position + p.rage_count - 1
),
flagged AS (
    SELECT x.session_id, x.actor, x.sequence, x.press_index, x.next_session_id, x.next_gap_s,
           g.position IS NOT NULL AS is_rage_press
    FROM pairs AS x LEFT JOIN rage AS g ON g.position = x.position
)
SELECT session_id, actor, press_index, next_session_id, next_gap_s, is_rage_press,
       is_rage_press AND NOT coalesce(lag(is_rage_press) OVER (PARTITION BY sequence ORDER BY press_index), 0)
           AS is_rage_episode
FROM flagged;
