-- pressdb schema version 3: the per-session events that reports and comparisons count, each
-- defined once, as a column of `result_events`; `session_results` gains them.
-- docs/reports.md ("Per-session events") documents every column. To add an event, a later
-- migration drops and recreates `result_events` with one more column: `session_results` takes
-- every column of `result_events` (`e.*`), so it follows without being recreated.

DROP VIEW session_results;

-- Every results row with its events, each 0 or 1.
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
       r.feedback_latency_ms IS NOT NULL AS is_seen
FROM results AS r;

-- Sessions with their replay results and events, for reports.
CREATE VIEW session_results AS
SELECT s.session, s.variant, s.control, s.screen, s.app_version, s.user, s.device, s.container, s.t0, e.*
FROM sessions AS s JOIN result_events AS e ON e.session_id = s.id;
