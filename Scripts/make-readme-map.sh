#!/usr/bin/env bash
# Makes docs/images/road-trip.png, the README's picture of the quick start's map: the real
# page of `landmark-near map Samples/road-trip.nmea`, screenshotted by headless chromium.
# Needs `bash Scripts/setup.sh` (chromium, the test venv) and a debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
.build/debug/landmark-near map Samples/road-trip.nmea --out "$out/road-trip.html"
.venv/bin/python Tests/Counterparts/map_page_check.py "$out/road-trip.html" \
  --screenshot docs/images/road-trip.png --width 1200 --height 720 > "$out/report.json"
echo "docs/images/road-trip.png written" >&2
