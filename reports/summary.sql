-- Outcomes per group with Wilson 95 % intervals, false actions, unseen presses, feedback and action latency percentiles (ms), largest release jump (pt).
--
-- Reads `report_input` (one row per replayed session, filtered by the command line; `grp` is the
-- --by column, `arm` the variant when grouping by config and it differs). Functions: percentile()
-- and wilson_low()/wilson_high() are registered by pressdb (docs/reports.md). The is_* columns
-- are the per-session events (0/1) of the `result_events` view, defined there once.
-- share_over_100ms: among presses with feedback, the share seen later than 100 ms, where press
-- feedback is judged to degrade (Kaaresoja et al., ACM TAP 2014).
-- table: key grp, variant, sessions, tap_rate, cancel_rate, scroll_abort_rate, false_actions, unseen_presses, feedback_p50_ms, feedback_p90_ms, share_over_100ms
-- table: footnote feedback_*, share_over_100ms: over the presses that were seen; unseen_presses counts the presses never seen
-- table: about grp: the group: the configuration replayed, or the --by attribute
-- table: about variant: the variant the sessions were assigned in the log
-- table: about sessions: sessions replayed
-- table: about taps: sessions that ended as a tap (touchUpInside, or the long press's .ended)
-- table: about cancels: sessions the control cancelled (drag exit, system cancel, safe area)
-- table: about scroll_aborts: sessions the scroll view took as a scroll
-- table: about tap_rate: taps per session, with the Wilson 95% interval
-- table: about cancel_rate: cancels per session, with the Wilson 95% interval
-- table: about scroll_abort_rate: scroll-aborts per session, with the Wilson 95% interval
-- table: about false_actions: presses whose action ran although they were not a tap
-- table: about unseen_presses: presses the control received but no frame showed (moved by a pixel)
-- table: about feedback_p50_ms: median time from touch-down to the first frame that shows the press
-- table: about feedback_p90_ms: 90th percentile of the same
-- table: about feedback_p99_ms: 99th percentile of the same
-- table: about share_over_100ms: share of seen presses shown later than 100 ms
-- table: about action_p50_ms: median time from the triggering touch event to the action
-- table: about action_p90_ms: 90th percentile of the same
-- table: about release_jump_pt_max: the largest instant jump of the button's edge, as an animation starts, ends or is cut
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
