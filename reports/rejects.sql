-- Rejected input lines: file, line, reason and the raw text, in the order they were read.
--
-- Reads the rejects table directly (not the filtered session view), so it works on a database whose every
-- line was rejected; --where, --since and --until do not apply.
-- table: key file, line, reason, raw, raw+, reason+, file+
-- table: cut raw 24 bytes, reason 36, file 12
SELECT
    source_file AS file,
    line,
    reason,
    raw,
    rejected_at
FROM rejects
ORDER BY id;
