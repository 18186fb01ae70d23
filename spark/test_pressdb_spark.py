"""The Spark job against a real Spark in local mode (scripts/test runs it; CI requires it).

A generated log of users across several input files — three NDJSON files cut by line, so
sessions cross file boundaries, with a bad line and a session left open, and a CSV file of other
users — goes through ``spark/pressdb_spark.py`` and, separately, through ``pressdb ingest``:

- DIR/summary.json is byte for byte ``pressdb report --format json`` of the database;
- the Parquet results are the database's ``results`` rows, column by column;
- ``pressdb compare --from`` on the merged partial prints what ``pressdb compare`` prints;
- rejects and pending sessions name their own files and lines;
- a pressdb that fails makes the job fail, saying so.

Skipped, with a message, where Java or PySpark is missing, unless PRESSDB_SPARK_REQUIRED=1 (CI).
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
JOB = os.path.join(HERE, "pressdb_spark.py")
REQUIRED = os.environ.get("PRESSDB_SPARK_REQUIRED") == "1"


def missing():
    """Why the suite cannot run here, or None."""
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "no Java (apt-get install openjdk-17-jre-headless)"
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "no pyspark in this Python (python3 -m venv .venv-spark && .venv-spark/bin/pip install -r spark/requirements.txt)"
    if not os.access(binary(), os.X_OK):
        return f"no pressdb binary at {binary()} (swift build)"
    return None


def binary():
    return os.environ.get("PRESSDB_BINARY") or os.path.join(ROOT, ".build", "debug", "pressdb")


def pressdb(*args, stdin=None, check=True):
    done = subprocess.run([binary(), *args], input=stdin, capture_output=True, text=True,
                          env={**os.environ, "NO_COLOR": "1"})
    if check and done.returncode != 0:
        raise AssertionError(f"pressdb {' '.join(args)}: status {done.returncode}: {done.stderr}")
    return done


def run_job(*args):
    return subprocess.run([sys.executable, JOB, *args], capture_output=True, text=True)


class SparkJobTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        reason = missing()
        if reason:
            if REQUIRED:
                raise AssertionError(f"the Spark suite is required (PRESSDB_SPARK_REQUIRED=1) but cannot run: {reason}")
            raise unittest.SkipTest(f"Spark suite skipped: {reason}")
        cls.dir = tempfile.mkdtemp(prefix="pressdb-spark-test-")
        logs = os.path.join(cls.dir, "logs")
        os.makedirs(logs)
        # 2,400 sessions of 120 users in NDJSON, cut by line into three files.
        lines = pressdb("generate", "--sessions", "2400", "--seed", "7").stdout.splitlines()
        third = len(lines) // 3
        parts = [lines[:third], lines[third:2 * third], lines[2 * third:]]
        parts[1].insert(10, "not a record")                      # logs/b.ndjson line 11: rejected
        parts[2].append('{"session":"open-1","t":99,"phase":"began","x":1,"y":1,"user":"u1"}')  # left open
        for name, part in zip("abc", parts):
            with open(os.path.join(logs, f"{name}.ndjson"), "w") as f:
                f.write("\n".join(part) + "\n")
        # 150 sessions in CSV, of other users (generate puts its seed in session and user ids), read
        # whole by one task.
        csv = pressdb("generate", "--sessions", "150", "--seed", "8", "--format", "csv").stdout
        with open(os.path.join(logs, "d.csv"), "w") as f:
            f.write(csv)
        cls.logs = logs
        cls.db = os.path.join(cls.dir, "db.sqlite")
        inputs = sorted(os.path.join(logs, n) for n in os.listdir(logs))
        ingest = pressdb("ingest", "--db", cls.db, "--quiet", *inputs, check=False)
        assert ingest.returncode == 3, ingest.stderr  # the bad line
        cls.out = os.path.join(cls.dir, "out")
        cls.job = run_job("--input", logs, "--output", cls.out, "--master", "local[2]", "--pressdb", binary())

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "dir"):
            shutil.rmtree(cls.dir, ignore_errors=True)

    def test_job_finishes_with_the_rejects_status(self):
        self.assertEqual(self.job.returncode, 3, self.job.stderr)
        self.assertIn("1 rejected record", self.job.stderr)

    def test_summary_is_the_database_report(self):
        with open(os.path.join(self.out, "summary.json")) as f:
            summary = f.read()
        self.assertEqual(summary, pressdb("report", "--db", self.db, "--format", "json").stdout)
        self.assertEqual(sum(row["sessions"] for row in json.loads(summary)), 2400 + 150)

    def test_merged_partial_is_the_database_aggregate(self):
        # The counts are the database's, cell for cell; what each partial summarises (its
        # sources: the partitions' standard input against the database's files) differs by
        # construction, so it is checked on its own: every session is accounted for once.
        with open(os.path.join(self.out, "partial.json")) as f:
            merged = json.load(f)
        database = json.loads(pressdb("aggregate", "--db", self.db).stdout)
        identity = ("sources", "unidentified_sessions")
        self.assertEqual({k: v for k, v in merged.items() if k not in identity},
                         {k: v for k, v in database.items() if k not in identity})
        total = sum(cell["sessions"] for cell in database["groups"])
        self.assertEqual(sum(s["sessions"] for s in merged["sources"]) + merged["unidentified_sessions"], total)
        self.assertGreaterEqual(len(os.listdir(os.path.join(self.out, "partials"))), 2)

    def test_parquet_results_are_the_stored_rows(self):
        sys.path.insert(0, HERE)
        import pressdb_spark  # the job's own set-up: quiet, local IP, a scratch spark.local.dir
        spark = pressdb_spark.start_spark("local[1]", os.path.join(self.dir, "reader"))
        try:
            columns = ["session", "config", "config_version", "counterfactual", "outcome", "cancel_reason",
                       "action_fired", "feedback_latency_ms", "action_latency_ms", "duration_ms", "max_travel_pt",
                       "press_depth", "release_jump_pt", "variant", "t0"]
            parquet = {tuple(r) for r in spark.read.parquet(os.path.join(self.out, "results")).select(*columns).collect()}
            users = {r[0] for r in spark.read.parquet(os.path.join(self.out, "results"))
                     .selectExpr("attributes['user']").distinct().collect()}
        finally:
            spark.stop()
        db = sqlite3.connect(self.db)
        stored = {(s, c, v, bool(cf), o, cr, bool(af), fl, al, d, m, p, j, var, t0) for s, c, v, cf, o, cr, af, fl, al, d, m, p, j, var, t0 in db.execute(
            "SELECT s.session, r.config, r.config_version, r.counterfactual, r.outcome, r.cancel_reason, r.action_fired, "
            "r.feedback_latency_ms, r.action_latency_ms, r.duration_ms, r.max_travel_pt, r.press_depth, r.release_jump_pt, "
            "s.variant, s.t0 FROM sessions s JOIN results r ON r.session_id = s.id")}
        self.assertEqual(len(parquet), 2550)
        self.assertEqual(parquet, stored)
        self.assertEqual(users, {u for (u,) in db.execute("SELECT DISTINCT user FROM sessions")})

    def test_rejects_and_pending_name_their_files(self):
        rejects = self.lines("rejects")
        self.assertEqual(len(rejects), 1)
        self.assertTrue(rejects[0]["file"].endswith("/logs/b.ndjson"), rejects[0])
        self.assertEqual((rejects[0]["line"], rejects[0]["raw"]), (11, "not a record"))
        pending = self.lines("pending")
        self.assertEqual([p["session"] for p in pending], ["open-1"])
        self.assertTrue(pending[0]["file"].endswith("/logs/c.ndjson"))
        with open(os.path.join(self.logs, "c.ndjson")) as f:
            self.assertEqual(pending[0]["line"], len(f.read().splitlines()))
        db = sqlite3.connect(self.db)
        self.assertEqual(db.execute("SELECT session, first_line FROM pending").fetchall(), [("open-1", pending[0]["line"])])

    def test_compare_from_is_the_database_compare(self):
        partial = os.path.join(self.out, "partial.json")
        for args in (["A", "B"], ["spring-press", "expand-delayed-click", "--by", "config"], ["A", "B", "--where", "screen=feed", "--unit", "session"],
                     ["A", "B", "--unit", "session"]):
            from_db = pressdb("compare", *args, "--db", self.db, "--format", "json")
            from_partial = pressdb("compare", *args, "--from", partial, "--format", "json")
            self.assertEqual(from_partial.stdout, from_db.stdout, args)
            self.assertEqual(from_partial.stderr, from_db.stderr, args)

    def test_failing_binary_fails_the_job_loudly(self):
        fake = os.path.join(self.dir, "broken-pressdb")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho 'pressdb: the disk is on fire' >&2\nexit 1\n")
        os.chmod(fake, 0o755)
        job = run_job("--input", self.logs, "--output", os.path.join(self.dir, "broken"), "--master", "local[1]",
                      "--pressdb", fake)
        self.assertEqual(job.returncode, 1, job.stderr)
        self.assertIn("the job failed", job.stderr)
        self.assertIn("exited with status 1", job.stderr)
        self.assertIn("the disk is on fire", job.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "broken", "summary.json")))

    def lines(self, folder):
        out = []
        for name in sorted(os.listdir(os.path.join(self.out, folder))):
            if name.startswith("part-"):
                with open(os.path.join(self.out, folder, name)) as f:
                    out += [json.loads(l) for l in f if l.strip()]
        return out


if __name__ == "__main__":
    unittest.main()
