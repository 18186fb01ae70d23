-- pressdb schema version 8: `results` without the index `results_by_config` (issue 20, the
-- ingesting thread).
--
-- Sessions of an A/B log name their configurations in turns, so each new entry of an index on
-- (config, config_version) lands in the middle of it (after the last entry of its configuration)
-- rather than at its end, where SQLite seeks and splits pages for it: ingest paid about 4,700
-- instructions a result row for it, 7.7 % of the ingesting thread (callgrind, 20,000 generated
-- sessions, docs/benchmarks.md, "Results without their configuration index"). Reads do without
-- it: the reports' world of results (one configuration version per configuration, own or
-- `--as`) scans `results` whether the index is there or not (the query planner chose the scan),
-- the summary report reads the summary cells, comparisons and replay find rows by the primary
-- key (session_id, config_version), and recomputing a summary cell's largest release jump
-- after its largest row is replaced, the one query that read the index, scans the table
-- instead (200,000 rows: 0.06 s either way).

DROP INDEX IF EXISTS results_by_config;
