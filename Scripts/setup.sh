#!/usr/bin/env bash
# Installs what LandmarkNear builds, runs and tests against, when it is missing (Debian/Ubuntu):
# the Debian packages of three lists, and a Python venv at .venv with the test counterparts'
# PyPI packages (Tests/Counterparts/requirements.txt). The one command for developers and CI.
# Safe to run again: it only installs what is missing or changed. It does not build;
# `swift build` / `swift test` do.
#
#   Scripts/debian-runtime-packages.txt  the libraries the binary loads (all a user needs)
#   Scripts/debian-build-packages.txt    the headers `swift build` compiles against
#   Scripts/debian-packages.txt          the tests' and tools' counterparts (gpsd, chromium, ...)
#
# To install the tool only, Scripts/install.sh installs the first two lists and nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

bash Scripts/apt-packages.sh Scripts/debian-runtime-packages.txt Scripts/debian-build-packages.txt \
  Scripts/debian-packages.txt

venv=.venv
requirements=Tests/Counterparts/requirements.txt
# Wheels wanted only for the data they carry: installed without their dependencies.
data_requirements=Tests/Counterparts/data-requirements.txt
if [ ! -x "$venv/bin/python" ] || ! cat "$requirements" "$data_requirements" | cmp -s - "$venv/requirements.installed"; then
  echo "setup.sh: preparing the test venv $venv" >&2
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$data_requirements"
  cat "$requirements" "$data_requirements" >"$venv/requirements.installed"
fi
