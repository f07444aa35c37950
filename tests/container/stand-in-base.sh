#!/usr/bin/env bash
# Makes a local stand-in for the official image docker.io/oven/bun:<version>-slim, for machines
# that cannot reach a container registry (this one reaches only npm and Debian's packages), and
# tags it with the official name so that the Containerfile builds on it unchanged.
#   bash tests/container/stand-in-base.sh docker.io/oven/bun:1.4.5-slim
# Built like the official debian-slim variant (oven-sh/bun, dockerhub/debian-slim/Dockerfile,
# of the bookworm era):
#   - Debian bookworm, minbase, slimmed as Debian's own -slim images are (no manuals, docs
#     other than copyright files, translations; apt lists empty);
#   - Bun <version>'s linux-x64 binary at /usr/local/bin/bun (here from the npm package
#     @oven/bun-linux-x64, which ships the release binary), bunx a link to it, and `node` a
#     link to it in /usr/local/bun-node-fallback-bin at the end of PATH;
#   - user and group `bun`, 1000:1000, shell /bin/sh, home /home/bun;
#   - BUN_RUNTIME_TRANSPILER_CACHE_PATH=0, BUN_INSTALL_BIN=/usr/local/bin, WORKDIR
#     /home/bun/app, ENTRYPOINT docker-entrypoint.sh (same behaviour as the official one), CMD bun.
# Slow (debootstrap: a few minutes), so tests/container/run.sh keeps the image and calls this
# only when the image is missing. Needs root, debootstrap, podman and npm.
set -euo pipefail

IMAGE="${1:?usage: stand-in-base.sh docker.io/oven/bun:<version>-slim}"
if [[ ! "$IMAGE" =~ ^(docker\.io/)?oven/bun:([0-9]+\.[0-9]+\.[0-9]+)-slim$ ]]; then
  echo "stand-in base: only oven/bun:<version>-slim has a stand-in, not $IMAGE" >&2
  exit 2
fi
BUN_VERSION="${BASH_REMATCH[2]}"
SUITE=bookworm
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

work="$(mktemp -d /var/tmp/antibot-bun-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "stand-in base: debootstrap $SUITE (minbase) from $MIRROR"
debootstrap --variant=minbase --arch=amd64 "$SUITE" "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  exit 1
}

# Slim, as Debian's -slim images: dpkg leaves out documentation, manuals and translations of
# anything installed later, and what debootstrap put there goes.
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
CFG
find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/groff/* "$rootfs"/usr/share/info/* \
  "$rootfs"/usr/share/lintian/* "$rootfs"/usr/share/linda/* "$rootfs"/usr/share/locale/*
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/*.log \
  "$rootfs"/var/log/apt/* "$rootfs"/tmp/* "$rootfs"/var/tmp/*
# A container gets its hostname and resolver from the runtime.
: >"$rootfs/etc/hostname"
rm -f "$rootfs/etc/resolv.conf"

echo "stand-in base: Bun $BUN_VERSION from the npm package @oven/bun-linux-x64"
(cd "$work" && npm pack --silent "@oven/bun-linux-x64@$BUN_VERSION" >/dev/null)
tar -xzf "$work"/oven-bun-linux-x64-"$BUN_VERSION".tgz -C "$work" package/bin/bun
install -m 0755 "$work/package/bin/bun" "$rootfs/usr/local/bin/bun"
ln -s /usr/local/bin/bun "$rootfs/usr/local/bin/bunx"
mkdir -p "$rootfs/usr/local/bun-node-fallback-bin"
ln -s /usr/local/bin/bun "$rootfs/usr/local/bun-node-fallback-bin/node"

# The official entrypoint: run the command as given when it is one, otherwise hand the
# arguments to bun (so `run image --version`, `run image index.ts` and `run image sh` all work).
cat >"$rootfs/usr/local/bin/docker-entrypoint.sh" <<'SH'
#!/bin/sh
set -e

# Options, names that are no command, and files that are not executable go to bun.
if [ "${1#-}" != "$1" ] || [ -z "$(command -v "$1")" ] || { [ -f "$1" ] && ! [ -x "$1" ]; }; then
  set -- /usr/local/bin/bun "$@"
fi

exec "$@"
SH
chmod 0755 "$rootfs/usr/local/bin/docker-entrypoint.sh"

chroot "$rootfs" groupadd bun --gid 1000
chroot "$rootfs" useradd bun --uid 1000 --gid bun --shell /bin/sh --create-home
mkdir -p "$rootfs/home/bun/app"
version="$(chroot "$rootfs" /usr/local/bin/bun --version)"
[ "$version" = "$BUN_VERSION" ] || { echo "stand-in base: bun --version says $version, not $BUN_VERSION" >&2; exit 1; }

echo "stand-in base: importing as $IMAGE"
tar -C "$rootfs" --numeric-owner -cf "$work/rootfs.tar" .
podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/bun-node-fallback-bin' \
  --change 'ENV BUN_RUNTIME_TRANSPILER_CACHE_PATH=0' \
  --change 'ENV BUN_INSTALL_BIN=/usr/local/bin' \
  --change 'WORKDIR /home/bun/app' \
  --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
  --change 'CMD ["/usr/local/bin/bun"]' \
  --change "LABEL org.opencontainers.image.description=\"Local stand-in for oven/bun:$BUN_VERSION-slim (Debian $SUITE-slim), made by tests/container/stand-in-base.sh\"" \
  --quiet "$work/rootfs.tar" "$IMAGE" >/dev/null
podman image inspect --format '{{.Id}} {{.Size}}' "$IMAGE"
