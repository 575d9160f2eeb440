#!/usr/bin/env python3
"""Peers of `landmark-near watch` with polygon landmarks ("places", issue 37; SPEC 14).

What is measured: the job of

    landmark-near watch --landmarks places-10k.geojson --radius 5mi --cooldown 0 places-fixes.ndjson

on the files that `landmark-bench places` writes (10,000 polygon favourites of 64-512 vertices,
every one a favourite of every device; 1,000,000 fixes of 10,000 devices that move around the
polygons, so most fixes are near or inside one). Per fix: which places are within R of it
(distance 0 inside the polygon, else the WGS84 geodesic distance to its outline); per device an
enter when a place comes within R that the device was not within, an exit beyond R + H
(hysteresis, 0.25 mi by default); the figure is fixes per second and the count of enters.
`--cooldown 0` so that every enter is a notification (the cooldown changes which enters are
printed, not the work).

Peers, as a user would write them (single-threaded, like `watch`):
- shapely: shapely 2 STRtree over the polygons in (lon, lat), prepared. Per batch of fixes
  (vectorised, one call each): the fix's box widened by R + H in degrees (latitude-aware: the
  longitude half-width grows as 1 / cos of the box's far latitude, with 1 % to spare), a bulk
  `STRtree.query(boxes, predicate="intersects")`; `intersects_xy` for inside; for the others
  `shortest_line` (the nearest point of the polygon in PLANAR lon/lat) and then geographiclib's
  `Geodesic.WGS84.Inverse` from the fix to that point (a Python loop: geographiclib is not
  vectorised). This is what a careful user writes; it differs from exact in two ways: the
  nearest point is the planar nearest in degrees (at 60 deg N a degree of longitude is half a
  degree of latitude, so it can be the wrong point of the outline and the distance to it is
  then LONGER than the true one: pairs near R can be missed), and the edges are straight in
  lon/lat, not geodesics (for these ~100 m edges the bulge is millimetres). Boxes are not split
  at +-180 deg nor widened over the poles (the generated places are near GeoNames places).
- postgis: Debian's PostgreSQL 15 + PostGIS 3 (Benchmarks/peers/postgis.sh installs them), a
  cluster of its own in a temp directory on a unix socket, the polygons as `geography` with a
  GiST index; per batch of fixes one query, a lateral join over the unnested arrays:
  `ST_DWithin(geog, fix, R + H)` (spheroid, the index) and `ST_DWithin(geog, fix, R)` for
  the enter. On the spheroid (use_spheroid defaults to true), to PostGIS's own tolerance; on
  the pairs looked at it matched the dense reference below to the millimetre.
- ours: the release `landmark-near watch` (a binary built before, --binary), end to end on the
  same prefix of the fixes (NDJSON file), and on the full file; start-up included, nothing
  subtracted.

Every peer also runs the same enter/exit state machine in Python on its answers (it is part of
the job and costs the same for both peers). The peers are slow, so each is timed on the same
prefix of the fixes (--prefix, 20,000 by default); ours on the prefix and on the whole file.
Tools are alternated within each rep (the machine is shared and noisy): best and median of
--reps.

Agreement, on the first --sample fixes: the (fix, place) pairs within R by each peer and by
ours (`landmark-near nearest --json --within R -k 50`, which prints the exact distances too),
and the enters of each against ours (`watch` on the same lines); a few disagreements are decided
by a reference: geographiclib distances to points sampled every --ref-step metres along every
edge drawn as a geodesic (and a point-in-polygon test on the densified ring).

Run from the repository root (makes the venv, installs PostGIS when asked):

    bash Benchmarks/peers/run.sh --places [options]          # this file through the venv
    sudo bash Benchmarks/peers/postgis.sh                      # once, for the postgis peer
    Benchmarks/peers/.venv/bin/python Benchmarks/peers/places_peers.py \\
        --data /work/benchdata --binary .build/release/landmark-near --prefix 20000 --reps 3

Writes a JSON report (--json-out, default <data>/places-peers.json), merges the peers' figures
into <data>/peers.json (--peers-json; keys as `landmark-bench places` names its own, so it prints
them beside ours) and prints a Markdown table.
"""
import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import shapely
from geographiclib.geodesic import Geodesic

FIVE_MILES = 8046.72
QUARTER_MILE = 402.336
M_PER_DEG_LAT_MIN = 110_574.0   # metres per degree of latitude at the equator (the least)
M_PER_DEG_LON_EQ = 111_319.49   # metres per degree of longitude at the equator (the most)
WGS84 = Geodesic.WGS84


# ---------------------------------------------------------------- data

def load_places(path):
    """(ids, polygons) of a GeoJSON FeatureCollection of Polygon features, in file order."""
    with open(path) as f:
        doc = json.load(f)
    ids, polygons = [], []
    for feature in doc["features"]:
        geometry = feature["geometry"]
        rings = geometry["coordinates"]
        polygons.append(shapely.Polygon(rings[0], rings[1:]))
        ids.append(feature["properties"]["id"])
    return np.array(ids), np.array(polygons, dtype=object)


def load_fixes(path, limit):
    """The first `limit` NDJSON fixes: (lines, devices, lat, lon)."""
    lines, devices, lat, lon = [], [], [], []
    with open(path) as f:
        for line in f:
            if len(lines) >= limit:
                break
            fix = json.loads(line)
            lines.append(line)
            devices.append(fix["device"])
            lat.append(fix["lat"])
            lon.append(fix["lon"])
    return lines, devices, np.array(lat), np.array(lon)


def write_prefix(lines, path):
    with open(path, "w") as f:
        f.writelines(lines)


# ---------------------------------------------------------------- the state machine

def count_enters(devices, fix_index, place_index, near, n_fixes):
    """Enters over the fixes in order, from the pairs within R + H (`near`: also within R).

    A device enters place p at a fix within R of p when p is not in its state; p stays in the
    state while the device is within R + H (exit beyond). Returns (enters, list of
    (fix, place) enters)."""
    order = np.lexsort((place_index, fix_index))
    fix_index, place_index, near = fix_index[order], place_index[order], near[order]
    bounds = np.searchsorted(fix_index, np.arange(n_fixes + 1))
    state = {}
    enters = []
    for i in range(n_fixes):
        lo, hi = bounds[i], bounds[i + 1]
        inside = state.get(devices[i], frozenset())
        kept = set()
        for j in range(lo, hi):
            p = place_index[j]
            if near[j] and p not in inside:
                enters.append((i, int(p)))
            if near[j] or p in inside:
                kept.add(p)
        state[devices[i]] = kept
    return len(enters), enters


# ---------------------------------------------------------------- shapely + geographiclib

class ShapelyPeer:
    name = "shapely STRtree + geographiclib"

    def __init__(self, polygons):
        self.polygons = polygons
        shapely.prepare(polygons)
        self.tree = shapely.STRtree(polygons)

    def boxes(self, lat, lon, reach):
        """Boxes around the fixes that hold every point within `reach` metres (1 % to spare)."""
        dlat = reach / M_PER_DEG_LAT_MIN * 1.01
        far = np.minimum(np.abs(lat) + dlat, 89.9)
        dlon = reach / (M_PER_DEG_LON_EQ * np.cos(np.radians(far))) * 1.01
        return shapely.box(lon - dlon, lat - dlat, lon + dlon, lat + dlat)

    def pairs(self, lat, lon, radius, hysteresis, batch=10_000):
        """(fix, place, distance) for the pairs within radius + hysteresis."""
        reach = radius + hysteresis
        out_f, out_p, out_d = [], [], []
        for start in range(0, len(lat), batch):
            la, lo = lat[start:start + batch], lon[start:start + batch]
            fi, pi = self.tree.query(self.boxes(la, lo, reach), predicate="intersects")
            polys = self.polygons[pi]
            inside = shapely.intersects_xy(polys, lo[fi], la[fi])
            d = np.zeros(len(fi))
            out = ~inside
            if out.any():
                lines = shapely.shortest_line(polys[out], shapely.points(lo[fi[out]], la[fi[out]]))
                ends = shapely.get_coordinates(lines).reshape(-1, 2, 2)  # [polygon point, fix]
                inverse = WGS84.Inverse
                mask = Geodesic.DISTANCE
                d[out] = [inverse(q[1][1], q[1][0], q[0][1], q[0][0], mask)["s12"] for q in ends]
            keep = d <= reach
            out_f.append(fi[keep] + start)
            out_p.append(pi[keep])
            out_d.append(d[keep])
        return np.concatenate(out_f), np.concatenate(out_p), np.concatenate(out_d)

    def distance(self, place, lat, lon):
        """This peer's distance for one pair (0 inside; planar nearest point, geodesic length)."""
        polygon = self.polygons[place]
        if shapely.intersects_xy(polygon, lon, lat):
            return 0.0
        (x1, y1), (x2, y2) = shapely.get_coordinates(shapely.shortest_line(polygon, shapely.Point(lon, lat)))
        return WGS84.Inverse(lat, lon, y1, x1, Geodesic.DISTANCE)["s12"]

    def watch(self, devices, lat, lon, radius, hysteresis):
        f, p, d = self.pairs(lat, lon, radius, hysteresis)
        return count_enters(devices, f, p, d <= radius, len(lat))


# ---------------------------------------------------------------- PostGIS

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgisPeer:
    """A PostgreSQL cluster of its own in a temp directory (unix socket only), PostGIS loaded."""
    name = "PostGIS geography ST_DWithin"

    def __init__(self, pg_bin, places_path, user="postgres"):
        import psycopg  # only needed for this peer
        self.psycopg = psycopg
        self.pg_bin = pg_bin
        self.root = tempfile.mkdtemp(prefix="places-postgis-")
        os.chmod(self.root, 0o755)
        self.data = os.path.join(self.root, "data")
        self.socket_dir = self.root
        self.port = free_port()
        self.run_as = ["runuser", "-u", user, "--"] if os.geteuid() == 0 else []
        if self.run_as:
            shutil.chown(self.root, user)
        self._pg("initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        self._pg("pg_ctl", "-D", self.data, "-w", "-l", os.path.join(self.root, "log"), "-o",
                 f"-k {self.socket_dir} -p {self.port} -c listen_addresses='' -c fsync=off "
                 "-c shared_buffers=512MB -c work_mem=64MB -c max_parallel_workers_per_gather=0 "
                 "-c jit=off", "start")
        self.conn = psycopg.connect(host=self.socket_dir, port=self.port, user="postgres",
                                    dbname="postgres", autocommit=True)
        self.load_seconds = self._load(places_path)

    def _pg(self, tool, *args):
        subprocess.run(self.run_as + [os.path.join(self.pg_bin, tool), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def version(self):
        return self.conn.execute("SELECT version(), postgis_full_version()").fetchone()

    def _load(self, path):
        started = time.perf_counter()
        with open(path) as f:
            doc = json.load(f)
        c = self.conn
        c.execute("CREATE EXTENSION postgis")
        c.execute("CREATE TABLE places (idx int PRIMARY KEY, id bigint, geog geography(Polygon, 4326))")
        with c.cursor() as cur:
            cur.execute("CREATE TEMP TABLE staged (idx int, id bigint, js text)")
            with cur.copy("COPY staged (idx, id, js) FROM STDIN") as copy:
                for i, feature in enumerate(doc["features"]):
                    copy.write_row((i, feature["properties"]["id"],
                                    json.dumps(feature["geometry"], separators=(",", ":"))))
            cur.execute("INSERT INTO places SELECT idx, id, ST_GeomFromGeoJSON(js)::geography FROM staged")
            cur.execute("DROP TABLE staged")
        c.execute("CREATE INDEX places_geog ON places USING gist (geog)")
        c.execute("VACUUM ANALYZE places")
        return time.perf_counter() - started

    QUERY = """
        SELECT f.i - 1, p.idx, ST_DWithin(p.geog, f.g, %(radius)s) AS near
        FROM (SELECT i, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography AS g
              FROM unnest(%(lon)s::float8[], %(lat)s::float8[]) WITH ORDINALITY AS u(lon, lat, i)) f
        CROSS JOIN LATERAL (SELECT idx, geog FROM places
                            WHERE ST_DWithin(geog, f.g, %(reach)s)) p
    """

    def pairs(self, lat, lon, radius, hysteresis, batch=10_000):
        """(fix, place, within R) for the pairs within radius + hysteresis, one query a batch."""
        out_f, out_p, out_n = [], [], []
        with self.conn.cursor() as cur:
            for start in range(0, len(lat), batch):
                cur.execute(self.QUERY, {"radius": radius, "reach": radius + hysteresis,
                                         "lon": lon[start:start + batch].tolist(),
                                         "lat": lat[start:start + batch].tolist()})
                rows = cur.fetchall()
                if rows:
                    a = np.array(rows, dtype=np.int64).reshape(-1, 3)
                    out_f.append(a[:, 0] + start)
                    out_p.append(a[:, 1])
                    out_n.append(a[:, 2].astype(bool))
        if not out_f:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, bool)
        return np.concatenate(out_f), np.concatenate(out_p), np.concatenate(out_n)

    def watch(self, devices, lat, lon, radius, hysteresis):
        f, p, n = self.pairs(lat, lon, radius, hysteresis)
        return count_enters(devices, f, p, n, len(lat))

    def distances(self, fix_lat, fix_lon, place_idx):
        """PostGIS's geography distance (spheroid) for a few (fix, place) pairs."""
        rows = []
        for la, lo, p in zip(fix_lat, fix_lon, place_idx):
            rows.append(self.conn.execute(
                "SELECT ST_Distance(geog, ST_SetSRID(ST_MakePoint(%s, %s), 4326)::geography) "
                "FROM places WHERE idx = %s", (float(lo), float(la), int(p))).fetchone()[0])
        return rows

    def close(self):
        try:
            self.conn.close()
        finally:
            self._pg("pg_ctl", "-D", self.data, "-w", "-m", "fast", "stop")
            shutil.rmtree(self.root, ignore_errors=True)


# ---------------------------------------------------------------- ours

def run_ours(binary, landmarks, fixes_path, radius, hysteresis):
    """Seconds of one `watch` run, its enter lines."""
    started = time.perf_counter()
    proc = subprocess.run([binary, "watch", "--landmarks", landmarks, "--radius", f"{radius}m",
                           "--hysteresis", f"{hysteresis}m", "--cooldown", "0", fixes_path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    seconds = time.perf_counter() - started
    return seconds, proc.stdout, proc.stderr.decode().strip().splitlines()[-1]


def ours_enters(stdout, lines):
    """(fix, place index) of our enter events; fixes matched by (device, time) in the prefix."""
    where = {}
    for i, line in enumerate(lines):
        fix = json.loads(line)
        where[(fix["device"], fix["time"])] = i
    enters = []
    for line in stdout.splitlines():
        event = json.loads(line)
        if event["event"] == "enter":
            enters.append((where[(event["device"], event["time"])], event["landmark"]["index"]))
    return enters


def ours_pairs(binary, landmarks, lat, lon, radius):
    """(fix, place index) -> exact distance within R, by `landmark-near nearest --within`."""
    text = "".join(f"{a:.6f},{b:.6f}\n" for a, b in zip(lat, lon))
    proc = subprocess.run([binary, "nearest", "-", "-k", "50", "--within", f"{radius}m",
                           "--landmarks", landmarks, "--json"], input=text.encode(),
                          stdout=subprocess.PIPE, check=True)
    pairs = {}
    full = 0
    for i, line in enumerate(proc.stdout.decode().splitlines()):
        answer = json.loads(line)
        full += len(answer["nearest"]) == 50
        for hit in answer["nearest"]:
            pairs[(i, hit["index"])] = hit["distanceMeters"]
    return pairs, full


# ---------------------------------------------------------------- the reference

def reference_distance(polygon, lat, lon, step):
    """Exact-ish: 0 inside, else the least geographiclib distance to points every `step` metres
    along each edge drawn as a geodesic (edges far from the fix skipped)."""
    rings = [polygon.exterior] + list(polygon.interiors)
    dense_rings = []
    best = float("inf")
    for ring in rings:
        coords = np.asarray(ring.coords)
        dense = []
        for (x1, y1), (x2, y2) in zip(coords[:-1], coords[1:]):
            line = WGS84.InverseLine(y1, x1, y2, x2)
            n = max(1, int(np.ceil(line.s13 / step)))
            near_end = min(WGS84.Inverse(lat, lon, y1, x1, Geodesic.DISTANCE)["s12"],
                           WGS84.Inverse(lat, lon, y2, x2, Geodesic.DISTANCE)["s12"])
            for k in range(n):
                p = line.Position(line.s13 * k / n, Geodesic.LATITUDE | Geodesic.LONGITUDE)
                dense.append((p["lon2"], p["lat2"]))
                if near_end - line.s13 <= best:  # this edge can hold the nearest point
                    best = min(best, WGS84.Inverse(lat, lon, p["lat2"], p["lon2"],
                                                   Geodesic.DISTANCE)["s12"])
            if near_end - line.s13 <= best:
                best = min(best, WGS84.Inverse(lat, lon, y2, x2, Geodesic.DISTANCE)["s12"])
        dense_rings.append(dense)
    dense_polygon = shapely.Polygon(dense_rings[0], dense_rings[1:])
    return 0.0 if dense_polygon.intersects(shapely.Point(lon, lat)) else best


# ---------------------------------------------------------------- main

def timed_reps(tools, reps):
    """Runs each tool once a rep, alternating; returns {name: [seconds]} and the last results."""
    times = {name: [] for name in tools}
    results = {}
    for rep in range(reps):
        for name, fn in tools.items():
            started = time.perf_counter()
            results[name] = fn()
            times[name].append(time.perf_counter() - started)
            print(f"  rep {rep + 1}/{reps} {name}: {times[name][-1]:.3f} s", file=sys.stderr)
    return times, results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="Benchmarks/out")
    parser.add_argument("--binary", default=".build/release/landmark-near")
    parser.add_argument("--prefix", type=int, default=20_000, help="fixes each peer is timed on")
    parser.add_argument("--sample", type=int, default=20_000, help="fixes of the agreement check")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--radius", type=float, default=FIVE_MILES, help="metres (default 5 mi)")
    parser.add_argument("--hysteresis", type=float, default=QUARTER_MILE, help="metres")
    parser.add_argument("--pg-bin", default="/usr/lib/postgresql/15/bin")
    parser.add_argument("--no-postgis", action="store_true")
    parser.add_argument("--no-load", action="store_true", help="skip the 100k catalog load")
    parser.add_argument("--ref-step", type=float, default=1.0, help="reference sampling, metres")
    parser.add_argument("--ref-cases", type=int, default=6)
    parser.add_argument("--json-out", default=None, help="the full report (default <data>/places-peers.json)")
    parser.add_argument("--peers-json", default=None,
                        help="peers.json to merge the figures into (default <data>/peers.json; 'none' skips)")
    args = parser.parse_args()

    data = args.data
    places_path = os.path.join(data, "places-10k.geojson")
    fixes_path = os.path.join(data, "places-fixes.ndjson")
    binary = os.path.abspath(args.binary)
    R, H = args.radius, args.hysteresis
    report = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                         f"shapely {shapely.__version__} (GEOS {shapely.geos_version_string})",
              "radius_m": R, "hysteresis_m": H, "prefix": args.prefix, "reps": args.reps}

    t = time.perf_counter()
    ids, polygons = load_places(places_path)
    shapely_peer = ShapelyPeer(polygons)
    report["shapely_load_s"] = time.perf_counter() - t
    n = max(args.prefix, args.sample)
    lines, devices, lat, lon = load_fixes(fixes_path, n)
    scratch = tempfile.mkdtemp(prefix="places-peers-")
    prefix_path = os.path.join(scratch, "prefix.ndjson")
    write_prefix(lines[:args.prefix], prefix_path)
    print(f"{len(polygons)} places, {len(lines)} fixes read; shapely load {report['shapely_load_s']:.2f} s",
          file=sys.stderr)

    postgis = None
    if not args.no_postgis:
        try:
            postgis = PostgisPeer(args.pg_bin, places_path)
            report["postgis_version"] = " / ".join(postgis.version())
            report["postgis_load_s"] = postgis.load_seconds
            print(f"PostGIS loaded in {postgis.load_seconds:.1f} s", file=sys.stderr)
        except Exception as error:  # no PostgreSQL/PostGIS here: say so and go on
            report["postgis_unavailable"] = str(error)
            print(f"PostGIS not available: {error}", file=sys.stderr)
            postgis = None

    try:
        P = args.prefix
        d, la, lo = devices[:P], lat[:P], lon[:P]
        tools = {"ours": lambda: run_ours(binary, places_path, prefix_path, R, H),
                 "shapely": lambda: shapely_peer.watch(d, la, lo, R, H)}
        if postgis:
            tools["postgis"] = lambda: postgis.watch(d, la, lo, R, H)
        times, results = timed_reps(tools, args.reps)
        summary = {}
        for name, ts in times.items():
            summary[name] = {"best_s": min(ts), "median_s": statistics.median(ts),
                             "fixes_per_s_best": P / min(ts), "fixes_per_s_median": P / statistics.median(ts)}
        summary["ours"]["enters"] = len(ours_enters(results["ours"][1], lines[:P]))
        summary["ours"]["summary"] = results["ours"][2]
        for name in ("shapely", "postgis"):
            if name in results:
                summary[name]["enters"] = results[name][0]
                summary[name]["ratio_ours_faster"] = summary[name]["median_s"] / summary["ours"]["median_s"]
        report["prefix_runs"] = summary

        # Ours on no fixes (the start-up: read, check and index the 10k polygons), shown beside,
        # not subtracted; and on the whole file.
        empty_path = os.path.join(scratch, "empty.ndjson")
        write_prefix([], empty_path)
        startup = [run_ours(binary, places_path, empty_path, R, H)[0] for _ in range(args.reps)]
        report["ours_startup_s"] = {"best": min(startup), "median": statistics.median(startup)}
        full = []
        for rep in range(args.reps):
            s, _, line = run_ours(binary, places_path, fixes_path, R, H)
            full.append(s)
            print(f"  rep {rep + 1}/{args.reps} ours, full file: {s:.3f} s", file=sys.stderr)
        total = int(line.split(" fixes read")[0].split()[-1])
        report["ours_full"] = {"fixes": total, "best_s": min(full), "median_s": statistics.median(full),
                               "fixes_per_s_best": total / min(full),
                               "fixes_per_s_median": total / statistics.median(full), "summary": line}

        report["agreement"] = agreement(args, binary, places_path, polygons, ids, devices, lat, lon, lines,
                                        shapely_peer, postgis, scratch)
        if not args.no_load:
            report["load_100k"] = load_100k(binary, os.path.join(data, "places-100k.geojson"), args.reps)
    finally:
        if postgis:
            postgis.close()
        shutil.rmtree(scratch, ignore_errors=True)

    print_table(report)
    out = args.json_out or os.path.join(data, "places-peers.json")
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
    peers_json = args.peers_json or os.path.join(data, "peers.json")
    if peers_json != "none":
        merge_peer_results(report, peers_json)
        print(f"merged into {peers_json}")
    print(f"\nwrote {out}")


def agreement(args, binary, places_path, polygons, ids, devices, lat, lon, lines, shapely_peer, postgis, scratch):
    """Pairs within R and enters of each peer against ours on the first --sample fixes."""
    S, R, H = args.sample, args.radius, args.hysteresis
    d, la, lo = devices[:S], lat[:S], lon[:S]
    ours, full_rows = ours_pairs(binary, places_path, la, lo, R)
    sample_path = os.path.join(scratch, "sample.ndjson")
    write_prefix(lines[:S], sample_path)
    _, stdout, _ = run_ours(binary, places_path, sample_path, R, H)
    our_enters = set(ours_enters(stdout, lines[:S]))
    result = {"fixes": S, "ours_pairs": len(ours), "ours_rows_full_at_k50": full_rows,
              "ours_enters": len(our_enters)}
    peers = {}
    f, p, dist = shapely_peer.pairs(la, lo, R, H)
    near = dist <= R
    peers["shapely"] = ({(int(a), int(b)): float(c) for a, b, c in zip(f[near], p[near], dist[near])},
                        set(count_enters(d, f, p, near, S)[1]))
    if postgis:
        f, p, n = postgis.pairs(la, lo, R, H)
        peers["postgis"] = ({(int(a), int(b)): None for a, b in zip(f[n], p[n])},
                            set(count_enters(d, f, p, n, S)[1]))
    cases = []
    for name, (pairs, enters) in peers.items():
        only_peer = sorted(set(pairs) - set(ours))
        only_ours = sorted(set(ours) - set(pairs))
        result[name] = {"pairs": len(pairs), "only_peer": len(only_peer), "only_ours": len(only_ours),
                        "enters": len(enters), "enters_only_peer": len(enters - our_enters),
                        "enters_only_ours": len(our_enters - enters)}
        print(f"agreement {name}: {len(pairs)} pairs vs ours {len(ours)}; only {name} {len(only_peer)}, "
              f"only ours {len(only_ours)}; enters {len(enters)} vs {len(our_enters)}", file=sys.stderr)
        for kind, keys in (("only_" + name, only_peer), ("only_ours_vs_" + name, only_ours)):
            for key in keys[:args.ref_cases // 2]:
                cases.append((kind, key))
    # Where shapely + geographiclib is SHORTER than ours (its point is on a straight lon/lat
    # edge; is ours too long?): the two most negative differences, decided too.
    shapely_d = peers["shapely"][0]
    shorter = sorted((shapely_d[k] - ours[k], k) for k in shapely_d if k in ours)[:2]
    cases += [("shapely_shorter_than_ours", k) for diff, k in shorter if diff < 0]
    # A few disagreements, decided by the dense geodesic reference.
    decided = []
    for kind, (i, p) in cases:
        ref = reference_distance(polygons[p], lat[i], lon[i], args.ref_step)
        entry = {"case": kind, "fix": i, "lat": float(lat[i]), "lon": float(lon[i]), "place_id": int(ids[p]),
                 "reference_m": round(ref, 3), "ours_m": ours.get((i, p)),
                 "shapely_geographiclib_m": round(shapely_peer.distance(p, lat[i], lon[i]), 3)}
        if postgis:
            entry["postgis_m"] = round(postgis.distances([lat[i]], [lon[i]], [p])[0], 3)
        if entry["ours_m"] is None:  # ours did not list it within R: ask for its distance
            proc = subprocess.run([binary, "nearest", f"{lat[i]:.6f},{lon[i]:.6f}", "-k", "50",
                                   "--landmarks", places_path, "--json"], stdout=subprocess.PIPE, check=True)
            for hit in json.loads(proc.stdout)["nearest"]:
                if hit["index"] == p:
                    entry["ours_m"] = hit["distanceMeters"]
        decided.append(entry)
        print("  case", json.dumps(entry), file=sys.stderr)
    result["cases"] = decided
    # Distances of the pairs both found: shapely+geographiclib against ours.
    both = [k for k in shapely_d if k in ours]
    diffs = np.array([shapely_d[k] - ours[k] for k in both]) if both else np.zeros(1)
    result["shapely_minus_ours_m"] = {"pairs": len(both), "max": float(diffs.max()), "min": float(diffs.min()),
                                     "over_1m": int((np.abs(diffs) > 1).sum())}
    return result


def load_100k(binary, path, reps):
    """Seconds to load the 100k-polygon catalog: ours (`landmarks --json`) and shapely (json + polygons)."""
    if not os.path.exists(path):
        return None
    ours, peer = [], []
    for _ in range(reps):
        started = time.perf_counter()
        subprocess.run([binary, "landmarks", "--landmarks", path, "--json"], stdout=subprocess.DEVNULL, check=True)
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        _, polygons = load_places(path)
        shapely.STRtree(polygons)
        peer.append(time.perf_counter() - started)
        del polygons
    print(f"load 100k: ours {min(ours):.2f} s, shapely {min(peer):.2f} s", file=sys.stderr)
    return {"ours_best_s": min(ours), "ours_median_s": statistics.median(ours),
            "shapely_best_s": min(peer), "shapely_median_s": statistics.median(peer)}


def merge_peer_results(report, path):
    """Writes the peers' figures into peers.json (the file `landmark-bench places` reads to put
    them beside ours), keys named as its own: `places.watch.dense` (fixes/s) and
    `places.load.100k` (s). Entries of other keys and peers are kept."""
    doc = {"results": []}
    if os.path.exists(path):
        with open(path) as f:
            doc = json.load(f)
    entries = []
    runs = report["prefix_runs"]
    note = (f"first {report['prefix']:,} fixes of places-fixes.ndjson, median of {report['reps']}; "
            "polygons loaded before, not timed")
    for name, peer in (("shapely", "shapely STRtree + geographiclib"), ("postgis", "PostGIS geography ST_DWithin")):
        if name in runs:
            entries.append({"key": "places.watch.dense", "peer": peer, "value": runs[name]["fixes_per_s_median"],
                            "unit": "fixes/s", "note": note})
    if report.get("load_100k"):
        entries.append({"key": "places.load.100k", "peer": "json + shapely polygons + STRtree",
                        "value": report["load_100k"]["shapely_median_s"], "unit": "s",
                        "note": f"median of {report['reps']}"})
    replaced = {(e["key"], e["peer"]) for e in entries}
    doc["results"] = [e for e in doc.get("results", []) if (e["key"], e["peer"]) not in replaced] + entries
    doc.setdefault("python", platform.python_version())
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)


def print_table(report):
    runs = report["prefix_runs"]
    labels = {"ours": "landmark-near watch", "shapely": ShapelyPeer.name, "postgis": PostgisPeer.name}
    print(f"\nPlaces: first {report['prefix']:,} fixes, R = {report['radius_m']} m, median (best) of {report['reps']}\n")
    sample = report.get("agreement", {}).get("fixes", 0)
    print(f"| tool | fixes/s | ours faster by | enters, first {report['prefix']:,} fixes | "
          f"pairs within R, first {sample:,} fixes (only peer / only ours) |")
    print("| --- | ---: | ---: | ---: | --- |")
    agreement = report.get("agreement", {})
    for name, run in runs.items():
        a = agreement.get(name)
        pairs = f"{a['pairs']:,} ({a['only_peer']} / {a['only_ours']})" if a else f"{agreement.get('ours_pairs', 0):,}"
        ratio = f"{run['ratio_ours_faster']:.1f}x" if "ratio_ours_faster" in run else "1"
        print(f"| {labels[name]} | {run['fixes_per_s_median']:,.0f} ({run['fixes_per_s_best']:,.0f}) | {ratio} | "
              f"{run['enters']:,} | {pairs} |")
    print(f"| landmark-near watch, no fixes (start-up) | {report['ours_startup_s']['median']:.2f} s | | | |")
    full = report["ours_full"]
    for name in ("shapely", "postgis"):
        if name in runs:
            runs[name]["ratio_full_ours_per_fix"] = full["fixes_per_s_median"] / runs[name]["fixes_per_s_median"]
            print(f"| ours on all fixes / {name} (per fix) | | {runs[name]['ratio_full_ours_per_fix']:.1f}x | | |")
    print(f"| landmark-near watch, all {full['fixes']:,} fixes | {full['fixes_per_s_median']:,.0f} "
          f"({full['fixes_per_s_best']:,.0f}) | | | |")
    marginal = full["fixes"] / max(1e-9, full["median_s"] - report["ours_startup_s"]["median"])
    print(f"| (the same less the start-up's median, for reading only) | {marginal:,.0f} | | | |")
    if report.get("load_100k"):
        l = report["load_100k"]
        print(f"\nLoad 100k polygons: ours {l['ours_median_s']:.2f} s, shapely {l['shapely_median_s']:.2f} s (medians)")


if __name__ == "__main__":
    main()
