#!/usr/bin/env python3
"""Writes the map page's basemap: Natural Earth's 1:110m countries as compact outlines.

    .venv/bin/python Scripts/make-basemap.py            # writes the resource
    .venv/bin/python Scripts/make-basemap.py --check    # fails if the committed one differs

The data is the `naturalearth_lowres` shapefile that the geopandas 0.14.4 wheel ships (Natural
Earth 1:110m admin-0 countries, public domain: https://www.naturalearthdata.com/about/terms-of-use/),
read with pyshp; `Scripts/setup.sh` installs both into `.venv` (geopandas without its
dependencies: only its data is used). The output,
`Sources/LandmarkNearOutputs/Map/Page/basemap.json`, is embedded in the binary with the page's
other files and drawn by `Page/map-basemap.js` (docs/reference/map.md).

Format: `{"source": ..., "unit": 0.01, "rings": [STRING, ...]}`, one string per country outline
(outer rings only: the one hole of that file, Lesotho in South Africa, is Lesotho's own outline).
A ring's string holds its vertices as integers of 0.01 degree (about 1 km: the data's own
accuracy at 1:110m is a few km), lon then lat, the first absolute and the others as differences
from the one before, each difference zig-zag encoded and written in groups of 5 bits, low group
first, one character per group from the URL-safe base64 alphabet, whose value's bit 32 says
another group follows. The alphabet holds no character that JSON or HTML would escape. The
closing vertex (equal to the first) is left out, and so are vertices that round onto the one
before.
"""
import argparse
import importlib.util
import json
import pathlib
import sys

import shapefile

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
UNIT = 0.01
OUT = pathlib.Path(__file__).resolve().parent.parent / "Sources/LandmarkNearOutputs/Map/Page/basemap.json"
SOURCE = (
    "Natural Earth 1:110m admin-0 countries (public domain, naturalearthdata.com), "
    "from the naturalearth_lowres shapefile of the geopandas 0.14.4 wheel"
)


def encode_number(n: int) -> str:
    z = (n << 1) if n >= 0 else ((-n) << 1) - 1
    out = []
    while True:
        group = z & 31
        z >>= 5
        out.append(ALPHABET[group | (32 if z else 0)])
        if not z:
            return "".join(out)


def encode_ring(points) -> str:
    """points: [(lon, lat), ...] closed (last == first), in degrees."""
    rounded = []
    for lon, lat in points[:-1]:
        p = (round(lon / UNIT), round(lat / UNIT))
        if not rounded or p != rounded[-1]:
            rounded.append(p)
    while len(rounded) > 1 and rounded[-1] == rounded[0]:
        rounded.pop()
    out, previous = [], (0, 0)
    for p in rounded:
        out.append(encode_number(p[0] - previous[0]) + encode_number(p[1] - previous[1]))
        previous = p
    return "".join(out)


def signed_area(points) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:])) / 2


def shapefile_path() -> pathlib.Path:
    # Where geopandas is installed, without importing it (installed without its dependencies).
    package = importlib.util.find_spec("geopandas")
    if package is None or not package.submodule_search_locations:
        sys.exit("make-basemap.py: geopandas 0.14 (its data) is not installed: run Scripts/setup.sh and use .venv/bin/python")
    return pathlib.Path(package.submodule_search_locations[0]) / "datasets" / "naturalearth_lowres" / "naturalearth_lowres.shp"


def build() -> tuple[str, dict]:
    reader = shapefile.Reader(str(shapefile_path()))
    rings, holes, vertices = [], 0, 0
    for shape in reader.iterShapes():
        bounds = list(shape.parts) + [len(shape.points)]
        for start, end in zip(bounds, bounds[1:]):
            points = shape.points[start:end]
            # Shapefile outer rings run clockwise (negative area here), holes anticlockwise.
            if signed_area(points) > 0:
                holes += 1
                continue
            encoded = encode_ring(points)
            if len(encoded) >= 4:
                rings.append(encoded)
                vertices += end - start
    text = json.dumps({"source": SOURCE, "unit": UNIT, "rings": rings}, separators=(",", ":")) + "\n"
    return text, {"rings": len(rings), "holesLeftOut": holes, "vertices": vertices, "bytes": len(text.encode())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed resource differs")
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    args = parser.parse_args()
    text, figures = build()
    if args.check:
        if not args.out.exists() or args.out.read_text() != text:
            sys.exit(f"make-basemap.py: {args.out} is not what the data gives: run Scripts/make-basemap.py")
    else:
        args.out.write_text(text)
    print(json.dumps(figures), file=sys.stderr)


if __name__ == "__main__":
    main()
