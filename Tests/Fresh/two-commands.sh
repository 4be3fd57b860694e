#!/usr/bin/env bash
# Proves README.md's quick start on a new machine: a fresh Debian 12 root (debootstrap
# --variant=minbase bookworm, Tests/Fresh/debian-root.sh) with only what swift.org lists for Swift
# on Debian 12 and the host's toolchain mounted read-only, a clone of this checkout's HEAD, then
# the two commands read out of the README's quick start (not a copy: editing the README changes
# what is checked), run as root, in order, with a clean environment. Fails naming the command
# that failed; prints each one's time.
# From the host it takes only what a new machine of the same site would have: the certificate
# authorities in /usr/local/share/ca-certificates/, pip's /etc/pip.conf, and the name server
# (/etc/resolv.conf). It adds what debootstrap leaves out of an installed system: an /etc/hosts
# naming localhost, and /proc, /sys, /dev, /dev/pts and /dev/shm mounted.
# Usage: Tests/Fresh/two-commands.sh   (root; debootstrap, git, and `apt-get update` run on the host)
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/Fresh/debian-root.sh
checkout="$PWD"
work="$(mktemp -d /var/tmp/liquidlens-fresh.XXXXXX)"
root="$work/root"

trap 'remove_root "$work" "$root"' EXIT

started=$SECONDS
step() {
    echo "fresh: $1 ($((SECONDS - started)) s)"
    started=$SECONDS
}
fail() {
    echo "fresh: FAILED: $1" >&2
    exit 1
}

# The quick start's commands: the lines of the first ```sh block after "## Quick start".
mapfile -t commands < <(awk '
    /^## / { inside = ($0 == "## Quick start") }
    inside && /^```sh$/ { block = 1; next }
    block && /^```$/ { exit }
    block && NF { print }
' README.md)
((${#commands[@]} == 2)) || fail "README.md's quick start has ${#commands[@]} commands, not 2"

make_debian_root "$root" || fail "debootstrap"
step "made a Debian 12 root (minbase)"

cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
if compgen -G "/usr/local/share/ca-certificates/*" >/dev/null; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
[[ ! -f /etc/pip.conf ]] || cp /etc/pip.conf "$root/etc/pip.conf"
mount_root_filesystems "$root"

# The toolchain, read-only, where it is on the host.
toolchain="$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")"
mkdir -p "$root$toolchain"
mount --bind "$toolchain" "$root$toolchain"
mount -o remount,bind,ro "$root$toolchain"
path="$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Runs a bash command line inside the root, as root, with nothing of this environment.
inside() {
    chroot "$root" /usr/bin/env -i HOME=/root PATH="$path" LANG=C.UTF-8 TERM=dumb \
        /bin/bash -c "cd /root/liquidlens 2>/dev/null || cd /root; $1" </dev/null
}

# swift.org's prerequisites for Swift on Debian 12, and the site's certificate authorities in the
# system's store, as a machine there is set up.
inside "export DEBIAN_FRONTEND=noninteractive; apt-get update -q && apt-get install -y -q binutils-gold gcc git \
    libcurl4-openssl-dev libedit-dev libicu-dev libncurses-dev libpython3-dev libsqlite3-dev libxml2-dev \
    libstdc++-12-dev pkg-config tzdata uuid-dev ca-certificates && update-ca-certificates" >"$work/prerequisites.log" 2>&1 \
    || { tail -20 "$work/prerequisites.log" >&2; fail "installing swift.org's prerequisites"; }
inside "swift --version" >"$work/swift.log" 2>&1 || { cat "$work/swift.log" >&2; fail "swift does not run"; }
step "installed swift.org's prerequisites; $(grep -o 'Swift version [^ ]*' "$work/swift.log")"

git clone --quiet "$checkout" "$root/root/liquidlens"
step "cloned $(git -C "$checkout" rev-parse --short HEAD)"

for number in 1 2; do
    command="${commands[number - 1]}"
    echo "fresh: command $number: $command"
    log="$work/command-$number.log"
    if ! inside "$command" >"$log" 2>&1; then
        # A failing test's own words come long before the log's end: print them first.
        grep -A12 "recorded an issue" "$log" | head -80 >&2 || true
        tail -40 "$log" >&2
        fail "command $number of README.md's quick start: $command"
    fi
    tail -3 "$log"
    step "command $number passed"
done
echo "fresh: ok"
