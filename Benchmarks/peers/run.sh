#!/usr/bin/env bash
# Peers of LandmarkNear on the same generated files: scikit-learn BallTree, pykdtree, shapely
# STRtree and a plain-Python `watch`. Run from the repository root:
#
#     bash Benchmarks/peers/run.sh [peers.py options, e.g. --queries 100000 --reps 3]
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

if [ ! -f Benchmarks/out/manifest.json ]; then
    echo "run.sh: no generated data yet: swift run -c release landmark-bench generate" >&2
    swift run -c release landmark-bench generate
fi

# Single-threaded like LandmarkNear's queries (pykdtree and numpy would use every core).
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
exec "$venv/bin/python" Benchmarks/peers/peers.py "$@"
