#!/usr/bin/env bash
# Proves the GPU report's bundle (Tests/Device/bundle.sh) on a machine with nothing of ours: a fresh
# Debian 12 root (debootstrap --variant=minbase, Tests/Fresh/debian-root.sh) with nothing else
# installed, /proc, /sys and /dev mounted, the bundle copied in and unpacked there (with the host's
# xz mounted in: minbase has none), and
#   1. ldd of the binary and of every library in the bundle, inside the root, finds everything
#      (and the root has no Vulkan loader, libpng, FreeType or fonts of its own to lend);
#   2. lavapipe, too large to travel, mounted in from the host for this check alone: its library
#      and those of its dependencies the root lacks, read-only, in /opt/lavapipe, with an ICD file
#      pointing there;
#   3. every built-in still and the frame of each benchmark workload, batch-rendered inside the root
#      on Vulkan and on the CPU reference, have the same pixels as the normal build's renders here;
#   4. the report itself (Tests/Device/report.sh --bundle) runs inside the root, from the packed
#      bundle, and passes.
# Usage: Tests/Device/bare-root.sh [BUNDLE]   (default Tests/Device/bundle; root, debootstrap,
# mesa-vulkan-drivers, `apt-get update` run on the host). Prints the time of each step.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/Fresh/debian-root.sh
bundle="${1:-Tests/Device/bundle}"
started=$SECONDS
step() {
    echo "bare-root: $1 ($((SECONDS - started)) s)"
    started=$SECONDS
}
fail() {
    echo "bare-root: FAILED: $1" >&2
    exit 1
}
[[ -f "$bundle/liquidlens.tar.xz" ]] || fail "no bundle at $bundle (make it with Tests/Device/bundle.sh)"
work="$(mktemp -d /var/tmp/liquidlens-bare.XXXXXX)"
root="$work/root"
trap 'remove_root "$work" "$root"' EXIT

make_debian_root "$root" || fail "debootstrap"
mount_root_filesystems "$root"
# Runs a command inside the root with nothing of this environment.
inside() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@" </dev/null; }

cp -a "$bundle" "$root/opt/bundle"
mkdir -p "$root/opt/liquidlens" "$root/opt/check"
# minbase has no xz (a CUDA image has it, and Python): the host's, for unpacking, as lavapipe below.
touch "$root/usr/local/bin/xz"
mount --bind -o ro "$(readlink -f "$(command -v xz)")" "$root/usr/local/bin/xz"
inside tar -C /opt/liquidlens -xJf /opt/bundle/liquidlens.tar.xz || fail "unpacking the bundle inside the root"
step "made a Debian 12 root (minbase) and unpacked the bundle there ($(du -m "$bundle/liquidlens.tar.xz" | cut -f1) MiB packed)"

if inside ldconfig -p | grep -E 'libvulkan|libpng|libfreetype|libharfbuzz|libfontconfig'; then
    fail "the root is not bare: it has the libraries above"
fi
[[ ! -e "$root/usr/share/fonts" ]] || fail "the root is not bare: it has /usr/share/fonts"
for file in "$root"/opt/liquidlens/bin/liquidlens "$root"/opt/liquidlens/lib/*; do
    file="/opt/liquidlens/${file#"$root"/opt/liquidlens/}"
    missing="$(inside env LD_LIBRARY_PATH=/opt/liquidlens/lib ldd "$file" | grep 'not found' || true)"
    [[ -z "$missing" ]] || fail "inside the root, $file lacks: $missing"
done
step "ldd inside the root: nothing missing for the binary and $(ls "$root/opt/liquidlens/lib" | wc -l) libraries"

icd=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
[[ -f "$icd" ]] || fail "no lavapipe on the host ($icd; apt-get install mesa-vulkan-drivers)"
lavapipe="$(grep -o '"library_path": *"[^"]*"' "$icd" | cut -d'"' -f4)"
mkdir "$root/opt/lavapipe"
mounted=0
for file in "$lavapipe" $(ldd "$lavapipe" | awk '$3 ~ /^\// { print $3 }'); do
    [[ "$file" == "$lavapipe" ]] || ! inside test -e "$file" || continue
    target="$root/opt/lavapipe/$(basename "$file")"
    touch "$target"
    mount --bind -o ro "$(readlink -f "$file")" "$target"
    mounted=$((mounted + 1))
done
sed "s|\"$lavapipe\"|\"/opt/lavapipe/$(basename "$lavapipe")\"|" "$icd" >"$root/opt/lavapipe/lvp_icd.json"
lavapipe_env=(VK_DRIVER_FILES=/opt/lavapipe/lvp_icd.json LD_LIBRARY_PATH=/opt/lavapipe)
inside env "${lavapipe_env[@]}" /opt/liquidlens/liquidlens devices >"$work/devices.txt" 2>&1 \
    || { cat "$work/devices.txt" >&2; fail "liquidlens devices inside the root"; }
grep -q 'llvmpipe.*: usable' "$work/devices.txt" || { cat "$work/devices.txt" >&2; fail "no usable lavapipe inside the root"; }
step "lavapipe mounted in ($mounted files); the bundle's liquidlens sees it"

# The normal build: the test command's flags, so that after the tests this builds nothing.
nice swift build -c release -Xswiftc -enable-testing --product liquidlens >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; fail "swift build"; }
normal="$(swift build -c release -Xswiftc -enable-testing --show-bin-path)/liquidlens"
for backend in vulkan cpu; do
    "$normal" batch "$root/opt/liquidlens/parity.json" --backend "$backend" --format pam -q -o "$work/normal-$backend"
    inside env "${lavapipe_env[@]}" /opt/liquidlens/liquidlens batch /opt/liquidlens/parity.json --backend "$backend" \
        --format pam -q -o "/opt/check/bare-$backend" >"$work/bare.log" 2>&1 \
        || { cat "$work/bare.log" >&2; fail "batch --backend $backend inside the root"; }
    diff -r "$work/normal-$backend" "$root/opt/check/bare-$backend" \
        || fail "the bundle's $backend renders differ from the normal build's"
done
step "$(ls "$work/normal-vulkan" | wc -l) frames on Vulkan and on the CPU: the bundle's pixels equal the normal build's"

cp Tests/Device/report.sh "$root/opt/check/report.sh"
if ! inside env "${lavapipe_env[@]}" /bin/bash /opt/check/report.sh --bundle /opt/bundle --out /opt/check/report \
    >"$work/report.txt" 2>&1; then
    cat "$work/report.txt" >&2
    fail "the report inside the root"
fi
files=$(ls "$root/opt/check/report" | wc -l)
((files <= 8)) || fail "the report wrote $files files (at most 8)"
step "the report ran inside the root and passed ($files files)"
echo "bare-root: ok"
