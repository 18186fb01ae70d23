-- Frustration signals per group — rage episodes, retries after a cancel or scroll-abort, retries after an unseen press, dead presses — each per press (Wilson 95 %) and by user (delta method), with the users showing it.
--
-- Reads `report_input`: its is_rage_episode, is_retry_after_cancel, is_retry_after_unseen (from
-- the press sequences, docs/frustration.md) and is_dead_press (result_events). For each signal X:
--   X                      presses with the signal (a rage episode counts once, on its first press)
--   X_rate, _low, _high    X / presses, Wilson 95 % interval (presses taken as independent)
--   X_rate_by_user, _low, _high   the same rate, its 95 % interval with users as the units
--                          (delta method, ratio_low/ratio_high, kept within 0…1: presses cluster by user)
--   X_users                users with at least one; X_users_rate, _low, _high their share, Wilson
-- A user is the session's user, else its device, else the session alone (`users`).
-- table: key grp, variant, presses, users, rage_episodes_rate, retries_after_cancel_rate, retries_after_unseen_rate, dead_presses_rate, rage_presses
-- table: footnote *_rate: per press, Wilson 95 % intervals; by user and per-user shares in CSV/JSON (docs/frustration.md)
WITH per_user AS (
    SELECT grp, arm, coalesce(actor, 'session:' || session) AS unit,
           count(*) AS presses,
           sum(is_rage_press) AS rage_presses,
           sum(is_rage_episode) AS rage_episodes,
           sum(is_retry_after_cancel) AS retries_after_cancel,
           sum(is_retry_after_unseen) AS retries_after_unseen,
           sum(is_dead_press) AS dead_presses
    FROM report_input
    GROUP BY grp, arm, unit
)
SELECT
    grp,
    arm AS variant,
    sum(presses) AS presses,
    count(*) AS users,
    sum(rage_presses) AS rage_presses,
    sum(rage_episodes) AS rage_episodes,
    sum(rage_episodes) * 1.0 / sum(presses) AS rage_episodes_rate,
    wilson_low(sum(rage_episodes), sum(presses)) AS rage_episodes_rate_low,
    wilson_high(sum(rage_episodes), sum(presses)) AS rage_episodes_rate_high,
    sum(rage_episodes) * 1.0 / sum(presses) AS rage_episodes_rate_by_user,
    max(0, ratio_low(presses, rage_episodes)) AS rage_episodes_rate_by_user_low,
    min(1, ratio_high(presses, rage_episodes)) AS rage_episodes_rate_by_user_high,
    sum(rage_episodes > 0) AS rage_episodes_users,
    avg(rage_episodes > 0) AS rage_episodes_users_rate,
    wilson_low(sum(rage_episodes > 0), count(*)) AS rage_episodes_users_rate_low,
    wilson_high(sum(rage_episodes > 0), count(*)) AS rage_episodes_users_rate_high,
    sum(retries_after_cancel) AS retries_after_cancel,
    sum(retries_after_cancel) * 1.0 / sum(presses) AS retries_after_cancel_rate,
    wilson_low(sum(retries_after_cancel), sum(presses)) AS retries_after_cancel_rate_low,
    wilson_high(sum(retries_after_cancel), sum(presses)) AS retries_after_cancel_rate_high,
    sum(retries_after_cancel) * 1.0 / sum(presses) AS retries_after_cancel_rate_by_user,
    max(0, ratio_low(presses, retries_after_cancel)) AS retries_after_cancel_rate_by_user_low,
    min(1, ratio_high(presses, retries_after_cancel)) AS retries_after_cancel_rate_by_user_high,
    sum(retries_after_cancel > 0) AS retries_after_cancel_users,
    avg(retries_after_cancel > 0) AS retries_after_cancel_users_rate,
    wilson_low(sum(retries_after_cancel > 0), count(*)) AS retries_after_cancel_users_rate_low,
    wilson_high(sum(retries_after_cancel > 0), count(*)) AS retries_after_cancel_users_rate_high,
    sum(retries_after_unseen) AS retries_after_unseen,
    sum(retries_after_unseen) * 1.0 / sum(presses) AS retries_after_unseen_rate,
    wilson_low(sum(retries_after_unseen), sum(presses)) AS retries_after_unseen_rate_low,
    wilson_high(sum(retries_after_unseen), sum(presses)) AS retries_after_unseen_rate_high,
    sum(retries_after_unseen) * 1.0 / sum(presses) AS retries_after_unseen_rate_by_user,
    max(0, ratio_low(presses, retries_after_unseen)) AS retries_after_unseen_rate_by_user_low,
    min(1, ratio_high(presses, retries_after_unseen)) AS retries_after_unseen_rate_by_user_high,
    sum(retries_after_unseen > 0) AS retries_after_unseen_users,
    avg(retries_after_unseen > 0) AS retries_after_unseen_users_rate,
    wilson_low(sum(retries_after_unseen > 0), count(*)) AS retries_after_unseen_users_rate_low,
    wilson_high(sum(retries_after_unseen > 0), count(*)) AS retries_after_unseen_users_rate_high,
    sum(dead_presses) AS dead_presses,
    sum(dead_presses) * 1.0 / sum(presses) AS dead_presses_rate,
    wilson_low(sum(dead_presses), sum(presses)) AS dead_presses_rate_low,
    wilson_high(sum(dead_presses), sum(presses)) AS dead_presses_rate_high,
    sum(dead_presses) * 1.0 / sum(presses) AS dead_presses_rate_by_user,
    max(0, ratio_low(presses, dead_presses)) AS dead_presses_rate_by_user_low,
    min(1, ratio_high(presses, dead_presses)) AS dead_presses_rate_by_user_high,
    sum(dead_presses > 0) AS dead_presses_users,
    avg(dead_presses > 0) AS dead_presses_users_rate,
    wilson_low(sum(dead_presses > 0), count(*)) AS dead_presses_users_rate_low,
    wilson_high(sum(dead_presses > 0), count(*)) AS dead_presses_users_rate_high
FROM per_user
GROUP BY grp, arm
ORDER BY grp, arm;
