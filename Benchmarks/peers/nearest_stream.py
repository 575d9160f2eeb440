#!/usr/bin/env python3
"""The peer of `landmark-near nearest` as a stream: a pykdtree pipeline from Python.

    nearest_stream.py CATALOG.csv [--json] < queries (one `lat,lon` a line) > answers

Reads the catalog (`id,lat,lon,name,...` as `landmark-bench generate` writes it), builds a
pykdtree KDTree over the places' 3-D unit vectors, reads every query line, asks for the nearest
of all of them in one batched call, turns each chord into a SPHERICAL great-circle distance
(R = 6,371,008.8 m; LandmarkNear's are WGS84 geodesics) and writes one line an answer:
`lat,lon,index,id,distance_m,name` or, with --json, the object `landmark-near nearest --json`
prints. Run by `landmark-bench nearest`, interleaved with ours, as a whole process.
"""
import csv
import json
import sys

import numpy as np
from pykdtree.kdtree import KDTree

R_EARTH = 6371008.8


def unit_vectors(lat, lon):
    la, lo = np.radians(lat), np.radians(lon)
    c = np.cos(la)
    return np.ascontiguousarray(np.column_stack((c * np.cos(lo), c * np.sin(lo), np.sin(la))))


def main():
    catalog, as_json = sys.argv[1], "--json" in sys.argv[2:]
    ids, lats, lons, names = [], [], [], []
    with open(catalog, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        next(rows)
        for row in rows:
            ids.append(int(row[0]))
            lats.append(float(row[1]))
            lons.append(float(row[2]))
            names.append(row[3])
    tree = KDTree(unit_vectors(np.array(lats), np.array(lons)))
    text = sys.stdin.read().split()
    pairs = [line.split(",") for line in text]
    query = np.array(pairs, dtype=np.float64)
    chord, index = tree.query(unit_vectors(query[:, 0], query[:, 1]), k=1)
    metres = 2 * R_EARTH * np.arcsin(np.minimum(chord / 2, 1.0))
    out = []
    if as_json:
        for (lat, lon), i, d in zip(pairs, index.tolist(), np.round(metres, 3).tolist()):
            out.append('{"lat":%s,"lon":%s,"nearest":[{"index":%d,"id":%d,"name":%s,"distanceMeters":%r}]}'
                       % (lat, lon, i, ids[i], json.dumps(names[i], ensure_ascii=False), d))
    else:
        for (lat, lon), i, d in zip(pairs, index.tolist(), metres.tolist()):
            out.append("%s,%s,%d,%d,%.3f,%s" % (lat, lon, i, ids[i], d, names[i]))
    out.append("")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
