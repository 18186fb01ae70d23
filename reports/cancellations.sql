-- Cancels and scroll-aborts per group broken down by reason, with each reason's share of the group's sessions and its Wilson 95 % interval.
--
-- reason: drag_exit (lifted outside the retention margin), system (a cancelled touch),
-- safe_area (left the long-press safe area outside a scroll view), scroll (a scroll-abort).
WITH groups AS (
    -- table: key grp, variant, outcome, reason, count, share, sessions, actions_fired, duration_p50_ms, travel_p50_pt
SELECT grp, arm, count(*) AS sessions FROM report_input GROUP BY grp, arm
)
SELECT
    i.grp,
    i.arm AS variant,
    i.outcome,
    coalesce(i.cancel_reason, 'scroll') AS reason,
    count(*) AS count,
    g.sessions,
    count(*) * 1.0 / g.sessions AS share,
    wilson_low(count(*), g.sessions) AS share_low,
    wilson_high(count(*), g.sessions) AS share_high,
    sum(i.action_fired) AS actions_fired,
    percentile(i.duration_ms, 0.50) AS duration_p50_ms,
    percentile(i.max_travel_pt, 0.50) AS travel_p50_pt
FROM report_input AS i
JOIN groups AS g ON g.grp IS i.grp AND g.arm IS i.arm
WHERE NOT i.is_tap
GROUP BY i.grp, i.arm, i.outcome, i.cancel_reason
ORDER BY i.grp, i.arm, count DESC;
