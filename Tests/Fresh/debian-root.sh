# Sourced, not run: make_debian_root DIR puts a new Debian 12 root in DIR, as
# `debootstrap --variant=minbase bookworm` makes it, fetching from the host's own apt sources (so
# it works where only a site mirror is reachable) with the host's settings for them. The first
# root is kept as a tarball in $LIQUIDLENS_DEBIAN_CACHE (default /var/cache/liquidlens) and later
# roots are unpacked from it. Needs root, debootstrap, and `apt-get update` run on the host.

# The URL of the host's apt source for a suite (bookworm/main, bookworm-security/main).
debian_apt_source() {
    apt-cache policy | awk -v suite="$1" '$3 == suite && $4 == "amd64" { print $2; exit }'
}

make_debian_root() {
    local rootfs="$1" cache="${LIQUIDLENS_DEBIAN_CACHE:-/var/cache/liquidlens}" mirror security tarball log
    mirror="$(debian_apt_source bookworm/main)"
    security="$(debian_apt_source bookworm-security/main)"
    [[ -n "$mirror" ]] || { echo "no apt source for bookworm on this host (apt-get update first)" >&2; return 1; }
    tarball="$cache/bookworm-minbase-$(printf '%s %s' "$mirror" "$security" | md5sum | cut -c1-12).tar"
    mkdir -p "$rootfs"
    if [[ -f "$tarball" ]]; then
        tar -C "$rootfs" -xpf "$tarball"
        return
    fi
    log="$(mktemp)"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$log" 2>&1 \
        || { tail -20 "$log" >&2; rm -f "$log"; return 1; }
    rm -f "$log" "$rootfs/etc/apt/sources.list"
    {
        printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\n' "$mirror"
        printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        [[ -z "$security" ]] || printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$security"
    } >"$rootfs/etc/apt/sources.list.d/debian.sources"
    # The host's settings for those sources (a snapshot mirror's Release files may be past their
    # Valid-Until date).
    grep -l -e Check-Valid-Until -e Check-Date /etc/apt/apt.conf.d/* 2>/dev/null \
        | xargs -r cp -t "$rootfs/etc/apt/apt.conf.d/"
    mkdir -p "$cache"
    tar -C "$rootfs" -cpf "$tarball.partial-$$" . && mv "$tarball.partial-$$" "$tarball"
}

# mount_root_filesystems ROOT: /proc, /sys, /dev, /dev/pts and /dev/shm inside ROOT, as a booted
# system has them (debootstrap leaves them out).
mount_root_filesystems() {
    local root="$1"
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
    mount --bind /dev "$root/dev"
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
    mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
}

# remove_root WORK ROOT: unmounts everything under ROOT, deepest first, then removes WORK (which
# holds ROOT) only once nothing is mounted there any more, so that nothing of the host's /dev or
# toolchain can be deleted through it.
remove_root() {
    local work="$1" root="$2" mount
    mounts_under() { awk -v prefix="$1/" 'index($2, prefix) == 1 { print $2 }' /proc/mounts | sort -r; }
    for mount in $(mounts_under "$root"); do umount --lazy "$mount" || true; done
    if [[ -z "$(mounts_under "$root")" ]]; then rm -rf "$work"; else echo "left $work (still mounted)" >&2; fi
}
