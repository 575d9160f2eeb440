#!/usr/bin/env bash
# Builds landmark-near in release mode and installs it with its man page and shell completions:
#
#     bash Scripts/install.sh                    # PREFIX=/usr/local
#     PREFIX=$HOME/.local bash Scripts/install.sh
#     DESTDIR=/tmp/pkg PREFIX=/usr bash Scripts/install.sh   # staged, for packaging
#     BINARY=.build/debug/landmark-near bash Scripts/install.sh  # install that build instead
#
# Installs PREFIX/bin/landmark-near, PREFIX/share/man/man1/landmark-near.1 and the bash, zsh and
# fish completions under PREFIX/share/{bash-completion/completions,zsh/site-functions,
# fish/vendor_completions.d}. Needs a Swift 6.2+ toolchain to build; installs first what is
# missing of the Debian packages of Scripts/debian-runtime-packages.txt (the libraries the
# binary loads) and, when it builds, Scripts/debian-build-packages.txt (their headers) — not
# the tests' (Scripts/setup.sh). A Debian package instead: Scripts/make-deb.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${PREFIX:-/usr/local}
root=${DESTDIR:-}${prefix}

binary=${BINARY:-}
if [ -n "$binary" ]; then
  bash Scripts/apt-packages.sh Scripts/debian-runtime-packages.txt
else
  bash Scripts/apt-packages.sh Scripts/debian-runtime-packages.txt Scripts/debian-build-packages.txt
  swift build -c release --product landmark-near >&2
  binary=$(swift build -c release --show-bin-path)/landmark-near
fi

install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
  "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 755 "$binary" "$root/bin/landmark-near"
install -m 644 docs/man/landmark-near.1 "$root/share/man/man1/landmark-near.1"
install -m 644 docs/completions/landmark-near.bash "$root/share/bash-completion/completions/landmark-near"
install -m 644 docs/completions/_landmark-near "$root/share/zsh/site-functions/_landmark-near"
install -m 644 docs/completions/landmark-near.fish "$root/share/fish/vendor_completions.d/landmark-near.fish"
echo "installed landmark-near into $root" >&2
