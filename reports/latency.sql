-- Feedback and action latency distributions per group (ms), with the share of presses past each perception anchor.
--
-- Anchors: 33 ms (a tap's latency becomes noticeable around 24–33 ms), 85 ms (visual press
-- feedback judged good within 30–85 ms), 100 and 150 ms (feedback degrades between 100 and
-- 150 ms) — Kaaresoja et al., ACM TAP 2014. Shares are among presses with feedback.
--
-- feedback_photon_*: the same presses' feedback on the glass — the touch's sampling and delivery
-- delay, the model's frames and the pipeline, on each session's display profile
-- (docs/press-model.md §5); share_photon_over_100ms: the share of seen presses whose feedback
-- reaches the glass later than the 100 ms within which a response feels instantaneous (Nielsen 1993).
-- table: key grp, variant, sessions, seen, feedback_p50_ms, feedback_p90_ms, feedback_p99_ms, share_over_100ms, action_p50_ms, action_p90_ms, feedback_photon_p50_ms, share_photon_over_100ms, feedback_p75_ms, feedback_p95_ms, share_over_33ms, share_over_85ms, share_over_150ms
-- table: footnote feedback_*, share_over_*: over the presses that were seen (seen of sessions); a press never seen has no feedback latency
-- table: footnote action_*: over the sessions whose action ran (actions)
SELECT
    grp,
    arm AS variant,
    count(*) AS sessions,
    sum(is_seen) AS seen,
    avg(feedback_latency_ms) AS feedback_mean_ms,
    min(feedback_latency_ms) AS feedback_min_ms,
    percentile(feedback_latency_ms, 0.50) AS feedback_p50_ms,
    percentile(feedback_latency_ms, 0.75) AS feedback_p75_ms,
    percentile(feedback_latency_ms, 0.90) AS feedback_p90_ms,
    percentile(feedback_latency_ms, 0.95) AS feedback_p95_ms,
    percentile(feedback_latency_ms, 0.99) AS feedback_p99_ms,
    max(feedback_latency_ms) AS feedback_max_ms,
    avg(feedback_latency_ms > 33) AS share_over_33ms,
    avg(feedback_latency_ms > 85) AS share_over_85ms,
    avg(feedback_latency_ms > 100) AS share_over_100ms,
    avg(feedback_latency_ms > 150) AS share_over_150ms,
    count(action_latency_ms) AS actions,
    percentile(action_latency_ms, 0.50) AS action_p50_ms,
    percentile(action_latency_ms, 0.90) AS action_p90_ms,
    max(action_latency_ms) AS action_max_ms,
    percentile(duration_ms, 0.50) AS duration_p50_ms,
    percentile(feedback_photon_ms, 0.50) AS feedback_photon_p50_ms,
    percentile(feedback_photon_ms, 0.90) AS feedback_photon_p90_ms,
    avg(feedback_photon_ms > 100) AS share_photon_over_100ms,
    percentile(action_photon_ms, 0.50) AS action_photon_p50_ms
FROM report_input
GROUP BY grp, arm
ORDER BY grp, arm;
