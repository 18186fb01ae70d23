-- One row per replayed session: its outcome, reason, action and latencies, in touch-down order.
-- table: key session, config, outcome, feedback_latency_ms, cancel_reason, action_fired, action_latency_ms, duration_ms, variant, control, max_travel_pt
-- table: cut session 16, config 12
-- table: footnote feedback_latency_ms, action_latency_ms: empty (–) for a press that was never seen and for a session whose action did not run; *_photon_ms: the same on the glass (docs/press-model.md §5)
SELECT
    session,
    config,
    variant,
    control,
    outcome,
    cancel_reason,
    action_fired,
    feedback_latency_ms,
    action_latency_ms,
    duration_ms,
    max_travel_pt,
    press_depth,
    release_jump_pt,
    feedback_photon_ms,
    action_photon_ms
FROM report_input
ORDER BY t0, session;
