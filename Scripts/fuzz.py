#!/usr/bin/env python3
"""Mutation fuzzing of the built landmark-near, as a process (docs/guides/development.md#fuzzing).

Every input the tool reads is a target: the fix readers (each fixture of
Tests/LandmarkNearTests/Fixtures/Fixes, read by `watch` and `fixes`), catalogs, profiles,
payloads (`parse`, `validate`), `nearest`'s queries on stdin, and the HTTP bodies of `serve`.
Each iteration takes a seed input of one target, mutates it (bytes flipped, inserted, deleted
or repeated; numbers, escapes, controls and deep nesting spliced in; lines repeated to build
large inputs) and runs the tool on it. A finding is:

- a crash (the process ended by a signal: a Swift trap, SIGSEGV, an abort),
- a hang (no answer within --timeout seconds),
- an exit status outside the documented ones (0, 64, 65, 66, 69, 74, 75, 127, 130, 143;
  AddressSanitizer's reports end with status 1, LeakSanitizer's with 23),
- a raw control byte on stderr (C0 but a newline, DEL, C1, the bidirectional controls),
- for serve, an answer 500-599 other than 503.

Each finding is shrunk (chunks removed while the same finding remains, within a budget) and
written to --out: the input, the command that reproduces it, and its stderr. Runs are seeded:
iteration i's input depends only on --seed and i, so `--seed S --iterations N` repeats a run.

Why a Python script rather than a Swift target: it needs no build of its own and drives any
binary (debug, release, the AddressSanitizer build) the same way, from outside, as users run it;
a crash of the tool can never take the fuzzer down with it; only the standard library is used.

    python3 Scripts/fuzz.py --seconds 60                       # the debug build
    python3 Scripts/fuzz.py --binary .build/asan/debug/landmark-near --seconds 180 --seed 7
"""
import argparse
import hashlib
import http.client
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTED = {0, 64, 65, 66, 69, 74, 75, 127, 130, 143}
LIMIT = 256 * 1024  # bytes of a mutated input (serve's bodies may go up to 1.5 MiB)
RAW = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]")
INTERESTING = [
    b"", b"0", b"-0", b"1e999", b"-1e999", b"NaN", b"nan", b"inf", b"-Infinity", b"1e-400", b"99999999999999999999999",
    b"4294967296", b"-9223372036854775809", b"0x1F", b"1,5", b"+.5", b".", b"-", b"\"", b"\\", b"\\u0000", b"\\ud800",
    b"\\uDC00\\uD800", b"\\u202e", b"\x00", b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x1b]0;t\x07",
    b"\x1b[2J", b"\xc2\x9b", b"\xe2\x80\xae", b"\xe2\x81\xa6", b"\r\n", b"\n\n", b",,,,", b"[]", b"{}", b"null", b"true",
    b"[" * 64, b"{\"a\":" * 64, b"<![CDATA[", b"<!DOCTYPE x [<!ENTITY a \"aaaa\">]>", b"&a;", b"<?xml version=\"1.0\"?>",
    b"$GPRMC,", b"*FF", b"2026-02-31T25:61:61Z", b"1970-01-01T00:00:00Z", b"9999-12-31T23:59:59.999999999Z",
]


class Target:
    """One way of running the tool on one kind of input: `command(path)` is its arguments,
    `stdin` whether the input goes to stdin instead of a file."""

    def __init__(self, name, seeds, command, stdin=False, suffix=""):
        self.name, self.seeds, self.command, self.stdin, self.suffix = name, seeds, command, stdin, suffix


def seed_files():
    fixes = sorted(p for p in (ROOT / "Tests/LandmarkNearTests/Fixtures/Fixes").rglob("*")
                   if p.is_file() and p.suffix not in (".txt", ".md", ".py"))
    fixes += [ROOT / "examples" / n for n in ("hikers.csv", "hikers.ndjson", "joshua-tree.gpx")]
    cities = (ROOT / "Tests/LandmarkNearTests/Fixtures/cities-sample.csv").read_bytes().split(b"\n")[:120]
    catalogs = [
        b"\n".join(cities) + b"\n",
        b'[{"id":1001,"name":"Turtle Rock","coordinates":{"latitude":34.011286,"longitude":-116.166868},"isFavorite":true,'
        b'"park":"Joshua Tree","radius":"2km"},{"id":1002,"name":"Silver Salmon Creek","coordinates":'
        b'{"latitude":59.980167,"longitude":-152.665167}}]',
        b'{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":'
        b'[-116.166868,34.011286]},"properties":{"id":1,"name":"A","isFavorite":true,"radius":300}}]}',
        b"id,name,lat,lon,isFavorite,radius\n1,A,34.011286,-116.166868,yes,500\n2,\"B, \"\"quoted\"\"\",1,2,no,2mi\n",
    ]
    payloads = sorted((ROOT / "Payloads/Fixtures").rglob("*.apns")) + [ROOT / "Payloads/PushNotificationPayload.apns"]
    queries = [b"34,-116\n59.9,-152.6\n", b"lat,lon\n34.01,-116.17\n", b"lon,lat\n-116.17,34.01\n", b"34,5;-116,2\n-33.9 151.2\n"]
    profiles = [(ROOT / "examples/profiles.json").read_bytes(),
                b'{"d1":{"favorites":[1001,1003],"prefersNotifications":true,"apnsTokens":["a1b2c3d4"]}}']
    bodies = [
        ("/fixes", (ROOT / "examples/hikers.ndjson").read_bytes()),
        ("/fixes", (ROOT / "Tests/LandmarkNearTests/Fixtures/Fixes/gpsd/gpspipe-w.ndjson").read_bytes()[:4000]),
        ("/owntracks", b'[{"_type":"location","tid":"ph","lat":34.0113,"lon":-116.1669,"tst":1777636800,"acc":12}]'),
        ("/owntracks", b'{"_type":"location","lat":34.0113,"lon":-116.1669,"tst":1777636800}'),
        ("/osmand", b'{"device_id":"p1","location":{"timestamp":"2026-05-01T12:00:00Z","coords":'
                    b'{"latitude":34.0113,"longitude":-116.1669,"accuracy":5}}}'),
        ("/osmand?", b"id=p2&lat=34.0113&lon=-116.1669&timestamp=1777636800&accuracy=4"),
    ]
    return fixes, catalogs, payloads, queries, profiles, bodies


def targets():
    fixes, catalogs, payloads, queries, profiles, bodies = seed_files()
    files = [p.read_bytes() for p in fixes]
    return [
        Target("watch", files, lambda p: ["watch", "--events", "all", "--explain", "--favorites", "all", p]),
        Target("watch-stdin", files, lambda p: ["watch", "--crossing", "5m", "--dwell", "1m", "--events", "all"], stdin=True),
        Target("fixes", files, lambda p: ["fixes", p]),
        Target("catalog", catalogs, lambda p: ["landmarks", "--json", "--landmarks", p]),
        Target("catalog-nearest", catalogs, lambda p: ["nearest", "34", "-116", "-k", "3", "--landmarks", p]),
        Target("profiles", profiles, lambda p: ["watch", "--explain", "--profiles", p, "examples/hikers.ndjson"]),
        Target("parse", [p.read_bytes() for p in payloads], lambda p: ["parse", "--json", p], suffix=".apns"),
        Target("validate", [p.read_bytes() for p in payloads], lambda p: ["validate", p], suffix=".apns"),
        Target("nearest", queries, lambda p: ["nearest", "--json", "-k", "2"], stdin=True),
        Target("serve", bodies, None),
    ]


def mutate(rng, data, pool):
    """`data` changed by one to eight mutations (`pool`: other seeds, for splicing)."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.randrange(9)
        at = rng.randint(0, len(data))
        if kind == 0 and data:  # flip a bit
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        elif kind == 1:  # an interesting token
            data[at:at] = rng.choice(INTERESTING)
        elif kind == 2 and data:  # delete a range
            data[at:at + rng.randint(1, 64)] = b""
        elif kind == 3 and data:  # repeat a range (builds long names, numbers, nesting)
            start = rng.randrange(len(data))
            chunk = data[start:start + rng.randint(1, 32)]
            data[start:start] = chunk * rng.choice((2, 16, 1000, 20000))
        elif kind == 4:  # random bytes
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 5 and pool:  # splice another seed in
            other = rng.choice(pool)
            start = rng.randint(0, len(other))
            data[at:at] = other[start:start + rng.randint(1, 256)]
        elif kind == 6 and data:  # cut the end
            del data[rng.randint(0, len(data)):]
        elif kind == 7:  # repeat a whole line many times
            lines = bytes(data).split(b"\n")
            i = rng.randrange(len(lines))
            lines[i:i] = [lines[i]] * rng.choice((10, 1000))
            data = bytearray(b"\n".join(lines))
        elif data:  # swap a byte for an ASCII punctuation or digit
            data[rng.randrange(len(data))] = rng.choice(b'"\\{}[],:.-+eE0123456789<>/&; \t\n')
    return bytes(data[:LIMIT])


class Runner:
    def __init__(self, binary, timeout, out):
        self.binary, self.timeout, self.out = binary, timeout, out
        self.work = Path(tempfile.mkdtemp(prefix="landmark-near-fuzz-"))

    def run(self, target, data):
        """(finding or None, stderr) of one run of `target` on `data`."""
        if target.name == "serve":
            return self.serve([data])
        path = self.work / ("input" + target.suffix)
        path.write_bytes(data)
        args = target.command(str(path))
        try:
            done = subprocess.run([self.binary] + args, input=data if target.stdin else None,
                                  stdin=None if target.stdin else subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, timeout=self.timeout, cwd=ROOT, start_new_session=True)
        except subprocess.TimeoutExpired as expired:
            return "hang", expired.stderr or b""
        return judge(done.returncode, done.stderr), done.stderr

    def serve(self, bodies):
        """Posts `bodies` (each `path\\0body`) to one serve; a finding ends the session."""
        process = subprocess.Popen([self.binary, "serve", "--listen", "127.0.0.1:0", "--explain", "--events", "all",
                                    "--favorites", "all", "--idle-timeout", "5s"], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True)
        # Read all along: a stderr nobody reads fills its pipe and stops serve's engine.
        err = bytearray()
        reader = threading.Thread(target=lambda: [err.extend(chunk) for chunk in iter(lambda: process.stderr.read1(65536), b"")])
        reader.start()
        try:
            port = None
            deadline = time.monotonic() + self.timeout
            while port is None and time.monotonic() < deadline and process.poll() is None:
                found = re.search(rb"listening on http://127\.0\.0\.1:(\d+)", bytes(err))
                port = int(found.group(1)) if found else time.sleep(0.02)
            if port is None:
                return "serve did not start", bytes(err)
            for item in bodies:
                path, _, body = item.partition(b"\0")
                finding = post(port, path.decode("latin-1"), body, self.timeout)
                if finding or process.poll() is not None:
                    return finding or judge(process.wait(), b""), bytes(err)
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=self.timeout + 20)
            reader.join()
            return judge(process.returncode, bytes(err)), bytes(err)
        except subprocess.TimeoutExpired:
            return "hang", bytes(err)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            reader.join()
            process.stderr.close()


def post(port, path, body, timeout):
    """A finding for one request to serve, or None."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        if path.endswith("?"):  # a query string, sent as is
            connection.request("GET", path[:-1] + "?" + urllib.parse.quote(body, safe="=&"))
        else:
            connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        status = connection.getresponse().status
        return f"HTTP {status}" if 500 <= status < 600 and status != 503 else None
    except TimeoutError:
        return "hang"
    except (ConnectionError, http.client.HTTPException, OSError):
        return None  # the server closed the connection (a refused body); its death is seen after
    finally:
        connection.close()


def judge(status, stderr):
    if status < 0:
        return f"signal {signal.Signals(-status).name}"
    if status not in DOCUMENTED:
        return f"exit {status}"
    raw = RAW.search(stderr or b"")
    return f"raw control byte {raw.group()!r} on stderr" if raw else None


def shrink(runner, target, data, finding, budget):
    """`data` with chunks removed as long as `finding` remains (ddmin, within `budget` s)."""
    deadline = time.monotonic() + budget
    chunk = max(1, len(data) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i, shrunk = 0, False
        while i < len(data) and time.monotonic() < deadline:
            candidate = data[:i] + data[i + chunk:]
            if runner.run(target, candidate)[0] == finding:
                data, shrunk = candidate, True
            else:
                i += chunk
        if not shrunk:
            chunk //= 2
    return data


def report(runner, target, data, finding, stderr):
    digest = hashlib.sha1(data).hexdigest()[:10]
    slug = re.sub(r"[^a-z0-9]+", "-", finding.lower()).strip("-")[:40]
    base = runner.out / f"{target.name}-{slug}-{digest}"
    base.with_suffix(".input").write_bytes(data)
    base.with_suffix(".stderr").write_bytes(stderr[-20000:])
    if target.name == "serve":
        path, _, _ = data.partition(b"\0")
        command = (f"{runner.binary} serve --listen 127.0.0.1:8083 --explain --events all --favorites all &\n"
                   f"tail -c +{len(path) + 2} {base.with_suffix('.input')} | curl --data-binary @- "
                   f"http://127.0.0.1:8083{path.decode('latin-1')}\n")
    else:
        args = target.command(str(base.with_suffix(".input")))
        command = "cd " + shlex.quote(str(ROOT)) + " && " + shlex.join([str(runner.binary)] + args)
        if target.stdin:
            command += " < " + shlex.quote(str(base.with_suffix(".input")))
        command += "\n"
    base.with_suffix(".sh").write_text(f"# {target.name}: {finding}\n{command}")
    return base


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/landmark-near"))
    parser.add_argument("--seed", default="43", help="any text; the same seed makes the same inputs")
    parser.add_argument("--iterations", type=int, help="stop after this many inputs")
    parser.add_argument("--seconds", type=float, help="stop after this long (60 when neither is given)")
    parser.add_argument("--timeout", type=float, default=20, help="seconds before a run counts as a hang")
    parser.add_argument("--targets", help="comma-separated names (default: all): " + ", ".join(t.name for t in targets()))
    parser.add_argument("--shrink-seconds", type=float, default=60, help="time to shrink each finding")
    parser.add_argument("--out", default=str(ROOT / ".build/fuzz"), help="where reproducers go")
    options = parser.parse_args()
    if not os.access(options.binary, os.X_OK):
        sys.exit(f"fuzz.py: no executable at {options.binary} (swift build --product landmark-near)")
    chosen = [t for t in targets() if not options.targets or t.name in options.targets.split(",")]
    if not chosen:
        sys.exit(f"fuzz.py: no target among {options.targets}")
    seconds = options.seconds if options.seconds or options.iterations else 60
    runner = Runner(os.path.abspath(options.binary), options.timeout, Path(options.out))
    runner.out.mkdir(parents=True, exist_ok=True)
    start, iteration, findings, seen = time.monotonic(), 0, 0, set()
    while (options.iterations is None or iteration < options.iterations) and (
            seconds is None or time.monotonic() - start < seconds):
        rng = random.Random(f"{options.seed}:{iteration}")
        target = chosen[rng.randrange(len(chosen))]
        if target.name == "serve":
            path, body = rng.choice(target.seeds)
            pool = [b for _, b in target.seeds]
            data = path.encode() + b"\0" + mutate(rng, body, pool)[: 3 << 19]
        else:
            data = mutate(rng, rng.choice(target.seeds), target.seeds)
        finding, stderr = runner.run(target, data)
        iteration += 1
        if finding is None:
            continue
        findings += 1
        if (target.name, finding) in seen:
            continue
        seen.add((target.name, finding))
        print(f"fuzz.py: iteration {iteration - 1}, {target.name}: {finding}; shrinking {len(data)} bytes", flush=True)
        if target.name == "serve":
            path, _, body = data.partition(b"\0")
            small = path + b"\0" + shrink(_OneBody(runner, path), target, body, finding, options.shrink_seconds)
        else:
            small = shrink(runner, target, data, finding, options.shrink_seconds)
        base = report(runner, target, small, finding, runner.run(target, small)[1])
        print(f"fuzz.py: {len(small)} bytes reproduce it: sh {base.with_suffix('.sh')}", flush=True)
    elapsed = time.monotonic() - start
    print(f"fuzz.py: seed {options.seed!r}, {iteration} iterations in {elapsed:.0f} s "
          f"(repeat: --seed {shlex.quote(options.seed)} --iterations {iteration}), "
          f"{findings} findings, {len(seen)} distinct" + (f", reproducers in {runner.out}" if seen else ""))
    return 1 if seen else 0


class _OneBody:
    """A runner for shrinking one serve body: each candidate is posted to a fresh serve."""

    def __init__(self, runner, path):
        self.runner, self.path = runner, path

    def run(self, target, body):
        return self.runner.run(target, self.path + b"\0" + body)


if __name__ == "__main__":
    sys.exit(main())
