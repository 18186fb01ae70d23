#!/usr/bin/env python3
"""pressdb on Apache Spark: replay and aggregate touch logs in parallel, merge on the driver.

    python spark/pressdb_spark.py --input logs/ --output out/ --master local[2]

Map: the records are grouped by session, each session keyed by its user (by its own id when it
has none), and the sessions are spread over partitions by that key, so a user's sessions are in
one partition; within a partition they come session by session, each in the order of its
records in the logs. Each partition is piped through ``pressdb replay --input -`` (the same
readers, checks and replay as ``pressdb ingest``) and its result lines through ``pressdb
aggregate -``. Reduce: ``pressdb merge`` adds the partials on the driver and ``pressdb report
--from`` writes the summary. The statistics are pressdb's own; Spark only moves the records.

Writes, under --output DIR:
  summary.json   exactly what ``pressdb report --format json`` prints for the same sessions
  partial.json   the merged partial (``pressdb report --from``, ``pressdb compare --from``)
  partials/      one partial per partition
  results/       every result line as Parquet, partitioned by config
  pending/       sessions still open at the end ({"type":"pending"} lines)
  rejects/       rejected records ({"type":"reject"}, naming each record's own file and line)
  unreplayed/    complete sessions without a result ({"type":"unreplayed"})

NDJSON logs are spread over the cluster record by record. CSV logs and device recordings
(getevent, evemu, evtest, libinput record) are read whole, each file by one task: a CSV file
has its own header and a recording's sessions are its own. docs/scale-out.md has the details:
how to run it on a cluster, what a node needs, the sizes involved and the benchmark.

Exit status: 0, 3 when some record was rejected (as ``pressdb ingest``), 1 when the job fails
(a task's pressdb failed, an input cannot be read), 2 for a bad command line.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

# pressdb replay's exit statuses that mean it finished: 0, and 3 (finished with rejects).
FINISHED = (0, 3)

# The Parquet schema of a result line (docs/scale-out.md, "Result lines"). The attributes are a
# map from the field table's keys (and any unknown field's) to their JSON text or string value,
# so a new attribute needs no change here.
RESULT_FIELDS = [
    ("session", "string"), ("t0", "double"), ("variant", "string"), ("config", "string"),
    ("config_version", "string"), ("counterfactual", "boolean"), ("outcome", "string"),
    ("cancel_reason", "string"), ("action_fired", "boolean"), ("feedback_latency_ms", "double"),
    ("action_latency_ms", "double"), ("duration_ms", "double"), ("max_travel_pt", "double"),
    ("press_depth", "double"), ("release_jump_pt", "double"),
]


class JobError(Exception):
    """The job cannot go on; the message says why and what to do."""


# MARK: - Running pressdb

def pressdb_environment():
    """The environment a pressdb process gets: an explicit, minimal one (RDD.pipe's default is
    empty), with a UTF-8 locale, no colours, and the dynamic linker's path passed on."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "NO_COLOR": "1"}
    for name in ("LD_LIBRARY_PATH", "TMPDIR"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


def run_pressdb(argv, lines, env, accept=FINISHED):
    """Runs ``argv`` with ``lines`` (strings, without newlines) on its standard input and yields
    its standard output line by line. What ``RDD.pipe(checkCode=True)`` does, except that exit
    status 3 (finished with rejects) is accepted and a failure names the status and the end of
    the process's standard error.

    Raises RuntimeError when the process exits with a status outside ``accept`` or is killed."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env)
        failure = []

        def feed():
            try:
                for line in lines:
                    proc.stdin.write(line.encode("utf-8", "surrogateescape"))
                    proc.stdin.write(b"\n")
                proc.stdin.close()
            except BrokenPipeError:
                pass  # the process ended early; its status says why
            except BaseException as e:  # noqa: BLE001 - re-raised on the reading side
                failure.append(e)
                try:
                    proc.stdin.close()
                except OSError:
                    pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        for raw in proc.stdout:
            yield raw.decode("utf-8", "surrogateescape").rstrip("\n")
        status = proc.wait()
        writer.join()
        if failure:
            raise failure[0]
        if status not in accept:
            err.seek(0)
            tail = err.read()[-2000:].decode("utf-8", "replace").strip()
            what = f"killed by signal {-status}" if status < 0 else f"exited with status {status}"
            raise RuntimeError(f"{' '.join(argv)} {what}: {tail or '(no message)'}")


def task_binary(name):
    """The pressdb binary shipped to this task (SparkFiles), made executable."""
    from pyspark import SparkFiles
    path = SparkFiles.get(name)
    if not os.access(path, os.X_OK):
        os.chmod(path, 0o755)
    return path


# MARK: - Routing records

SESSION_PREFIX = '{"session":"'


def route(file_index, line_number, text):
    """One NDJSON record → (session id, (user, file, line, text)). Records without a session —
    configuration and layout records — get the session None; lines that are not JSON objects
    get a session of their own named after their place, so pressdb rejects them with its own
    message. Only the routing keys are read here: pressdb parses the record. A record that
    starts with its session id as a plain string and names no user (most records: the user is
    on the `began` one) is routed without parsing it."""
    if text.startswith(SESSION_PREFIX) and '"user"' not in text and '"type"' not in text:
        end = text.find('"', len(SESSION_PREFIX))
        if end > len(SESSION_PREFIX) and "\\" not in text[len(SESSION_PREFIX):end]:
            return (text[len(SESSION_PREFIX):end], (None, file_index, line_number, text))
    try:
        record = json.loads(text)
    except ValueError:
        record = None
    if not isinstance(record, dict):
        return (f"\x00{file_index}:{line_number}", (None, file_index, line_number, text))
    session = record.get("session")
    if record.get("type") in ("config", "control") and session is None:
        return (None, (record.get("type"), file_index, line_number, text))
    user = record.get("user")
    key = session if isinstance(session, str) else f"\x00{file_index}:{line_number}"
    return (key, (user if isinstance(user, str) else None, file_index, line_number, text))


def keyed_session(item):
    """(session, records) → ((user or session, session), records in log order)."""
    session, records = item
    records = sorted(records, key=lambda r: (r[1], r[2]))
    user = next((r[0] for r in records if r[0] is not None), None)
    return (("u:" + user) if user is not None else ("s:" + session), session), records


def framed(file_index, line_number, text):
    """A record as ``pressdb replay --origins`` reads it: its origin, a tab, the record."""
    return f"{file_index}:{line_number}\t{text}"


# MARK: - The job

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="pressdb_spark.py",
        description="Replay and aggregate touch logs with pressdb on Apache Spark; write DIR/summary.json "
                    "(exactly 'pressdb report --format json'), partials, Parquet results, pending sessions and rejects.")
    p.add_argument("--input", nargs="+", required=True, metavar="PATH",
                   help="log files or folders, any path Spark reads (file:, hdfs:, s3a: with its connector)")
    p.add_argument("--output", required=True, metavar="DIR", help="where the outputs go; must not exist yet, or be empty")
    p.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[*])")
    p.add_argument("--pressdb", default=None, metavar="BINARY",
                   help="the pressdb binary shipped to the executors (default: pressdb on PATH); build it with "
                        "'swift build -c release --static-swift-stdlib'")
    p.add_argument("--as", dest="replayed_as", default=None, metavar="CONFIG",
                   help="replay every session as CONFIG (pressdb replay --as)")
    p.add_argument("--partitions", type=int, default=None, metavar="N",
                   help="partitions of the sessions (default: Spark's default parallelism)")
    args = p.parse_args(argv)
    if args.partitions is not None and args.partitions < 1:
        p.error("--partitions must be at least 1")
    return args


def resolve_binary(given):
    path = given or shutil.which("pressdb")
    if not path:
        raise JobError("no pressdb binary: give --pressdb BINARY (swift build -c release --static-swift-stdlib; "
                       ".build/release/pressdb)")
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise JobError(f"--pressdb {path}: no such file")
    return path


def quiet_log4j(directory):
    """A log4j2 configuration that shows errors only, for the driver and the executors, in a
    Spark configuration folder of its own (``SPARK_CONF_DIR``, where Spark looks for it)."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "log4j2.properties")
    with open(path, "w") as f:
        # The shell's logger (org.apache.spark.repl.Main) sets the level PySpark starts with.
        f.write("rootLogger.level = error\nrootLogger.appenderRef.stderr.ref = console\n"
                "logger.repl.name = org.apache.spark.repl.Main\nlogger.repl.level = error\n"
                "appender.console.type = Console\nappender.console.name = console\n"
                "appender.console.target = SYSTEM_ERR\nappender.console.layout.type = PatternLayout\n"
                "appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n\n")
    return path


def start_spark(master, scratch):
    # Known set-up traps: a machine whose hostname does not resolve (SPARK_LOCAL_IP), executors
    # running another Python than the driver's (PYSPARK_PYTHON), shuffle files in /tmp of a
    # shared machine (spark.local.dir), log4j's INFO chatter, and nothing fetched at run time
    # (no spark.jars.packages).
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    under_submit = "PYSPARK_GATEWAY_PORT" in os.environ  # spark-submit started the JVM already
    log4j = quiet_log4j(os.path.join(scratch, "conf"))
    if not under_submit and "SPARK_CONF_DIR" not in os.environ:
        os.environ["SPARK_CONF_DIR"] = os.path.dirname(log4j)
    java_options = f"-Dlog4j2.configurationFile=file:{log4j}"
    builder = (SparkSession.builder.appName("pressdb")
               .config("spark.local.dir", os.path.join(scratch, "local"))
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.executor.extraJavaOptions", java_options))
    if master:
        builder = builder.master(master)
    elif not under_submit:
        builder = builder.master("local[*]")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def hadoop_fs(spark, path):
    jvm = spark.sparkContext._jvm
    p = jvm.org.apache.hadoop.fs.Path(path)
    return p.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), p


def list_inputs(spark, paths):
    """Every file under the given paths (folders recursively, hidden and _-prefixed names left
    out, as Spark's readers leave them out), as URIs, in sorted order per path."""
    out = []
    for given in paths:
        fs, root = hadoop_fs(spark, given)
        statuses = fs.globStatus(root)
        if statuses is None or len(statuses) == 0:
            raise JobError(f"--input {given}: no such file or folder")
        found = []
        for status in statuses:
            if status.isDirectory():
                files = fs.listFiles(status.getPath(), True)
                while files.hasNext():
                    f = files.next()
                    found.append(f.getPath())
            else:
                found.append(status.getPath())
        names = sorted(str(p.toUri()) if p.toUri().getScheme() else str(p) for p in found
                       if not p.getName().startswith((".", "_")))
        out += names
    return out


def first_non_blank_byte(spark, path, limit=65536):
    """The first byte of the file that is not blank (nor part of a UTF-8 byte-order mark), or
    None: `{` marks an NDJSON log, as pressdb tells formats. Read byte by byte through the
    Hadoop file system (any scheme); a log's first byte is usually the answer."""
    fs, p = hadoop_fs(spark, path)
    stream = fs.open(p)
    try:
        for k in range(limit):
            b = stream.read()
            if b < 0:
                return None
            if b in b" \t\r\n" or (k < 3 and b == b"\xef\xbb\xbf"[k]):
                continue
            return b
        return None
    finally:
        stream.close()


def write_file(spark, path, data):
    """Writes bytes to ``path`` on any file system Spark reaches."""
    fs, p = hadoop_fs(spark, path)
    out = fs.create(p, True)
    try:
        out.write(bytearray(data))
    finally:
        out.close()


def run_job(args):
    binary_path = resolve_binary(args.pressdb)
    binary_name = os.path.basename(binary_path)
    scratch = tempfile.mkdtemp(prefix="pressdb-spark-")
    try:
        spark = start_spark(args.master, scratch)
        try:
            return job(spark, args, binary_path, binary_name, scratch)
        finally:
            spark.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def job(spark, args, binary_path, binary_name, scratch):
    sc = spark.sparkContext
    out = args.output.rstrip("/")
    fs, out_path = hadoop_fs(spark, out)
    if fs.exists(out_path) and len(fs.listStatus(out_path)) > 0:
        raise JobError(f"--output {out} exists and is not empty; give a new folder")
    sc.addFile(binary_path)
    env = pressdb_environment()
    files = list_inputs(spark, args.input)
    if not files:
        raise JobError("no input files under " + ", ".join(args.input))
    ndjson = [i for i, f in enumerate(files) if first_non_blank_byte(spark, f) == ord("{")]
    whole = [i for i in range(len(files)) if i not in set(ndjson)]
    partitions = args.partitions or sc.defaultParallelism
    replay_args = ["--rejects", "-", "--quiet"] + (["--as", args.replayed_as] if args.replayed_as else [])

    # NDJSON: every record with its origin, routed by session.
    records = sc.emptyRDD()
    for i in ndjson:
        lines = sc.textFile(files[i]).zipWithIndex()
        records = records.union(lines.map(lambda tl, i=i: route(i, tl[1] + 1, tl[0])))
    records = records.cache()
    # Configuration and layout records go to every partition, first, in log order.
    shared = sorted(records.filter(lambda kv: kv[0] is None).map(lambda kv: kv[1]).collect(), key=lambda r: (r[1], r[2]))
    config_lines = [framed(r[1], r[2], r[3]) for r in shared if r[0] == "config"]
    sessions = (records.filter(lambda kv: kv[0] is not None)
                .groupByKey(partitions)
                .map(keyed_session)
                .repartitionAndSortWithinPartitions(partitions, partitionFunc=lambda key: _portable_hash(key[0])))

    def replay_partition(items):
        items = iter(items)
        first = next(items, None)
        if first is None:
            return
        def stream():
            yield from config_lines
            for _, recs in [first]:
                for r in recs:
                    yield framed(r[1], r[2], r[3])
            for _, recs in items:
                for r in recs:
                    yield framed(r[1], r[2], r[3])
        argv = [task_binary(binary_name), "replay", "--input", "-", "--origins", "--input-format", "ndjson"] + replay_args
        yield from run_pressdb(argv, stream(), env)

    def replay_whole_file(item):
        path, content = item
        local = tempfile.mkdtemp(prefix="pressdb-task-")
        try:
            name = os.path.join(local, os.path.basename(path) or "input")
            with open(name, "wb") as f:
                f.write(content)
            argv = [task_binary(binary_name), "replay", "--input", name] + replay_args
            for line in run_pressdb(argv, iter(()), env):
                yield _renamed(line, {name: path})
        finally:
            shutil.rmtree(local, ignore_errors=True)

    replayed = sessions.mapPartitions(replay_partition)
    if whole:
        # Read by Spark (any file system), each file replayed whole by one pressdb.
        contents = sc.binaryFiles(",".join(files[i] for i in whole), minPartitions=len(whole))
        replayed = replayed.union(contents.flatMap(replay_whole_file))
    names = {str(i): f for i, f in enumerate(files)}
    replayed = replayed.map(lambda line: _renamed(line, names)).persist(_memory_and_disk())

    # Reduce: a partial per partition, merged on the driver.
    def aggregate_partition(lines):
        results = [l for l in lines if l.startswith('{"type":"result"')]
        if results:
            argv = [task_binary(binary_name), "aggregate", "-"]
            yield "\n".join(run_pressdb(argv, iter(results), env, accept=(0,)))
    partials = replayed.mapPartitions(aggregate_partition).collect()

    local_partials = os.path.join(scratch, "partials")
    os.makedirs(local_partials)
    paths = []
    for k, text in enumerate(partials):
        path = os.path.join(local_partials, f"part-{k:05d}.json")
        with open(path, "w") as f:
            f.write(text + "\n")
        paths.append(path)
        write_file(spark, f"{out}/partials/part-{k:05d}.json", (text + "\n").encode())
    if not paths:
        raise JobError("no session was replayed: the inputs hold no complete session (see " + out + "/rejects and /pending)")
    merged = os.path.join(scratch, "partial.json")
    _local(binary_path, ["merge"] + paths + ["--out", merged])
    report = ["report", "--from", merged, "--format", "json"] + (["--as", args.replayed_as] if args.replayed_as else [])
    summary = _local(binary_path, report)
    with open(merged, "rb") as f:
        write_file(spark, f"{out}/partial.json", f.read())
    write_file(spark, f"{out}/summary.json", summary)

    # Analysts' copies: results as Parquet by config, the other lines as NDJSON.
    from pyspark.sql.types import StructType, StructField, StringType, DoubleType, BooleanType, MapType
    kinds = {"string": StringType(), "double": DoubleType(), "boolean": BooleanType()}
    schema = StructType([StructField(n, kinds[k]) for n, k in RESULT_FIELDS]
                        + [StructField(f"is_{e}", BooleanType()) for e in _events(partials[0])]
                        + [StructField("attributes", MapType(StringType(), StringType()))])
    results = spark.read.schema(schema).json(replayed.filter(lambda l: l.startswith('{"type":"result"')))
    results.write.partitionBy("config").parquet(f"{out}/results")
    for kind in ("pending", "reject", "unreplayed"):
        prefix = '{"type":"%s"' % kind
        folder = "rejects" if kind == "reject" else kind
        replayed.filter(lambda l, p=prefix: l.startswith(p)).coalesce(1).saveAsTextFile(f"{out}/{folder}")
    rejects = replayed.filter(lambda l: l.startswith('{"type":"reject"')).count()
    replayed.unpersist()
    records.unpersist()
    if rejects:
        print(f"pressdb_spark: {rejects} rejected record{'s' if rejects != 1 else ''} (in {out}/rejects)", file=sys.stderr)
    return 3 if rejects else 0


def _portable_hash(key):
    from pyspark.rdd import portable_hash
    return portable_hash(key)


def _memory_and_disk():
    from pyspark import StorageLevel
    return StorageLevel.MEMORY_AND_DISK


def _events(partial_text):
    """The event names a partial lists (its "events"): the result lines' is_* columns."""
    return json.loads(partial_text)["events"]


def _renamed(line, names):
    """Reject and pending lines name records by their input's index (the --origins NAME): put
    the file's path back."""
    if line.startswith('{"type":"reject"') or line.startswith('{"type":"pending"'):
        record = json.loads(line)
        for key in ("file", "last_file"):
            if key in record and record[key] in names:
                record[key] = names[record[key]]
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return line


def _local(binary, argv):
    """Runs pressdb on the driver; its standard output."""
    done = subprocess.run([binary] + argv, capture_output=True, env=pressdb_environment())
    if done.returncode != 0:
        raise JobError(f"pressdb {' '.join(argv)} failed (status {done.returncode}): {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


PYSPARK_MISSING = (
    "pressdb_spark: PySpark is not installed for {python}. Install the pinned version (it needs "
    "Java 17, Debian: apt-get install openjdk-17-jre-headless):\n"
    "  python3 -m venv .venv-spark && .venv-spark/bin/pip install -r spark/requirements.txt\n"
    "then run this script with .venv-spark/bin/python (docs/scale-out.md, \"The Spark job\")."
)


def main(argv=None):
    args = parse_args(argv)
    try:
        import pyspark  # noqa: F401 - only to say how to install it before the job starts
    except ImportError:
        print(PYSPARK_MISSING.format(python=sys.executable), file=sys.stderr)
        return 2
    try:
        status = run_job(args)
    except JobError as e:
        print(f"pressdb_spark: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - a failed task or Spark job: say so and fail
        message = str(e)
        for line in message.splitlines():
            if "pressdb" in line and ("exited with status" in line or "killed by signal" in line):
                message = line.strip()
                break
        print(f"pressdb_spark: the job failed: {message[:4000]}", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
