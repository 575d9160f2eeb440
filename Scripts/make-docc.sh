#!/usr/bin/env bash
# Builds the DocC documentation of the LandmarkNear library with the toolchain's own tools (no
# swift-docc-plugin needed): symbol graphs from the debug build's module, then `docc convert`.
#     bash Scripts/make-docc.sh            # writes .build/docs (a static site), warnings on stderr
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --target LandmarkNear
triple="$(uname -m)-unknown-linux-gnu"
rm -rf .build/symbol-graphs && mkdir -p .build/symbol-graphs
swift-symbolgraph-extract -module-name LandmarkNear -target "$triple" -minimum-access-level public \
    -I .build/debug/Modules -I Sources/CGEOS -I Sources/CGeodesic -I Sources/CLibXML2 \
    $(pkg-config --cflags-only-I libxml-2.0) -output-dir .build/symbol-graphs
docc convert Sources/LandmarkNear/LandmarkNear.docc --additional-symbol-graph-dir .build/symbol-graphs \
    --fallback-display-name LandmarkNear --fallback-bundle-identifier org.landmarknear.LandmarkNear \
    --output-path .build/docs --analyze
