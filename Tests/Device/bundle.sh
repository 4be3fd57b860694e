#!/usr/bin/env bash
# Makes the GPU report's bundle: what `Tests/Device/report.sh --bundle DIR` needs on a bare x86-64
# Linux machine (a CUDA image of Ubuntu 24.04: no Swift, no Vulkan loader, none of our libraries,
# nothing fetched from outside). DIR holds liquidlens.tar.xz, which unpacks to:
#   liquidlens        the launcher: sets LD_LIBRARY_PATH (lib/ first), FONTCONFIG_FILE and, where the
#                     NVIDIA driver's Vulkan ICD file is, VK_DRIVER_FILES; then runs bin/liquidlens
#   bin/liquidlens    a release build with the Swift standard library linked in, stripped
#   lib/              the shared libraries it loads, and the Vulkan loader it opens, from Debian's
#                     packages (apt-get download + dpkg -x), all but the C and C++ runtimes every
#                     Linux has (libc6, libgcc-s1, libstdc++6); libGLdispatch (libglvnd0), which
#                     NVIDIA's Vulkan driver loads and a CUDA image may lack
#   fonts/, etc/fonts/fonts.conf   the fonts the scenes use and a fontconfig file naming only them
#   parity.json       what the report verifies: a manifest of every built-in still and benchmark workload
#   MANIFEST.txt      the commit and every package taken, with its version
# and a copy of MANIFEST.txt. The binary is built in .build/container (the container and cluster
# tests' static build).
# Usage: Tests/Device/bundle.sh [DIR]   (default Tests/Device/bundle, which git ignores; needs apt's
# package lists, `apt-get update`)
set -euo pipefail
cd "$(dirname "$0")/../.."
bundle="${1:-Tests/Device/bundle}"
work="$(mktemp -d /var/tmp/liquidlens-bundle.XXXXXX)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS
step() {
    echo "bundle: $1 ($((SECONDS - started)) s)"
    started=$SECONDS
}
fail() {
    echo "bundle: FAILED: $1" >&2
    exit 1
}

nice swift build -c release --static-swift-stdlib --product liquidlens --scratch-path .build/container \
    >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; fail "swift build"; }
staging="$work/bundle"
mkdir -p "$staging"/{bin,lib,fonts,etc/fonts}
strip -o "$staging/bin/liquidlens" .build/container/release/liquidlens
step "built the static binary ($(du -m "$staging/bin/liquidlens" | cut -f1) MiB stripped)"

# The Debian package that installed a library, looked up as ldd names it and as merged /usr has it.
package_of() {
    local path
    for path in "$1" "/usr$1" "$(readlink -f "$1")"; do
        dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1 && return
    done
    fail "no Debian package installed $1"
}
mapfile -t libraries < <(ldd "$staging/bin/liquidlens" | awk '$3 ~ /^\// { print $3 }')
grep -q -e libswift -e libFoundation <<<"${libraries[*]}" && fail "the binary loads the Swift runtime from shared libraries"
# Sonames wanted and the packages holding them: the Vulkan loader the binary opens, and the GL
# dispatch library NVIDIA's Vulkan driver needs, besides what ldd lists.
declare -A packages=([libvulkan1]=1 [libglvnd0]=1) sonames=([libvulkan.so.1]=1 [libGLdispatch.so.0]=1)
for library in "${libraries[@]}"; do
    package="$(package_of "$library")"
    case "$package" in
    libc6 | libgcc-s1 | libstdc++6) ;;
    *) packages[$package]=1 sonames[$(basename "$library")]=1 ;;
    esac
done
fonts=(fonts-inter fonts-dejavu-core fonts-materialdesignicons-webfont)
mkdir "$work/debs" "$work/tree"
chmod 0777 "$work/debs"
(cd "$work/debs" && apt-get download -q "${!packages[@]}" "${fonts[@]}" >"$work/download.log" 2>&1) \
    || { cat "$work/download.log" >&2; fail "apt-get download"; }
for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$work/tree"; done
while read -r file; do
    soname="$(objdump -p "$file" | awk '$1 == "SONAME" { print $2 }')"
    [[ -n "$soname" && -n "${sonames[$soname]:-}" ]] && cp "$file" "$staging/lib/$soname"
done < <(find "$work/tree" -name 'lib*.so.*' -type f)
for soname in "${!sonames[@]}"; do
    [[ -f "$staging/lib/$soname" ]] || fail "no package gave $soname"
done
find "$work/tree" -path '*/fonts/*' -type f \( -name '*.otf' -o -name '*.ttf' \) -exec cp -t "$staging/fonts" {} +
cat >"$staging/etc/fonts/fonts.conf" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- The bundle's fonts alone; the cache goes where fontconfig keeps a user's ($XDG_CACHE_HOME). -->
<fontconfig>
  <dir prefix="relative">../../fonts</dir>
  <cachedir prefix="xdg">liquidlens-bundle-fontconfig</cachedir>
</fontconfig>
EOF
{
    echo "liquidlens bundle of $(git rev-parse HEAD)$(git diff --quiet HEAD || echo ' with uncommitted changes'), made $(date -u +%FT%TZ)"
    echo "packages (Debian $(cut -d. -f1 /etc/debian_version)):"
    for deb in "$work"/debs/*.deb; do dpkg-deb -f "$deb" Package Version | paste -sd' '; done | sed 's/^/  /'
} >"$staging/MANIFEST.txt"
step "took ${#packages[@]} library packages and ${#fonts[@]} font packages from Debian ($(ls "$staging/lib" | wc -l) libraries, $(ls "$staging/fonts" | wc -l) fonts)"

cat >"$staging/liquidlens" <<'EOF'
#!/bin/sh
# liquidlens from this bundle (Tests/Device/bundle.sh): its own libraries first, its own fonts, and
# the NVIDIA driver's Vulkan ICD where a CUDA image mounts it (unless VK_DRIVER_FILES or
# VK_ICD_FILENAMES is already set).
here="$(cd "$(dirname "$0")" && pwd)"
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for dir in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
    [ -d "$dir" ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$dir"
done
FONTCONFIG_FILE="$here/etc/fonts/fonts.conf"
export LD_LIBRARY_PATH FONTCONFIG_FILE
nvidia=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] && [ -f "$nvidia" ]; then
    VK_DRIVER_FILES="$nvidia"
    export VK_DRIVER_FILES
fi
exec "$here/bin/liquidlens" "$@"
EOF
chmod +x "$staging/liquidlens"
"$staging/liquidlens" --version >/dev/null || fail "the bundled liquidlens does not run here"
# What the report verifies: every built-in still and the frame of each benchmark workload.
stills=$("$staging/liquidlens" examples | awk '/^STILLS/ { on = 1; next } /^$/ { on = 0 } on { print $1 }')
{
    printf '{"scenes": ['
    for still in $stills; do printf '{"example": "%s"}, ' "$still"; done
    printf '{"workload": "lens-heavy"}, {"workload": "screen"}, {"workload": "thumbnails"}]}\n'
} >"$staging/parity.json"

# Compressed, so that the bundle and the tree travel together in 64 MiB: the binary, with
# Foundation's ICU data linked in, is about 60 MiB, the libraries (librsvg, libheif's codecs,
# libxml2's ICU data) about 80. gzip leaves about 58 MiB; xz about 42. report.sh unpacks it with
# xz, or with Python's tarfile where xz is missing.
rm -rf "$bundle.partial"
mkdir -p "$bundle.partial"
tar -C "$staging" -cf - . | xz -T0 -6 >"$bundle.partial/liquidlens.tar.xz"
cp "$staging/MANIFEST.txt" "$bundle.partial/"
rm -rf "$bundle"
mv "$bundle.partial" "$bundle"
step "wrote $bundle/liquidlens.tar.xz ($(du -m "$bundle/liquidlens.tar.xz" | cut -f1) MiB, $(du -sm "$staging" | cut -f1) MiB unpacked; the tracked tree is $(git ls-files -z | du -cm --files0-from=- | tail -1 | cut -f1) MiB)"
