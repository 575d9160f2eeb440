#!/usr/bin/env python3
"""spark-watch: `landmark-near watch` over Apache Spark, partitioned by device (docs/reference/spark.md).

    python3 Scripts/spark-watch.py fixes/ --out notes/ --partitions 8
    python3 Scripts/spark-watch.py 'logs/2026-*.ndjson' --out notes/ --merged -- --landmarks places.csv
    spark-submit --master yarn Scripts/spark-watch.py hdfs:///fixes/ --out hdfs:///notes/ --partitions 400

gives the notifications of one `landmark-near watch` over the same input (the files in order), per
device and in order. How:

1. Read (one task per input file): each file goes through `landmark-near fixes` on an executor,
   which reads it exactly as `watch` does (format detection, NDJSON/CSV/NMEA/GPX, device keys,
   times, ...) and prints every fix as one canonical NDJSON line, device first. Unreadable
   records are reported there, by the tool, with the file's own name and line. The tool stays
   the single source of parsing truth: this script parses nothing but the device name out of
   the tool's canonical lines, so no rule of docs/reference/fixes.md is written twice and none can drift.
2. Shuffle: each fix is keyed by (device, file number, position in the file) and sent to
   partition crc32(device's UTF-8 bytes) mod N, sorted there by that key: every device's fixes
   are in one partition, in arrival order.
3. Watch: each partition's fixes are piped through `landmark-near watch --format ndjson [watch
   options]` on the executors (the binary and the --landmarks/--profiles files are shipped with
   SparkContext.addFile and found with SparkFiles.get). The engine's state is per device, so a
   device's notifications depend only on that device's fixes, in order: the same in a partition
   as in one process.
4. Write: one part file a partition in DIR (saveAsTextFile: part-00000 ... part-<N-1>, empty for
   partitions without a device), `merged.ndjson` with --merged (all notifications by fix time;
   untimed ones last; ties by device, then per-device order), and the summed summary on stderr.

Exit status as the tool's: 0 ok, 65 some records were unreadable (reported on stderr as
<file>:<line>: <reason>), 64 usage, 66 a missing input, 69 no pyspark or Java, 70 a partition
failed (the message says which and why; a tool status such as 74 is passed on).
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import zlib

EX_OK, EX_USAGE, EX_DATAERR, EX_NOINPUT, EX_UNAVAILABLE, EX_SOFTWARE = 0, 64, 65, 66, 69, 70
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = "spark-watch"
# Watch options whose value is a file the executors need: shipped with the job.
SHIPPED_OPTIONS = ("--landmarks", "--profiles")
# Watch options that make no sense spread over executors, and why.
REFUSED_OPTIONS = {
    "--apns-dir": "each executor would write payloads on its own disk; make them from DIR's notifications",
    "--explain": "its lines name the partition's lines, not the input's; run watch on one device's fixes",
    "--state": "state files are per process; see the README's 'Beyond one machine' for live streams",
}
# Options of `watch` that take a value (so '--format x' is read as one option).
WATCH_VALUED = {"--landmarks", "--favorites", "--profiles", "--radius", "--hysteresis", "--cooldown",
                "--max-accuracy", "--events", "--format", "--apns-dir", "--thread-id", "--bundle-id", "--state"}
# Lines of a file grouped by device at a time in the reading step.
BLOCK_LINES = 200_000
# Issue lines kept per input file (all are counted).
MAX_ISSUES_PER_FILE = 1000
FAILURE = re.compile(r"spark-watch-failure\[(\d+)\]: (.*?)(?:\n|$)")

HELP_EPILOG = """\
watch options (after --) are passed to every partition's `landmark-near watch`, e.g.
  -- --landmarks places.csv --profiles profiles.json --radius 2km --events all
--landmarks and --profiles files are shipped with the job; --format forces the input format
(it is given to the reading step); --apns-dir, --explain and --state are refused.

Inputs: files, folders (every file below, sorted by path, names starting with '.' or '_'
skipped), globs ('logs/*.csv', quoted), or any URI Spark reads (hdfs://, s3a://, file://).
They are read in the order given, as by `landmark-near watch INPUT...`.

Output: DIR/part-00000 ... one NDJSON file a partition (a device's notifications are all in
one part, in order), DIR/merged.ndjson with --merged, DIR/_SUCCESS. The summed summary goes
to stderr. Exit status: 0 ok; 65 records were unreadable (each reported as <file>:<line>:
<reason>); 64 usage; 66 missing input; 69 pyspark or Java missing; 70 a partition failed.

--batch FILE runs several jobs in one Spark session (start-up takes seconds): FILE has one
JSON array of arguments a line; each job's status and stderr go to stdout as a JSON line.

Set up with `bash Scripts/setup.sh` (Java 17 from Debian, pyspark into .venv/); plain
`python3` re-runs itself with .venv/bin/python when pyspark is not importable.
"""


class UsageError(Exception):
    pass


class JobFailure(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def make_parser():
    parser = ArgumentParser(
        prog="spark-watch.py",
        usage="spark-watch.py INPUT... --out DIR [--partitions N] [--master URL] [--binary PATH] "
              "[--merged] [--overwrite] [-- watch options]",
        description="Runs `landmark-near watch` over Apache Spark: each input file is read by\n"
                    "`landmark-near fixes` on an executor, fixes are keyed by device and partitioned by\n"
                    "crc32(device) mod N, and each partition is piped through `landmark-near watch\n"
                    "--format ndjson` there. The notifications equal one watch process's over the same\n"
                    "input, per device and in order.\n\n"
                    "  spark-watch.py fixes/ --out notes/ --partitions 8\n"
                    "  spark-watch.py 'logs/*.ndjson' --out notes/ --merged -- --landmarks places.csv\n"
                    "  spark-submit --master yarn spark-watch.py hdfs:///fixes/ --out hdfs:///notes/ \\\n"
                    "      --partitions 400 --binary ./landmark-near\n\n"
                    "The binary and the --landmarks/--profiles files reach the executors through\n"
                    "SparkContext.addFile (SparkFiles); it must run there (see the README).",
        epilog=HELP_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="*", metavar="INPUT", help="files, folders, globs or URIs of fixes")
    parser.add_argument("--out", metavar="DIR", help="output directory (path or URI); must not exist unless --overwrite")
    parser.add_argument("--partitions", type=int, metavar="N", help="partitions (default: the master's default parallelism)")
    parser.add_argument("--master", metavar="URL", help="Spark master (default: spark-submit's, else local[*])")
    parser.add_argument("--binary", metavar="PATH", help="the landmark-near executable (default: landmark-near on PATH)")
    parser.add_argument("--merged", action="store_true", help="also write DIR/merged.ndjson, ordered by fix time")
    parser.add_argument("--overwrite", action="store_true", help="replace DIR when it exists")
    parser.add_argument("--verbose", action="store_true", help="keep Spark's own log (warnings) on stderr")
    parser.add_argument("--batch", metavar="FILE", help="run the jobs of FILE in one Spark session (see below)")
    return parser


def split_watch_options(argv):
    if "--" in argv:
        at = argv.index("--")
        return argv[:at], argv[at + 1:]
    return argv, []


class Job:
    """One run's settings, checked before Spark starts."""

    def __init__(self, argv, reporter):
        own, watch_options = split_watch_options(argv)
        args = make_parser().parse_args(own)
        self.args = args
        self.reporter = reporter
        if args.batch:
            raise UsageError("--batch takes the jobs' arguments from its file, not with others")
        if not args.inputs:
            raise UsageError("no INPUT given")
        if not args.out:
            raise UsageError("--out DIR is required")
        if args.partitions is not None and args.partitions < 1:
            raise UsageError(f"--partitions takes a whole number >= 1, not {args.partitions}")
        binary = args.binary or shutil.which("landmark-near")
        if not binary:
            raise UsageError("no landmark-near on PATH; give --binary PATH")
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            raise JobFailure(EX_NOINPUT, f"--binary {binary}: not an executable file")
        self.binary = os.path.abspath(binary)
        self.read_options, self.watch_options, self.shipped = self.sort_watch_options(watch_options)
        self.sources = []   # (index, display name, local path or None, URI or None)

    @staticmethod
    def sort_watch_options(options):
        """(options for `fixes`, options for `watch`, [(option, local path)]) from the watch options."""
        read, watch, shipped = [], [], []
        i = 0
        while i < len(options):
            option = options[i]
            name, value = option, None
            if option.startswith("--") and "=" in option:
                name, value = option.split("=", 1)
            elif option in WATCH_VALUED:
                if i + 1 >= len(options):
                    raise UsageError(f"watch option {option} needs a value")
                value = options[i + 1]
                i += 1
            i += 1
            if name in REFUSED_OPTIONS:
                raise UsageError(f"watch option {name} is not supported here: {REFUSED_OPTIONS[name]}")
            if name == "--format":
                read += ["--format", value]
            elif name == "--strict":
                read.append("--strict")
                watch.append("--strict")
            elif name in SHIPPED_OPTIONS:
                shipped.append((name, value))
            elif value is not None:
                watch += [name, value]
            else:
                watch.append(name)
        return read, watch, shipped

    def expand_local_inputs(self):
        """Local inputs to files now (missing ones are exit 66); URIs are listed once Spark runs."""
        for given in self.args.inputs:
            if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", given):
                self.sources.append((len(self.sources), given, None, given))
                continue
            if any(c in given for c in "*?["):
                matches = sorted(glob.glob(given, recursive=True))
                if not matches:
                    raise JobFailure(EX_NOINPUT, f"{given}: no such file (the pattern matches nothing)")
            else:
                matches = [given]
            for match in matches:
                if os.path.isdir(match):
                    for path in walk_files(match):
                        self.add_local(path)
                elif os.path.exists(match):
                    self.add_local(match)
                else:
                    raise JobFailure(EX_NOINPUT, f"{match}: no such file")

    def add_local(self, path):
        self.sources.append((len(self.sources), path, os.path.abspath(path), None))


def walk_files(directory):
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = [d for d in dirs if not d.startswith((".", "_"))]
        found += [os.path.join(root, f) for f in files if not f.startswith((".", "_"))]
    return sorted(found, key=lambda p: os.fsencode(p))


class Reporter:
    """Where a job's diagnostics go: stderr, or a buffer in --batch mode."""

    def __init__(self, buffered=False):
        self.lines = [] if buffered else None

    def line(self, text):
        if self.lines is None:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
        else:
            self.lines.append(text)


# ---------------------------------------------------------------------------------------------
# Executor side. Functions here run in Spark's Python workers: they must only use what they are
# given (paths through SparkFiles), never the driver's state.

def shipped_path(name):
    from pyspark import SparkFiles
    path = SparkFiles.get(name)
    if name.endswith("landmark-near") and not os.access(path, os.X_OK):
        os.chmod(path, 0o755)
    return path


def fail(status, message):
    """A task failure the driver can turn back into an exit status and one clear line."""
    raise RuntimeError(f"spark-watch-failure[{status}]: {message}")


def device_of(line):
    """The device name's UTF-8 bytes from a canonical line `{"device":"...",...}`."""
    end = line.index(b'","lat":', 11)
    raw = line[11:end]
    if b"\\" in raw:
        return json.loads(b'"' + raw + b'"').encode("utf-8", "surrogatepass")
    return raw


def read_source(source, binary_name, read_options):
    """Runs `landmark-near fixes` over one input file; yields keyed fixes and report records.

    Fix records:    ((crc32(device), device, file index, block), the device's canonical NDJSON
                    lines of that block of the file, in order, each ending in a newline)
    Report records: ((-1, b"", file index, n), ("issue", text) | ("counts", read, fixes, unreadable))
    """
    index, display, local_path, data = source
    binary = shipped_path(binary_name)
    command = [binary, "fixes", *read_options, "--source-name", display]
    try:
        stdin = open(local_path, "rb") if local_path is not None else subprocess.PIPE
    except OSError as error:
        # A local path must be visible to the executors (a shared mount on a cluster).
        fail(EX_NOINPUT, f"{display}: cannot be opened on the executor: {error.strerror}")
    try:
        process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        if local_path is not None:
            stdin.close()
    if data is not None:
        threading.Thread(target=feed_bytes, args=(process.stdin, data), daemon=True).start()
    errors = []
    collector = threading.Thread(target=collect_lines, args=(process.stderr, errors), daemon=True)
    collector.start()
    # A file's fixes are grouped by device in blocks of BLOCK_LINES lines: the shuffle then moves
    # one record per (device, block) instead of one per fix, in bounded memory.
    groups = {}
    block = pending = 0
    for line in process.stdout:
        device = device_of(line)
        lines = groups.get(device)
        if lines is None:
            groups[device] = [line]
        else:
            lines.append(line)
        pending += 1
        if pending >= BLOCK_LINES:
            for device, lines in groups.items():
                yield (zlib.crc32(device), device, index, block), b"".join(lines)
            groups.clear()
            block += 1
            pending = 0
    for device, lines in groups.items():
        yield (zlib.crc32(device), device, index, block), b"".join(lines)
    process.wait()
    collector.join()
    counts = None
    issues = []
    for text in errors:
        match = re.match(r"^landmark-near fixes: (\d+) records read, (\d+) fixes, (\d+) unreadable$", text)
        if match:
            counts = tuple(int(g) for g in match.groups())
        else:
            issues.append(text)
    if process.returncode not in (0, EX_DATAERR) or counts is None or (process.returncode == EX_DATAERR and "--strict" in read_options):
        detail = "; ".join(issues[-3:]) or f"landmark-near fixes exited with status {process.returncode}"
        status = process.returncode if 64 <= process.returncode <= 78 else EX_SOFTWARE
        fail(status, f"reading {display}: {detail}")
    for n, text in enumerate(issues[:MAX_ISSUES_PER_FILE]):
        yield (-1, b"", index, n), ("issue", text)
    if len(issues) > MAX_ISSUES_PER_FILE:
        yield (-1, b"", index, MAX_ISSUES_PER_FILE), ("issue", f"{display}: ... and {len(issues) - MAX_ISSUES_PER_FILE} more")
    yield (-1, b"", index, MAX_ISSUES_PER_FILE + 1), ("counts",) + counts


def feed_bytes(pipe, data):
    try:
        pipe.write(data)
    except BrokenPipeError:
        pass
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


def collect_lines(pipe, into):
    for raw in pipe:
        into.append(raw.decode("utf-8", "replace").rstrip("\n"))


def feed_lines(pipe, first, records):
    """Writes the partition's blocks of canonical lines to watch's stdin, in order."""
    try:
        pipe.write(first)
        for _, lines in records:
            pipe.write(lines)
    except BrokenPipeError:
        pass  # watch died: its exit status says why
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


def watch_partition(partition, records, binary_name, watch_options, shipped):
    """Pipes one partition's fixes through `landmark-near watch --format ndjson`, like RDD.pipe,
    but keeping watch's stderr (its summary) and exit status, which RDD.pipe drops.

    Yields ("N", notification line), ("S", partition, summary), ("W", partition, warning) and
    passes the reading step's report records on as ("R", key, report).
    """
    records = iter(records)
    first = None
    for key, value in records:
        if key[0] < 0:
            yield ("R", key, value)
        else:
            first = value
            break
    if first is None:
        return
    command = [shipped_path(binary_name), "watch", "--format", "ndjson", *watch_options]
    for option, name in shipped:
        command += [option, shipped_path(name)]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    writer = threading.Thread(target=feed_lines, args=(process.stdin, first, records), daemon=True)
    writer.start()
    errors = []
    collector = threading.Thread(target=collect_lines, args=(process.stderr, errors), daemon=True)
    collector.start()
    for line in process.stdout:
        yield ("N", line.rstrip(b"\n"))
    process.wait()
    writer.join()
    collector.join()
    summaries = [e for e in errors if e.startswith("landmark-near watch: ") and SUMMARY.match(e[len("landmark-near watch: "):])]
    if process.returncode != 0 or not summaries:
        detail = "; ".join(e for e in errors[-3:]) or "no message"
        status = process.returncode if 64 <= process.returncode <= 78 else EX_SOFTWARE
        fail(status, f"partition {partition}: landmark-near watch exited with status {process.returncode}: {detail}")
    for text in errors:
        if text not in summaries:
            yield ("W", partition, text)
    yield ("S", partition, summaries[-1][len("landmark-near watch: "):])


def merge_key(pair):
    """Sort key of --merged: fix time (untimed last), then device, then per-device order."""
    line, order = pair
    event = json.loads(line)
    time = event.get("time")
    device = event.get("device", "").encode("utf-8", "surrogatepass")
    if time is None:
        return (1, "", 0, device, order)
    base, _, rest = time.rstrip("Z").partition(".")
    return (0, base, int((rest or "0").ljust(9, "0")[:9]), device, order)


# ---------------------------------------------------------------------------------------------
# Driver side.

SUMMARY = re.compile(r"^(\d+) fix(?:es)? read, (\d+) used; dropped: (.*?); (\d+) notifications? \((\d+) enters?(.*?); "
                     r"(\d+) exits?\); (\d+) devices?")
# watch's count of stale fixes at the very time of a used one (a second report of one moment).
SAME_TIME = re.compile(r"; (\d+) stale fix(?:es)? repeats? the time of a used fix")


def plural(count, word, plural_form=None):
    return f"{count} {word if count == 1 else (plural_form or word + 's')}"


class Totals:
    """The summed summary of every partition's watch."""

    def __init__(self):
        self.read = self.fixes = self.unreadable = self.watched = 0
        self.used = self.notifications = self.enters = self.exits = self.devices = 0
        self.dropped = {}
        self.suppressed = {}
        self.same_time = 0
        self.unparsed = []

    def add_counts(self, read, fixes, unreadable):
        self.read += read
        self.fixes += fixes
        self.unreadable += unreadable

    def add_summary(self, text):
        match = SUMMARY.match(text)
        if not match:
            self.unparsed.append(text)
            return
        read, used, dropped, notes, enters, suppressed, exits, devices = match.groups()
        self.watched += int(read)
        self.used += int(used)
        self.notifications += int(notes)
        self.enters += int(enters)
        self.exits += int(exits)
        self.devices += int(devices)
        for count, reason in re.findall(r"(\d+) ([a-z]+)", dropped):
            if reason != "unreadable":
                self.dropped[reason] = self.dropped.get(reason, 0) + int(count)
        for count, reason in re.findall(r"(\d+) suppressed by ([a-z]+)", suppressed):
            self.suppressed[reason] = self.suppressed.get(reason, 0) + int(count)
        repeats = SAME_TIME.search(text)
        if repeats:
            self.same_time += int(repeats.group(1))

    def line(self, partitions, files):
        dropped = "".join(f", {count} {reason}" for reason, count in self.dropped.items())
        if not self.dropped:
            dropped = ", 0 accuracy, 0 stale"
        order = ["cooldown", "profile"] + [r for r in self.suppressed if r not in ("cooldown", "profile")]
        suppressed = "".join(f", {self.suppressed[r]} suppressed by {r}" for r in order if self.suppressed.get(r))
        return (f"{PROGRAM}: {plural(self.read, 'fix', 'fixes')} read, {self.used} used; dropped: {self.unreadable} unreadable{dropped}; "
                f"{plural(self.notifications, 'notification')} ({plural(self.enters, 'enter')}{suppressed}; "
                f"{plural(self.exits, 'exit')}); {plural(self.devices, 'device')}; "
                + (f"{self.same_time} stale {'fix repeats' if self.same_time == 1 else 'fixes repeat'} the time of a used fix; "
                   if self.same_time else "")
                + f"{plural(partitions, 'partition')}, {plural(files, 'input file')}")


def import_pyspark():
    try:
        import pyspark  # noqa: F401
        return True
    except ImportError:
        return False


def reexec_in_venv():
    """Plain `python3` without pyspark: run again with the repository's .venv/bin/python."""
    venv_python = os.path.join(ROOT, ".venv", "bin", "python")
    if os.path.exists(venv_python) and os.path.abspath(sys.executable) != venv_python \
            and not os.environ.get("SPARK_WATCH_REEXEC"):
        os.environ["SPARK_WATCH_REEXEC"] = "1"
        os.execv(venv_python, [venv_python, os.path.abspath(__file__), *sys.argv[1:]])
    sys.stderr.write(f"{PROGRAM}: pyspark is not installed for {sys.executable}: run bash Scripts/setup.sh "
                     "(Java 17 and pyspark into .venv/) or pip install pyspark\n")
    sys.exit(EX_UNAVAILABLE)


class Session:
    """One SparkContext for one or more jobs."""

    def __init__(self, master, verbose):
        from pyspark import SparkConf, SparkContext
        conf = SparkConf().setAppName("landmark-near spark-watch")
        if master:
            conf.setMaster(master)
        elif not conf.contains("spark.master"):
            conf.setMaster("local[*]")
        self.local = conf.get("spark.master", "").startswith("local")
        if self.local:
            # Workers are this Python (the venv's pyspark), and everything stays on loopback.
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            conf.setIfMissing("spark.driver.host", "127.0.0.1")
            conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1")
            conf.setIfMissing("spark.ui.enabled", "false")
        conf.setIfMissing("spark.ui.showConsoleProgress", "false")
        self.scratch = tempfile.mkdtemp(prefix="spark-watch-")
        if not verbose and "SPARK_CONF_DIR" not in os.environ:
            # Spark's launcher puts SPARK_CONF_DIR on the driver's classpath: this log4j2.properties
            # keeps Spark's INFO chatter off stderr. The root level stays WARN, the level Spark
            # gives its shells (PySpark's included), or it prints a banner saying it changed it.
            with open(os.path.join(self.scratch, "log4j2.properties"), "w") as f:
                f.write("rootLogger.level = warn\nrootLogger.appenderRef.stderr.ref = console\n"
                        "appender.console.type = Console\nappender.console.name = console\n"
                        "appender.console.target = SYSTEM_ERR\nappender.console.layout.type = PatternLayout\n"
                        "appender.console.layout.pattern = spark: %p %c{1}: %m%n\n"
                        "logger.native.name = org.apache.hadoop.util.NativeCodeLoader\nlogger.native.level = error\n"
                        # A failed task is reported once, by this script, from its own marker
                        # line; Spark's copies of the trace (three or four) stay out of the way.
                        "logger.spark.name = org.apache.spark\nlogger.spark.level = off\n")
            os.environ["SPARK_CONF_DIR"] = self.scratch
        if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
            raise JobFailure(EX_UNAVAILABLE, "no Java: run bash Scripts/setup.sh (openjdk-17-jre-headless)")
        self.sc = SparkContext(conf=conf)
        self.jobs = 0
        self.shipped = {}

    def ship(self, path, name):
        """Copies `path` (read once: it may be a pipe) under a unique name and adds it to the job."""
        if path not in self.shipped:
            copy = os.path.join(self.scratch, name)
            shutil.copyfile(path, copy)
            if name.endswith("landmark-near"):
                os.chmod(copy, 0o755)
            self.sc.addFile(copy)
            self.shipped[path] = (name, copy)
        return self.shipped[path]

    def hadoop_path(self, uri):
        jvm = self.sc._jvm
        path = jvm.org.apache.hadoop.fs.Path(uri)
        return path, path.getFileSystem(self.sc._jsc.hadoopConfiguration())

    def list_uri(self, uri):
        """Files of a URI (a file, a folder, a glob), sorted, hidden names skipped."""
        path, fs = self.hadoop_path(uri)
        statuses = fs.globStatus(path)
        if not statuses:
            raise JobFailure(EX_NOINPUT, f"{uri}: no such file")
        files = []
        for status in statuses:
            if status.isDirectory():
                iterator = fs.listFiles(status.getPath(), True)
                while iterator.hasNext():
                    child = iterator.next().getPath()
                    relative = child.toString()[len(status.getPath().toString()):]
                    if not any(part.startswith((".", "_")) for part in relative.split("/") if part):
                        files.append(child.toString())
            else:
                files.append(status.getPath().toString())
        return sorted(files, key=lambda p: p.encode("utf-8"))

    def stop(self):
        self.sc.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def run(self, job):
        self.jobs += 1
        sc = self.sc
        args = job.args
        report = job.reporter
        binary_name, _ = self.ship(job.binary, f"bin{self.jobs}-landmark-near")
        shipped = [(option, self.ship(path, f"job{self.jobs}-{option.strip('-')}-{os.path.basename(path)}"))
                   for option, path in job.shipped]
        self.preflight(job, [(option, copy) for option, (_, copy) in shipped])
        shipped_names = [(option, name) for option, (name, _) in shipped]

        # Inputs: local files are read by the executors from their paths; URIs through Spark.
        sources = []
        for index, display, local, uri in job.sources:
            if uri is None:
                sources.append((len(sources), display, local, None))
            else:
                for found in self.list_uri(uri):
                    sources.append((len(sources), found, None, found))
        partitions = args.partitions or sc.defaultParallelism
        out_path, out_fs = self.hadoop_path(args.out)
        if out_fs.exists(out_path):
            if not args.overwrite:
                raise UsageError(f"--out {args.out} exists (give --overwrite to replace it)")
            out_fs.delete(out_path, True)

        read_options = job.read_options
        local_sources = [s for s in sources if s[3] is None]
        uri_sources = {s[3]: s for s in sources if s[3] is not None}
        parts = []
        if local_sources:
            parts.append(sc.parallelize(local_sources, len(local_sources))
                         .flatMap(lambda s: read_source(s, binary_name, read_options)))
        if uri_sources:
            def read_uri(pair):
                path, data = pair
                index, display, _, _ = uri_sources[path]
                return read_source((index, display, None, data), binary_name, read_options)
            parts.append(sc.binaryFiles(",".join(uri_sources), len(uri_sources)).flatMap(read_uri))
        keyed = sc.union(parts) if len(parts) > 1 else parts[0] if parts else sc.emptyRDD()
        watch_options = job.watch_options
        watched = (keyed.repartitionAndSortWithinPartitions(partitions, partitionFunc=lambda key: key[0])
                   .mapPartitionsWithIndex(lambda i, records: watch_partition(i, records, binary_name,
                                                                              watch_options, shipped_names),
                                           preservesPartitioning=True)
                   .persist())
        try:
            notes = watched.filter(lambda r: r[0] == "N").map(lambda r: r[1])
            notes.saveAsTextFile(args.out)
            meta = watched.filter(lambda r: r[0] != "N").collect()
            if args.merged:
                self.write_merged(notes, args.out)
        finally:
            watched.unpersist()

        totals = Totals()
        reports = sorted((r[1], r[2]) for r in meta if r[0] == "R")
        for _, value in reports:
            if value[0] == "issue":
                report.line(value[1])
            else:
                totals.add_counts(*value[1:])
        for r in sorted((r for r in meta if r[0] == "W"), key=lambda r: r[1]):
            report.line(f"{PROGRAM}: partition {r[1]}: {r[2]}")
        for r in sorted((r for r in meta if r[0] == "S"), key=lambda r: r[1]):
            totals.add_summary(r[2])
        for text in totals.unparsed:
            report.line(f"{PROGRAM}: a partition's summary was not understood: {text}")
        if totals.watched != totals.fixes and not totals.unparsed:
            raise JobFailure(EX_SOFTWARE, f"{totals.fixes} fixes were read but {totals.watched} reached watch")
        report.line(totals.line(partitions, len(sources)))
        return EX_DATAERR if totals.unreadable else EX_OK

    def preflight(self, job, shipped_copies):
        """Runs watch once on the driver with no input: bad options fail here, with watch's own
        message and status, before any task starts; an old binary without `fixes` too."""
        command = [job.binary, "watch", "--format", "ndjson", *job.watch_options]
        for option, copy in shipped_copies:
            command += [option, copy]
        result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            message = "\n".join(l for l in result.stderr.splitlines()
                                 if not SUMMARY.match(l.partition(": ")[2])) or "no message"
            raise JobFailure(result.returncode if 64 <= result.returncode <= 78 else EX_SOFTWARE, message)
        check = subprocess.run([job.binary, "fixes", "--help"], capture_output=True, timeout=60)
        if check.returncode != 0:
            raise JobFailure(EX_UNAVAILABLE, f"{job.binary} has no 'fixes' command: build landmark-near from this repository")

    def write_merged(self, notes, out):
        temporary = out.rstrip("/") + "/_merged"
        (notes.zipWithIndex().keyBy(merge_key).sortByKey(numPartitions=1)
         .map(lambda pair: pair[1][0]).saveAsTextFile(temporary))
        source, fs = self.hadoop_path(temporary + "/part-00000")
        target, _ = self.hadoop_path(out.rstrip("/") + "/merged.ndjson")
        if not fs.rename(source, target):
            raise JobFailure(EX_SOFTWARE, f"cannot move {temporary}/part-00000 to merged.ndjson")
        fs.delete(self.hadoop_path(temporary)[0], True)


def failure_of(error):
    """(status, message) of a failed Spark job, from our marker in the Java/Python trace."""
    match = FAILURE.search(str(error))
    if match:
        return int(match.group(1)), match.group(2)
    lines = [line.strip() for line in str(error).strip().splitlines()]
    cause = next((line[2:] for line in lines if line.startswith(": ")), None) or (lines[0] if lines else type(error).__name__)
    return EX_SOFTWARE, f"Spark job failed: {cause} (run with --verbose for Spark's log)"


def run_job(session_holder, argv, reporter, master, verbose):
    """One job from its arguments; returns the exit status. Starts Spark when first needed."""
    try:
        job = Job(argv, reporter)
        job.expand_local_inputs()
        if session_holder[0] is None:
            session_holder[0] = Session(master or job.args.master, verbose or job.args.verbose)
        return session_holder[0].run(job)
    except UsageError as error:
        reporter.line(f"{PROGRAM}: {error}")
        return EX_USAGE
    except JobFailure as failure:
        reporter.line(f"{PROGRAM}: {failure.message}")
        return failure.status
    except Exception as error:  # a Spark job failed: a partition, a read, Java
        status, message = failure_of(error)
        reporter.line(f"{PROGRAM}: {message}")
        return status


def main(argv):
    own, _ = split_watch_options(argv)
    if "-h" in own or "--help" in own:
        make_parser().print_help()
        return EX_OK
    if not import_pyspark():
        reexec_in_venv()
    session = [None]
    try:
        batch = None
        if "--batch" in own:
            try:
                args = make_parser().parse_args(own)
            except UsageError as error:
                sys.stderr.write(f"{PROGRAM}: {error}\n")
                return EX_USAGE
            batch = args
        if batch is None:
            return run_job(session, argv, Reporter(), None, False)
        with open(batch.batch) as f:
            jobs = [json.loads(line) for line in f if line.strip()]
        worst = EX_OK
        for arguments in jobs:
            reporter = Reporter(buffered=True)
            status = run_job(session, arguments, reporter, batch.master, batch.verbose)
            sys.stdout.write(json.dumps({"arguments": arguments, "status": status,
                                         "stderr": "\n".join(reporter.lines)}) + "\n")
            sys.stdout.flush()
            worst = max(worst, status)
        return worst
    finally:
        if session[0] is not None:
            session[0].stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
