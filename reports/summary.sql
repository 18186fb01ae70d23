-- Outcomes per group with Wilson 95 % intervals, false actions, unseen presses, feedback and action latency percentiles (ms), largest release jump (pt).
--
-- Reads `report_input` (one row per replayed session, filtered by the command line; `grp` is the
-- --by column, `arm` the variant when grouping by config and it differs). Functions: percentile()
-- and wilson_low()/wilson_high() are registered by pressdb (docs/reports.md). The is_* columns
-- are the per-session events (0/1) of the `result_events` view, defined there once.
-- share_over_100ms: among presses with feedback, the share seen later than 100 ms, where press
-- feedback is judged to degrade (Kaaresoja et al., ACM TAP 2014).
-- table: key grp, variant, sessions, tap_rate, cancel_rate, scroll_abort_rate, unseen_presses, feedback_p50_ms, feedback_p90_ms, false_actions, share_over_100ms
-- table: footnote feedback_*, share_over_100ms: over the presses that were seen; unseen_presses counts the presses never seen
SELECT
    grp,
    arm AS variant,
    count(*) AS sessions,
    sum(is_tap) AS taps,
    sum(is_cancel) AS cancels,
    sum(is_scroll_abort) AS scroll_aborts,
    avg(is_tap) AS tap_rate,
    wilson_low(sum(is_tap), count(*)) AS tap_rate_low,
    wilson_high(sum(is_tap), count(*)) AS tap_rate_high,
    avg(is_cancel) AS cancel_rate,
    wilson_low(sum(is_cancel), count(*)) AS cancel_rate_low,
    wilson_high(sum(is_cancel), count(*)) AS cancel_rate_high,
    avg(is_scroll_abort) AS scroll_abort_rate,
    wilson_low(sum(is_scroll_abort), count(*)) AS scroll_abort_rate_low,
    wilson_high(sum(is_scroll_abort), count(*)) AS scroll_abort_rate_high,
    sum(is_false_action) AS false_actions,
    sum(is_unseen_press) AS unseen_presses,
    percentile(feedback_latency_ms, 0.50) AS feedback_p50_ms,
    percentile(feedback_latency_ms, 0.90) AS feedback_p90_ms,
    percentile(feedback_latency_ms, 0.99) AS feedback_p99_ms,
    avg(feedback_latency_ms > 100) AS share_over_100ms,
    percentile(action_latency_ms, 0.50) AS action_p50_ms,
    percentile(action_latency_ms, 0.90) AS action_p90_ms,
    max(release_jump_pt) AS release_jump_pt_max
FROM report_input
GROUP BY grp, arm
ORDER BY grp, arm;
