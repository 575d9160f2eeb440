#!/usr/bin/env bash
# Peers of LandmarkNear on the same generated files: scikit-learn BallTree, pykdtree, shapely
# STRtree and a plain-Python `watch`. Run from the repository root:
#
#     bash Benchmarks/peers/run.sh [peers.py options, e.g. --queries 100000 --reps 3]
#     bash Benchmarks/peers/run.sh --places [places_peers.py options, e.g. --prefix 100000]
#
# --places runs places_peers.py instead (polygon favourites against shapely + geographiclib and
# PostGIS; `bash Benchmarks/peers/postgis.sh` installs PostgreSQL and PostGIS first, as root).
#
# Makes a venv at Benchmarks/peers/.venv (gitignored) with pinned versions, generates the data
# with landmark-bench when Benchmarks/out/ has none, and writes Benchmarks/out/peers.json.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=Benchmarks/peers/.venv
requirements=Benchmarks/peers/requirements.txt
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$venv/requirements.installed"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/requirements.installed"
fi

# Single-threaded like LandmarkNear's queries (pykdtree and numpy would use every core).
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
if [ "${1:-}" = "--places" ]; then
    # The places' files come from `landmark-bench places` (--data names where they are).
    shift
    exec "$venv/bin/python" Benchmarks/peers/places_peers.py "$@"
fi

if [ ! -f Benchmarks/out/manifest.json ]; then
    echo "run.sh: no generated data yet: swift run -c release landmark-bench generate" >&2
    swift run -c release landmark-bench generate
fi

exec "$venv/bin/python" Benchmarks/peers/peers.py "$@"
