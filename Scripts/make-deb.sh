#!/usr/bin/env bash
# Builds the Debian package of landmark-near from a release build, with dpkg-deb:
#
#     swift build -c release --product landmark-near
#     bash Scripts/make-deb.sh                   # -> .build/deb/landmark-near_VERSION_ARCH.deb
#     BINARY=path/to/landmark-near OUT=dir bash Scripts/make-deb.sh
#     XZ_LEVEL=1 bash Scripts/make-deb.sh        # faster: 17.6 MB instead of 15.4 MB (the tests)
#     MAINTAINER='Name <address>' bash Scripts/make-deb.sh   # the Maintainer field (lintian
#                                                # reports the default's localhost address)
#
# Prints the package's path on stdout. It does not build (a release build takes ten minutes
# and more). The package holds:
#
#   /usr/bin/landmark-near                               the binary, stripped
#   /usr/share/man/man1/landmark-near.1.gz               docs/man/landmark-near.1
#   /usr/share/bash-completion/completions/landmark-near
#   /usr/share/zsh/vendor-completions/_landmark-near
#   /usr/share/fish/vendor_completions.d/landmark-near.fish
#   /lib/systemd/system/landmark-near.service            `serve`, installed disabled
#   /etc/default/landmark-near                           its options (a conffile)
#   /usr/share/doc/landmark-near/copyright, CHANGELOG.md.gz, changelog.gz (a Debian one)
#
# Depends: the packages of the libraries the binary links (dpkg-shlibdeps when dpkg-dev is
# installed, else `dpkg -S` on what ldd finds), and of those it opens with dlopen (the versioned
# names in Sources/*/…/*Library.swift: one of each library's names must be installed here). A
# binary that loads a library no Debian package holds (a debug build's Swift runtime, say) is
# refused: the package would not run elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${BINARY:-.build/release/landmark-near}
out=${OUT:-.build/deb}
die() { echo "make-deb.sh: $*" >&2; exit 1; }

[ -x "$binary" ] || die "no executable at $binary: run swift build -c release --product landmark-near (or set BINARY)"
version=$("$binary" --version | awk '{print $2}')
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "cannot read a version from '$binary --version'"
arch=$(dpkg --print-architecture)
name="landmark-near_${version}_${arch}"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/lib/systemd/system" "$root/etc/default" \
  "$root/usr/share/doc/landmark-near"
install -m 755 "$binary" "$root/usr/bin/landmark-near"
# Debian ships binaries stripped (80 MB -> 60 MB); the Swift runtime's metadata is in sections
# of their own, which strip keeps.
strip --strip-unneeded --remove-section=.comment "$root/usr/bin/landmark-near"
gzip -9n <docs/man/landmark-near.1 >"$root/usr/share/man/man1/landmark-near.1.gz"
chmod 644 "$root/usr/share/man/man1/landmark-near.1.gz"
install -m 644 docs/completions/landmark-near.bash "$root/usr/share/bash-completion/completions/landmark-near"
install -m 644 docs/completions/_landmark-near "$root/usr/share/zsh/vendor-completions/_landmark-near"
install -m 644 docs/completions/landmark-near.fish "$root/usr/share/fish/vendor_completions.d/landmark-near.fish"
install -m 644 Scripts/debian/landmark-near.service "$root/lib/systemd/system/landmark-near.service"
install -m 644 Scripts/debian/landmark-near.default "$root/etc/default/landmark-near"
install -m 644 Scripts/debian/copyright "$root/usr/share/doc/landmark-near/copyright"
# A native package's changelog.gz is read as a Debian changelog: one entry pointing at ours.
maintainer=${MAINTAINER:-LandmarkNear developers <landmark-near@localhost>}
released=$(git log -1 --format=%aD 2>/dev/null || date -R)
gzip -9n <CHANGELOG.md >"$root/usr/share/doc/landmark-near/CHANGELOG.md.gz"
printf 'landmark-near (%s) unstable; urgency=medium\n\n  * Version %s: what changed is in CHANGELOG.md.gz, next to this file.\n\n -- %s  %s\n' \
  "$version" "$version" "$maintainer" "$released" | gzip -9n >"$root/usr/share/doc/landmark-near/changelog.gz"
chmod 644 "$root/usr/share/doc/landmark-near/"*.gz
echo "/etc/default/landmark-near" >"$root/DEBIAN/conffiles"

# The libraries it links, by package: all must be found here.
if ldd "$root/usr/bin/landmark-near" | grep -q 'not found'; then
  die "the binary links libraries not installed here: $(ldd "$root/usr/bin/landmark-near" | grep 'not found' | awk '{print $1}' | paste -sd' ') (Scripts/setup.sh)"
fi
linked=""
if command -v dpkg-shlibdeps >/dev/null; then
  mkdir -p "$stage/shlibs/debian"
  printf 'Source: landmark-near\n\nPackage: landmark-near\nArchitecture: any\n' >"$stage/shlibs/debian/control"
  linked=$(cd "$stage/shlibs" && dpkg-shlibdeps -O -e "$root/usr/bin/landmark-near" 2>"$stage/shlibdeps.log" |
    sed -n 's/^shlibs:Depends=//p') || { cat "$stage/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
else
  packages=()
  while read -r library; do
    owner=$(dpkg -S "$(readlink -f "$library")" 2>/dev/null | head -1 | cut -d: -f1) ||
      die "$library (linked) belongs to no Debian package"
    packages+=("$owner")
  done < <(ldd "$root/usr/bin/landmark-near" | awk '/=>/ {print $3}')
  linked=$(printf '%s\n' "${packages[@]}" | sort -u | paste -sd, | sed 's/,/, /g')
fi
# Every library ldd finds must come from a package (not from a toolchain or a build directory).
while read -r library; do
  dpkg -S "$(readlink -f "$library")" >/dev/null 2>&1 || dpkg -S "$library" >/dev/null 2>&1 ||
    die "$library belongs to no Debian package: package a release build (the Swift runtime linked in)"
done < <(ldd "$root/usr/bin/landmark-near" | awk '/=>/ {print $3}')
[ -n "$linked" ] || die "found no linked library"

# The libraries it opens with dlopen: per *Library.swift, its versioned names, installed here.
opened=()
while read -r file; do
  names=$(grep -ohE '"lib[A-Za-z0-9_+-]+\.so(\.[0-9]+)+"' "$file" | tr -d '"' | sort -u)
  [ -n "$names" ] || continue
  found=""
  for library in $names; do
    found=$(dpkg -S "*/$library" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$found" ] && break
  done
  [ -n "$found" ] || die "none of $(echo $names) ($file) is installed: run Scripts/setup.sh"
  opened+=("$found")
done < <(find Sources -name '*Library.swift' | sort)
dlopened=$(printf '%s\n' "${opened[@]}" | sort -u | paste -sd, | sed 's/,/, /g')

# dpkg --verify's checksums, of every file but the conffile.
(cd "$root" && find usr lib -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: landmark-near
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $linked, $dlopened
Suggests: gpsd, gpsd-clients, mosquitto, nats-server
Section: utils
Priority: optional
Description: proximity notifications for landmarks, from location fixes
 landmark-near reads location fixes (gpsd, NMEA, GPX, KML, TCX, GeoJSON, CSV,
 NDJSON, OwnTracks, or phones over HTTP and MQTT) and, when a device comes near
 one of its favourite landmarks, writes the Apple Push Notification the
 Landmarks watch app shows, to stdout, .apns files, APNs or webhooks, with its
 state in SQLite. It also draws runs as maps and answers nearest queries.
 .
 The systemd unit landmark-near.service runs "landmark-near serve" with the
 options of /etc/default/landmark-near; it is installed disabled.
CONTROL

mkdir -p "$out"
# xz at level 6 (dpkg-deb's default) takes some 35 s of CPU for 60 MB; level 1, 7 s.
dpkg-deb --root-owner-group -Zxz "-z${XZ_LEVEL:-6}" --build "$root" "$out/$name.deb" >/dev/null
if command -v lintian >/dev/null; then lintian "$out/$name.deb" >&2 || true; fi
echo "$out/$name.deb"
