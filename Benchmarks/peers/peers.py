#!/usr/bin/env python3
"""Peers of LandmarkNear's index and `watch`, on the very files `landmark-bench generate` wrote.

Run through `bash Benchmarks/peers/run.sh` (it makes the venv). Reads Benchmarks/out/, writes
Benchmarks/out/peers.json (keys named like landmark-bench's, so `landmark-bench all` can put the
figures side by side) and prints a Markdown table.

All peers here are SPHERICAL (haversine / chord on a sphere of the mean Earth radius
6,371,008.8 m); LandmarkNear is ELLIPSOIDAL (WGS84 geodesics, Karney). At 5 miles the two
differ by up to ~0.5 %, i.e. tens of metres at the edge of the radius: results are the same
kind of answer, not bit-identical ones.

Peers (all single-threaded: OMP_NUM_THREADS=1, as LandmarkNear's queries are):
- scikit-learn BallTree(metric="haversine"): nearest = query(k=1), within = query_radius(r).
  "batched": one call with every query point (the library's natural use; per-query figure =
  total time / queries). "per call": one call per point, as an engine handling one fix at a
  time would do (Python call + input validation overhead included).
- pykdtree KDTree on 3-D unit vectors (x, y, z on the unit sphere): nearest = query(k=1) and the
  chord turned back into an arc; within = query(k=K, distance_upper_bound=chord(5 mi)) — pykdtree
  has no radius query, so at most K neighbours come back; rows that come back full are asked
  again with 4 K (and so on) until none is full, so the answer is complete. Batched.
- shapely 2 STRtree over (lon, lat) points: within = query(cap bounding boxes) then an exact
  haversine re-check of the candidates (boxes are not split at the antimeridian nor widened
  over the poles: a few edge answers can be missed); nearest = query_nearest, which is PLANAR
  nearest in degrees (not great-circle), shown for the cost only. Batched.
- plain-Python watch: json.loads per NDJSON line, a BallTree (haversine, favourites only)
  query_radius(R + H) per fix, and docs/reference/engine.md's enter/exit/cooldown state machine with default
  settings (R = 5 mi, H = 0.25 mi, max accuracy 1000 m, cooldown 1 h, stale-time drop;
  favourites = every 50th landmark, the catalog's isFavorite), one NDJSON line with the APNs
  payload per notification written to /dev/null. Subsampled: the first --watch-fixes lines.
"""
import argparse
import csv
import ctypes
import datetime
import json
import math
import os
import platform
import statistics
import sys
import time

import numpy as np
import shapely
import sklearn
from pykdtree.kdtree import KDTree
from sklearn.neighbors import BallTree

R_EARTH = 6371008.8          # mean Earth radius, metres (IUGG)
FIVE_MILES = 8046.72
HYSTERESIS = 402.336
MAX_ACCURACY = 1000.0
COOLDOWN = 3600.0

EMBEDDED = [  # docs/reference/catalogs.md: (lat, lon) of the tutorial's twelve landmarks
    (34.011286, -116.166868), (59.980167, -152.665167), (59.560551, -135.334571),
    (48.69423, -113.536248), (60.641684, -153.849883), (48.56002, -113.934831),
    (65.350021, -143.122586), (60.089917, -141.518167), (61.694334, -150.086103),
    (48.495442, -121.17799), (37.91531, -75.383212), (44.747408, -71.056816),
]

results = []


def record(key, peer, value, unit, note=""):
    results.append({"key": key, "peer": peer, "value": value, "unit": unit, "note": note})
    print(f"  {key:28s} {peer:40s} {value:12.3f} {unit}  {note}", flush=True)


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


_libc = ctypes.CDLL(None)
_libc.mallinfo2.restype = _MallInfo2


def heap_bytes():
    """Bytes malloc'd and not freed (glibc mallinfo2: uordblks + hblkhd), as landmark-bench
    measures its own index. numpy arrays and GEOS/pykdtree structures come from malloc;
    Python's small objects (pymalloc arenas) do not, so this slightly under-counts peers."""
    info = _libc.mallinfo2()
    return info.uordblks + info.hblkhd


def timed(fn, reps):
    """Runs fn once to warm up, then reps times; returns (median seconds, last result)."""
    out = fn()
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples), out


def load_latlon(path, lat_col, limit=None):
    return np.loadtxt(path, delimiter=",", skiprows=1, usecols=(lat_col, lat_col + 1), max_rows=limit,
                      quotechar='"', comments=None, dtype=np.float64).reshape(-1, 2)


def unit_vectors(latlon):
    lat = np.radians(latlon[:, 0])
    lon = np.radians(latlon[:, 1])
    c = np.cos(lat)
    return np.ascontiguousarray(np.column_stack((c * np.cos(lon), c * np.sin(lon), np.sin(lat))))


def haversine_m(lat1, lon1, lat2, lon2):
    """Great-circle distance on the sphere, inputs in degrees (numpy arrays)."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    dphi = p2 - p1
    dlmb = np.radians(lon2 - lon1)
    a = np.sin(dphi / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dlmb / 2) ** 2
    return 2 * R_EARTH * np.arcsin(np.sqrt(np.minimum(a, 1.0)))


def bench_balltree(name, landmarks, queries, per_call_n, reps):
    peer = "scikit-learn BallTree"
    rad = np.radians(landmarks)
    before = heap_bytes()
    tree = BallTree(rad, metric="haversine")
    after = heap_bytes()
    build, _ = timed(lambda: BallTree(rad, metric="haversine"), min(reps, 3))
    record(f"index.build.{name}", peer, build * 1e3, "ms")
    record(f"index.bytes.{name}", peer, (after - before) / len(landmarks), "B", "malloc'd (mallinfo2), input array excluded")
    q = np.radians(queries)
    t, (dist, ind) = timed(lambda: tree.query(q, k=1), reps)
    record(f"index.nearest.{name}", peer, t / len(q) * 1e6, "µs/query", f"haversine, batched, {len(q):,} queries")
    r = FIVE_MILES / R_EARTH
    t, ind = timed(lambda: tree.query_radius(q, r=r), reps)
    hits = sum(len(i) for i in ind) / len(q)
    record(f"index.within.{name}", peer, t / len(q) * 1e6, "µs/query", f"batched, {len(q):,} queries; {hits:.2f} hits/query")
    qs = [q[i:i + 1] for i in range(min(per_call_n, len(q)))]
    t, _ = timed(lambda: [tree.query(x, k=1) for x in qs], reps)
    record(f"index.nearest.{name}", peer + ", per call", t / len(qs) * 1e6, "µs/query", f"{len(qs):,} calls")
    t, _ = timed(lambda: [tree.query_radius(x, r=r) for x in qs], reps)
    record(f"index.within.{name}", peer + ", per call", t / len(qs) * 1e6, "µs/query", f"{len(qs):,} calls")


def bench_pykdtree(name, landmarks, queries, k_within, reps):
    peer = "pykdtree"
    xyz = unit_vectors(landmarks)
    before = heap_bytes()
    tree = KDTree(xyz)
    after = heap_bytes()
    build, _ = timed(lambda: KDTree(xyz), min(reps, 3))
    record(f"index.build.{name}", peer, build * 1e3, "ms")
    record(f"index.bytes.{name}", peer, (after - before) / len(landmarks), "B", "malloc'd (mallinfo2), input array excluded")
    qxyz = unit_vectors(queries)

    def nearest():
        chord, ind = tree.query(qxyz, k=1)
        return 2 * R_EARTH * np.arcsin(np.minimum(chord / 2, 1.0)), ind
    t, _ = timed(nearest, reps)
    record(f"index.nearest.{name}", peer, t / len(qxyz) * 1e6, "µs/query", f"3-D unit vectors, batched, {len(qxyz):,} queries")
    bound = 2 * math.sin(FIVE_MILES / R_EARTH / 2)

    def within():
        """k nearest under the chord bound; rows that come back full (k hits, maybe more) are
        asked again with 4 k until none is full, so every hit is found."""
        k = min(k_within, len(landmarks))
        chord, _ = tree.query(qxyz, k=k, distance_upper_bound=bound)
        chord = chord.reshape(len(qxyz), k)
        hits = np.isfinite(chord).sum(axis=1)
        rows = np.nonzero(hits == k)[0] if k < len(landmarks) else np.empty(0, dtype=np.intp)
        requeried = len(rows)
        while len(rows):
            k = min(4 * k, len(landmarks))
            again, _ = tree.query(qxyz[rows], k=k, distance_upper_bound=bound)
            again = again.reshape(len(rows), k)
            hits[rows] = np.isfinite(again).sum(axis=1)
            rows = rows[hits[rows] == k] if k < len(landmarks) else rows[:0]
        return hits, requeried
    t, (hits, requeried) = timed(within, reps)
    record(f"index.within.{name}", peer, t / len(qxyz) * 1e6, "µs/query",
           f"batched, {len(qxyz):,} queries; k={k_within} under a chord bound, {requeried:,} full rows re-asked with larger k; {hits.sum() / len(qxyz):.2f} hits/query")


def bench_strtree(name, landmarks, queries, reps):
    peer = "shapely STRtree"
    pts = shapely.points(landmarks[:, 1], landmarks[:, 0])
    before = heap_bytes()
    tree = shapely.STRtree(pts)
    tree.query(shapely.points(0.0, 0.0))    # STRtree builds lazily on the first query
    after = heap_bytes()

    def build():
        t = shapely.STRtree(pts)
        t.query(shapely.points(0.0, 0.0))
        return t
    b, _ = timed(build, min(reps, 3))
    record(f"index.build.{name}", peer, b * 1e3, "ms", "points made beforehand")
    record(f"index.bytes.{name}", peer, (after - before) / len(landmarks), "B", "malloc'd (mallinfo2), point geometries excluded")
    qlat, qlon = queries[:, 0], queries[:, 1]
    dlat = math.degrees(FIVE_MILES / R_EARTH)

    def within():
        coslat = np.cos(np.radians(np.minimum(np.abs(qlat) + dlat, 89.9)))
        dlon = np.minimum(dlat / coslat, 180.0)
        boxes = shapely.box(qlon - dlon, qlat - dlat, qlon + dlon, qlat + dlat)
        qi, li = tree.query(boxes)
        d = haversine_m(qlat[qi], qlon[qi], landmarks[li, 0], landmarks[li, 1])
        keep = d <= FIVE_MILES
        return qi[keep], li[keep], d[keep]
    t, (qi, _, _) = timed(within, reps)
    record(f"index.within.{name}", peer, t / len(queries) * 1e6, "µs/query",
           f"batched, {len(queries):,} queries; cap box + haversine re-check; {len(qi) / len(queries):.2f} hits/query")
    qpts = shapely.points(qlon, qlat)
    t, _ = timed(lambda: tree.query_nearest(qpts, all_matches=False), reps)
    record(f"index.nearest.{name}", peer, t / len(queries) * 1e6, "µs/query",
           f"batched, {len(queries):,} queries; planar nearest, not great-circle")


class PythonWatch:
    """docs/reference/engine.md with default settings, one fix at a time."""

    def __init__(self, catalog_path):
        self.names, fav_rows, fav_latlon = [], [], []
        with open(catalog_path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            next(reader)
            for row, (_id, lat, lon, name, is_fav) in enumerate(reader):
                self.names.append(name)
                if is_fav == "true":
                    fav_rows.append(row)
                    fav_latlon.append((float(lat), float(lon)))
        self.fav_rows = np.array(fav_rows)
        self.fav_latlon = np.array(fav_latlon)
        self.tree = BallTree(np.radians(self.fav_latlon), metric="haversine")
        self.r_query = (FIVE_MILES + HYSTERESIS) / R_EARTH
        self.devices = {}   # device -> [last_time, inside: set(row), notified: {row: time}]
        self.counts = {"read": 0, "used": 0, "stale": 0, "inaccurate": 0, "invalid": 0, "notifications": 0}

    def payload(self, row):
        name = self.names[row]
        return {"aps": {"alert": {"title": name, "body": f"You are within 5 miles of {name}."},
                        "category": "LandmarkNear", "thread-id": "5280"}, "landmarkIndex": row}

    def process(self, line, sink):
        c = self.counts
        c["read"] += 1
        try:
            o = json.loads(line)
            lat, lon = float(o["lat"]), float(o["lon"])
        except (ValueError, KeyError, TypeError):
            c["invalid"] += 1
            return
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            c["invalid"] += 1
            return
        acc = o.get("acc")
        if acc is not None and acc > MAX_ACCURACY:
            c["inaccurate"] += 1
            return
        device = o.get("device", "default")
        ts = o.get("time")
        t = datetime.datetime.fromisoformat(ts).timestamp() if ts is not None else None
        state = self.devices.get(device)
        if state is None:
            state = self.devices[device] = [None, set(), {}]
        if t is not None:
            if state[0] is not None and t <= state[0]:
                c["stale"] += 1
                return
            state[0] = t
        c["used"] += 1
        ind, dist = self.tree.query_radius(np.radians([[lat, lon]]), r=self.r_query, return_distance=True)
        ind, dist = ind[0], dist[0] * R_EARTH
        inside = state[1]
        near = {}
        for i, d in zip(ind, dist):
            near[int(self.fav_rows[i])] = d
        for row in [r for r in inside if r not in near]:      # beyond R + H: exit
            inside.discard(row)
        for row, d in sorted(near.items(), key=lambda kv: (kv[1], kv[0])):
            if d <= FIVE_MILES and row not in inside:
                inside.add(row)
                last = state[2].get(row)
                if t is not None and last is not None and t - last < COOLDOWN:
                    continue
                state[2][row] = t
                c["notifications"] += 1
                sink.write(json.dumps({"event": "enter", "device": device, "time": ts,
                                       "fix": {"lat": lat, "lon": lon},
                                       "landmark": {"index": row, "name": self.names[row]},
                                       "distanceMeters": round(float(d), 1), "payload": self.payload(row)},
                                      ensure_ascii=False, separators=(",", ":")) + "\n")


def bench_watch(out, fixes_limit, reps):
    catalog = os.path.join(out, "landmarks-cities.csv")
    path = os.path.join(out, "fixes.ndjson")
    with open(path, encoding="utf-8") as f:
        lines = [next(f) for _ in range(fixes_limit)]
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        w = PythonWatch(catalog)
        startup = time.perf_counter() - t0
        with open(os.devnull, "w") as sink:
            t1 = time.perf_counter()
            for line in lines:
                w.process(line, sink)
            samples.append((time.perf_counter() - t1, startup))
    run, startup = sorted(samples)[len(samples) // 2]
    record("watch.ndjson", "plain Python", len(lines) / run, "fixes/s",
           f"json.loads + BallTree per fix + docs/reference/engine.md; first {len(lines):,} fixes, lines in memory, start-up excluded; {w.counts['notifications']:,} notifications")
    record("watch.startup", "plain Python", startup * 1e3, "ms", "catalog read + favourites' BallTree")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(here, "..", "out"))
    ap.add_argument("--queries", type=int, default=100_000, help="query subsample for BallTree and STRtree")
    ap.add_argument("--kd-queries", type=int, default=1_000_000, help="queries for pykdtree (fast)")
    ap.add_argument("--per-call", type=int, default=10_000, help="queries for the per-call BallTree figures")
    ap.add_argument("--k-within", type=int, default=32, help="pykdtree's K for the within query")
    ap.add_argument("--watch-fixes", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sets", default="embedded,cities,synthetic-10k,synthetic-100k,synthetic-1m")
    args = ap.parse_args()
    out = os.path.normpath(args.out)
    if not os.path.exists(os.path.join(out, "manifest.json")):
        sys.exit(f"{out}/manifest.json is missing: run `swift run -c release landmark-bench generate` first")

    print(f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
          f"shapely {shapely.__version__} (GEOS {shapely.geos_version_string}), pykdtree; OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}")
    queries_all = load_latlon(os.path.join(out, "queries.csv"), 0, args.kd_queries)
    queries = queries_all[:args.queries]
    for name in args.sets.split(","):
        if name == "embedded":
            landmarks = np.array(EMBEDDED)
        elif name == "cities":
            landmarks = load_latlon(os.path.join(out, "landmarks-cities.csv"), 1)
        else:
            landmarks = load_latlon(os.path.join(out, f"landmarks-{name}.csv"), 1)
        print(f"{name}: {len(landmarks):,} landmarks", flush=True)
        bench_balltree(name, landmarks, queries, args.per_call, args.reps)
        bench_pykdtree(name, landmarks, queries_all, args.k_within, args.reps)
        bench_strtree(name, landmarks, queries, args.reps)
    print("watch (plain Python):", flush=True)
    bench_watch(out, args.watch_fixes, args.reps)

    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    doc = {
        "python": platform.python_version(),
        "versions": {"numpy": np.__version__, "scikit-learn": sklearn.__version__,
                     "shapely": shapely.__version__, "geos": shapely.geos_version_string},
        "machine": {"cores": os.cpu_count(), "cpu": cpu},
        "notes": ["peers are spherical (R = 6,371,008.8 m); LandmarkNear is WGS84 ellipsoidal",
                  f"BallTree/STRtree on the first {args.queries:,} queries, pykdtree on {len(queries_all):,}",
                  "single-threaded (OMP_NUM_THREADS=1)"],
        "results": results,
    }
    with open(os.path.join(out, "peers.json"), "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
    print()
    print("| Measure | Peer | Figure | Note |")
    print("|---|---|---:|---|")
    for r in results:
        print(f"| {r['key']} | {r['peer']} | {r['value']:.3f} {r['unit']} | {r['note']} |")
    print(f"\nwrote {os.path.join(out, 'peers.json')}")


if __name__ == "__main__":
    main()
