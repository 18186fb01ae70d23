-- Rejected input lines: file, line, reason and the raw text, in the order they were read.
--
-- Reads the rejects table directly (not the filtered session view), so it works on a database whose every
-- line was rejected; --where, --since and --until do not apply.
-- table: key file, line, reason, raw, reason+, raw+, file+
-- table: cut raw 24 bytes, file 12
-- table: wrap reason 36
-- table: empty no rejects
SELECT
    source_file AS file,
    line,
    reason,
    raw,
    rejected_at
FROM rejects
ORDER BY id;
