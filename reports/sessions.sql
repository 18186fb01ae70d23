-- One row per replayed session: its outcome, reason, action and latencies, in touch-down order.
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
    release_jump_pt
FROM report_input
ORDER BY t0, session;
