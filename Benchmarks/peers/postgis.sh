#!/usr/bin/env bash
# Installs what the PostGIS peer of places_peers.py needs, from Debian's own packages (run as
# root, once; not part of CI: the benchmark is not run there):
#
#   postgresql-15                  the server (initdb, pg_ctl, postgres under /usr/lib/postgresql/15/bin)
#   postgresql-15-postgis-3        PostGIS 3 for it (geography, ST_DWithin on the spheroid, GiST)
#   postgresql-15-postgis-3-scripts  the extension's SQL (CREATE EXTENSION postgis)
#
# Installing the server package may start Debian's default cluster (main, port 5432); the
# benchmark does not use it. places_peers.py makes a cluster of its own in a temp directory
# (initdb as the postgres user, listening on a unix socket there only, no TCP), loads the polygons,
# and stops and removes it at the end.
set -euo pipefail
if [ -x /usr/lib/postgresql/15/bin/postgres ] && [ -f /usr/share/postgresql/15/extension/postgis.control ]; then
    echo "postgis.sh: PostgreSQL 15 and PostGIS 3 are installed"
    exit 0
fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    postgresql-15 postgresql-15-postgis-3 postgresql-15-postgis-3-scripts
