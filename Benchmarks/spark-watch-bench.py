#!/usr/bin/env python3
"""Benchmark: Scripts/spark-watch.py in local[1] and local[2] against one `landmark-near watch`,
fixes per second on the 1M-fix, 10,000-device load of `landmark-bench generate`.

    swift build -c release --product landmark-near
    swift run -c release landmark-bench generate            # Benchmarks/out/fixes.ndjson, landmarks-cities.csv
    .venv/bin/python Benchmarks/spark-watch-bench.py        # prints a Markdown table, writes Benchmarks/out/spark.json

The load is split into --files contiguous pieces (Spark reads one file per task; one file would
read on one core whatever the master). Each configuration runs once (--reps for more; the
fastest is kept); every Spark run's notifications are checked against the single process's
(per device, in order) before its time counts; the fastest run is kept. Times are wall-clock for the whole command,
JVM start included; the 'start-up' column is the same command on an empty input, and the
'rate without start-up' divides the fixes by the difference.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command, stdin=None, stdout=subprocess.DEVNULL):
    """(wall seconds, stderr)."""
    started = time.monotonic()
    result = subprocess.run(command, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        sys.exit(f"spark-watch-bench: {' '.join(command)} exited {result.returncode}: {result.stderr[-2000:]}")
    return elapsed, result.stderr


def by_device(lines):
    grouped = {}
    for line in lines:
        grouped.setdefault(json.loads(line)["device"].encode("utf-8", "surrogatepass"), []).append(line)
    return grouped


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fixes", default=os.path.join(ROOT, "Benchmarks/out/fixes.ndjson"))
    parser.add_argument("--landmarks", default=os.path.join(ROOT, "Benchmarks/out/landmarks-cities.csv"))
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/landmark-near"))
    parser.add_argument("--files", type=int, default=8, help="pieces the load is split into (default 8)")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--masters", default="local[1],local[2]")
    args = parser.parse_args()
    for path in (args.fixes, args.landmarks, args.binary):
        if not os.path.exists(path):
            sys.exit(f"spark-watch-bench: {path} is missing (see the usage at the top of this script)")
    python = os.path.join(ROOT, ".venv/bin/python")
    script = os.path.join(ROOT, "Scripts/spark-watch.py")
    scratch = tempfile.mkdtemp(prefix="spark-watch-bench-")
    try:
        with open(args.fixes, "rb") as f:
            lines = f.readlines()
        pieces = os.path.join(scratch, "fixes")
        os.makedirs(pieces)
        step = -(-len(lines) // args.files)
        for i in range(args.files):
            with open(os.path.join(pieces, f"fixes-{i:03d}.ndjson"), "wb") as f:
                f.writelines(lines[i * step:(i + 1) * step])
        fix_count = len(lines)
        del lines
        empty = os.path.join(scratch, "empty.ndjson")
        open(empty, "w").close()

        rows = []
        single_out = os.path.join(scratch, "single.ndjson")
        times = []
        for _ in range(args.reps):
            with open(args.fixes, "rb") as stdin, open(single_out, "w") as out:
                elapsed, summary = run([args.binary, "watch", "--landmarks", args.landmarks], stdin=stdin, stdout=out)
            times.append(elapsed)
        with open(single_out) as f:
            expected = f.read().splitlines()
        single = min(times)
        rows.append({"run": "one `landmark-near watch` process", "seconds": single, "startup": None,
                     "fixes_per_second": fix_count / single, "notifications": len(expected)})
        expected_by_device = by_device(expected)

        for master in args.masters.split(","):
            out = os.path.join(scratch, f"out-{master}")
            common = ["--master", master, "--partitions", str(args.partitions), "--binary", args.binary,
                      "--overwrite", "--", "--landmarks", args.landmarks]
            startup = min(run([python, script, empty, "--out", out + "-empty"] + common)[0] for _ in range(args.reps))
            times = []
            for _ in range(args.reps):
                elapsed, summary = run([python, script, pieces, "--out", out] + common)
                times.append(elapsed)
            got = []
            for name in sorted(os.listdir(out)):
                if name.startswith("part-"):
                    with open(os.path.join(out, name)) as f:
                        got += f.read().splitlines()
            if by_device(got) != expected_by_device:
                sys.exit(f"spark-watch-bench: {master}: notifications differ from one process's")
            seconds = min(times)
            rows.append({"run": f"spark-watch.py `{master}`, {args.partitions} partitions", "seconds": seconds,
                         "startup": startup, "fixes_per_second": fix_count / seconds,
                         "steady_fixes_per_second": fix_count / (seconds - startup) if seconds > startup else None,
                         "notifications": len(got), "summary": summary.strip().splitlines()[-1]})

        print(f"| {fix_count:,} fixes of the 1M load, {args.files} files | wall s | start-up s | fixes/s | "
              f"fixes/s without start-up | notifications |")
        print("|---|---:|---:|---:|---:|---:|")
        for row in rows:
            startup = f"{row['startup']:.1f}" if row["startup"] is not None else ""
            steady = f"{row['steady_fixes_per_second'] / 1000:,.0f} k" if row.get("steady_fixes_per_second") else ""
            rate = row["fixes_per_second"]
            rate_text = f"{rate / 1e6:.2f} M" if rate >= 1e6 else f"{rate / 1000:,.0f} k"
            print(f"| {row['run']} | {row['seconds']:.1f} | {startup} | {rate_text} | {steady} | {row['notifications']:,} |")
        os.makedirs(os.path.join(ROOT, "Benchmarks/out"), exist_ok=True)
        with open(os.path.join(ROOT, "Benchmarks/out/spark.json"), "w") as f:
            json.dump({"fixes": fix_count, "files": args.files, "partitions": args.partitions, "rows": rows}, f, indent=2)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
