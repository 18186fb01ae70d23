-- pressdb schema version 7: `sessions` without the index `sessions_by_variant` (issue 20, the
-- ingesting thread).
--
-- An A/B log has a few variants, taking turns as sessions arrive, so each new entry of the index
-- lands in the middle of it (after the last entry of its variant) rather than at its end: every
-- insert seeks and splits pages there. Ingest paid about 5,200 instructions a session for it,
-- 6.5 % of the ingesting thread (callgrind, 20,000 generated sessions, docs/benchmarks.md,
-- "The schema on the ingesting thread"). Reads do without it: a report filtered by report keys
-- only (variant among them) reads the summary cells, which are keyed by variant, and a
-- selection by variant takes a large share of the sessions (half of them with two arms), which a
-- scan of `sessions` finds at a small cost (`report latency --where variant=A` on 100,000
-- sessions: the same CPU time; `report sessions --where variant=A`, which lists 50,000 of them:
-- about 1.15 s → 1.25 s).

DROP INDEX IF EXISTS sessions_by_variant;
