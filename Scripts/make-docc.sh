#!/usr/bin/env bash
# Builds the DocC documentation of the LandmarkNear library with the toolchain's own tools (no
# swift-docc-plugin needed): symbol graphs from the debug build's modules (the library's layers,
# which `import LandmarkNear` re-exports), then `docc convert`.
#     bash Scripts/make-docc.sh            # writes .build/docs (a static site), warnings on stderr
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --target LandmarkNear
triple="$(uname -m)-unknown-linux-gnu"
rm -rf .build/symbol-graphs && mkdir -p .build/symbol-graphs
includes=()
for module in Sources/C*/; do includes+=(-I "$module"); done
for module in LandmarkNearCore LandmarkNearGeodesy LandmarkNearIndex LandmarkNearEngine LandmarkNearReaders \
    LandmarkNearOutputs LandmarkNearParser LandmarkNearSessions; do
    swift-symbolgraph-extract -module-name "$module" -target "$triple" -minimum-access-level public \
        -I .build/debug/Modules "${includes[@]}" $(pkg-config --cflags-only-I libxml-2.0) -output-dir .build/symbol-graphs
done
docc convert Sources/LandmarkNear/LandmarkNear.docc --additional-symbol-graph-dir .build/symbol-graphs \
    --fallback-display-name LandmarkNear --fallback-bundle-identifier org.landmarknear.LandmarkNear \
    --output-path .build/docs --analyze
