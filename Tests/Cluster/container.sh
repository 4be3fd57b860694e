#!/usr/bin/env bash
# Builds the liquidlens container image (Tests/Cluster/Containerfile) with podman, with no container
# registry needed, and runs the tool inside it:
#   1. the base, debian:bookworm-slim: from local storage, else from a registry, else — where no
#      registry is reachable — made here from Debian's packages (Tests/Fresh/debian-root.sh:
#      debootstrap --variant=minbase with the host's Debian sources, then podman import);
#   2. a release binary with the Swift standard library linked statically (its own scratch
#      folder, .build/container, so the test build in .build is left alone; slurm.sh runs the
#      same binary);
#   3. the image; then inside it: the user is not root, the binary needs no Swift library,
#      `render` draws the showcase on lavapipe (and to stdout), and a sweep rendered in 3 shards
#      equals the unsharded run file for file.
# Usage: Tests/Cluster/container.sh [image]   (default localhost/liquidlens:test; root, podman, runc,
# debootstrap). Prints the time of each step.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/Fresh/debian-root.sh
image="${1:-localhost/liquidlens:test}"
base=debian:bookworm-slim
work="$(mktemp -d /var/tmp/liquidlens-container.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# runc, because crun fails on hosts with hybrid cgroups; nofile at most 20000, as some sandboxes
# allow no more and podman's default asks for over a million. A caller's own CONTAINERS_CONF wins.
cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
[engine]
runtime = "runc"
EOF
export CONTAINERS_CONF="${CONTAINERS_CONF:-$work/containers.conf}"

started=$SECONDS
step() {
    echo "container: $1 ($((SECONDS - started)) s)"
    started=$SECONDS
}

make_base() {
    local rootfs="$work/rootfs"
    make_debian_root "$rootfs" || exit 1
    # Slim, as the registry's image is: no documentation, no package caches.
    rm -rf "$rootfs"/usr/share/{doc,man,info}/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -c . \
        | podman import --message "debootstrap --variant=minbase bookworm" - "localhost/$base" >"$work/import.log" 2>&1 \
        || { cat "$work/import.log" >&2; exit 1; }
}

if podman image exists "$base"; then
    step "base image $base already here"
elif podman pull -q "docker.io/library/$base" >/dev/null 2>"$work/pull.log"; then
    step "pulled $base"
else
    echo "container: no registry reachable ($(tail -1 "$work/pull.log")); making $base with debootstrap"
    make_base
    step "made $base from Debian's packages"
fi

nice swift build -c release --static-swift-stdlib --product liquidlens --scratch-path .build/container \
    >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }
mkdir "$work/context"
strip -o "$work/context/liquidlens" .build/container/release/liquidlens
step "built the static binary ($(du -m "$work/context/liquidlens" | cut -f1) MiB stripped)"

podman build --quiet -f Tests/Cluster/Containerfile -t "$image" "$work/context" >/dev/null
step "built $image ($(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%d MiB", $1 / 1048576 }'))"

fail() {
    echo "container: FAILED: $1" >&2
    exit 1
}
run() { podman run --rm --volume "$work/out:/out" "$image" "$@"; }
mkdir -m 0777 "$work/out"

[[ "$(podman image inspect --format '{{json .Config.Entrypoint}}' "$image")" == '["liquidlens"]' ]] \
    || fail "the entry point is not liquidlens"
[[ "$(podman run --rm --entrypoint id "$image" -u)" == 10001 ]] || fail "the image runs as root"
if podman run --rm --entrypoint ldd "$image" /usr/local/bin/liquidlens | grep -q -e libswift -e libFoundation; then
    fail "the binary loads the Swift runtime from shared libraries"
fi
run --version

run render --backend vulkan -o /out/showcase.png | tee "$work/render.log"
grep -q "vulkan, llvmpipe" "$work/render.log" || fail "render did not run on lavapipe"
run render --backend cpu -o - >"$work/out/stdout.png"
run diff /out/showcase.png /out/stdout.png --threshold 1 | grep -q "over 1/255: 0 px" \
    || fail "the GPU and CPU renders inside the image differ"
step "render inside the image: lavapipe, and the CPU reference to stdout, agree"

cat >"$work/out/sweep.json" <<'EOF'
{"scene": {"example": "segmented"}, "name": "drag", "scale": 1,
 "sweep": [{"key": "controls[0].thumbPosition", "from": 0, "to": 4, "steps": 12}]}
EOF
for shard in 0 1 2; do
    run batch /out/sweep.json -o /out/sharded --shard "$shard/3" --resume --progress json 2>"$work/shard-$shard.log"
    [[ "$(grep -c '^{"index"' "$work/shard-$shard.log")" == 4 ]] || fail "shard $shard did not report 4 frames"
done
run batch /out/sweep.json -o /out/whole -q
diff -r "$work/out/whole" "$work/out/sharded" >/dev/null || fail "the shards differ from the unsharded run"
[[ "$(find "$work/out/sharded" -type f | wc -l)" == 12 ]] || fail "the shards did not write 12 frames"
step "batch inside the image: 3 shards equal the unsharded run, 12 files"
echo "container: ok"
