#!/usr/bin/env bash
# Installs the Debian packages of the lists given (one a line, # comments) that are missing:
#
#     bash Scripts/apt-packages.sh Scripts/debian-runtime-packages.txt [LIST...]
#
# Used by Scripts/setup.sh (every list) and Scripts/install.sh (runtime and build lists only).
# Does nothing, and needs no root, when every package is installed.
set -euo pipefail
packages=()
for list in "$@"; do
  mapfile -t -O "${#packages[@]}" packages < <(grep -v '^[[:space:]]*\(#\|$\)' "$list")
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "apt-packages.sh: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
