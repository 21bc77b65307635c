#!/usr/bin/env bash
# A local stand-in for the Dockerfile's base image (node:20-alpine) on a machine where no registry is reachable, so
# that the repository's real Dockerfile can be built here:
#
#   scripts/node-base-image.sh [IMAGE]          (default rdx-node-base:local)
#   docker build --network host --build-arg NODE_IMAGE=rdx-node-base:local -t rdx-conformance:local .
#
# Like the official image it has node and npm under /usr/local, a BusyBox userland (sh, tar, env, wget: what the
# Dockerfile's RUN steps use), a `node` user with uid 1000 and /home/node. The node binary is this machine's, with
# the shared libraries `ldd` says it needs; BusyBox is Debian's static build, unpacked from its .deb (nothing is
# installed on the host); the CA bundle is this machine's. The root filesystem is loaded with `docker import`.
set -euo pipefail

IMAGE="${1:-rdx-node-base:local}"

say() { printf 'node-base-image: %s\n' "$*" >&2; }

# Puts this machine's node binary into a root filesystem for `docker import`, with every shared library `ldd` says
# it needs, at the paths the dynamic loader looks for them (symlinks resolved).
#   copy_node ROOTFS BIN_PATH       BIN_PATH is where node goes inside ROOTFS, e.g. /usr/local/bin/node
copy_node() {
  local fs="$1" bin="$2" node lib
  node="$(readlink -f "$(command -v node)")"
  mkdir -p "$fs$(dirname "$bin")"
  cp "$node" "$fs$bin"
  while read -r lib; do
    [[ -n "$lib" ]] || continue
    mkdir -p "$fs$(dirname "$lib")"
    cp -L "$lib" "$fs$lib"
  done < <(ldd "$node" | grep -o '/[^ ]*' | sort -u)
}

timeout 10 docker info >/dev/null 2>&1 || { say "no Docker engine answers: run scripts/docker-engine.sh start"; exit 1; }

NPM_DIR="$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)"
[[ -f "$NPM_DIR/package.json" ]] || { say "cannot find npm's folder (looked at $NPM_DIR)"; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
FS="$WORK/rootfs"
mkdir -p "$FS"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,usr/local/lib/node_modules,etc,root,home/node,tmp}
chmod 1777 "$FS/tmp"

# node and every library it loads.
copy_node "$FS" /usr/local/bin/node

# npm and npx, linked as the official image links them.
cp -r "$NPM_DIR" "$FS/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$FS/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$FS/usr/local/bin/npx"

# BusyBox: the static one, if this machine has it, else Debian's busybox-static package unpacked here.
BUSYBOX=""
for candidate in /bin/busybox /usr/bin/busybox; do
  if [[ -x "$candidate" ]] && { ldd "$candidate" 2>&1 || true; } | grep -q 'not a dynamic'; then BUSYBOX="$candidate"; fi
done
if [[ -z "$BUSYBOX" ]]; then
  (cd "$WORK" && { apt-get download busybox-static >/dev/null 2>&1 || { apt-get update -qq && apt-get download busybox-static >/dev/null; }; })
  dpkg-deb -x "$WORK"/busybox-static_*.deb "$WORK/busybox"
  BUSYBOX="$WORK/busybox/bin/busybox"
fi
cp "$BUSYBOX" "$FS/bin/busybox"
while read -r applet; do
  [[ -n "$applet" && "$applet" != busybox ]] || continue
  for dir in bin usr/bin; do
    [[ -e "$FS/$dir/$applet" || -L "$FS/$dir/$applet" ]] || ln -s /bin/busybox "$FS/$dir/$applet"
  done
done < <("$FS/bin/busybox" --list)

# Users as in the official image: root, and node (1000:1000) for USER node.
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000:node:/home/node:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$FS/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\nnogroup:x:65534:\n' >"$FS/etc/group"
printf 'hosts: files dns\n' >"$FS/etc/nsswitch.conf"

# This machine's trust store: npm inside the build reaches the registry the way the host does (here through a
# TLS-inspecting proxy whose CA only this bundle holds). Node reads it through NODE_EXTRA_CA_CERTS.
CA_BUNDLE="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
CA_ENV=()
if [[ -f "$CA_BUNDLE" ]]; then
  mkdir -p "$FS/etc/ssl/certs"
  cp -L "$CA_BUNDLE" "$FS/etc/ssl/certs/ca-certificates.crt"
  CA_ENV=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
fi
chown 1000:1000 "$FS/home/node"

NODE_VERSION="$(node --version)"
tar -C "$FS" --numeric-owner -cf "$WORK/rootfs.tar" .
previous="$(docker image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${NODE_VERSION#v}" \
  --change 'CMD ["node"]' \
  "${CA_ENV[@]}" \
  "$WORK/rootfs.tar" "$IMAGE" >/dev/null
if [[ -n "$previous" && "$previous" != "$(docker image inspect --format '{{.Id}}' "$IMAGE")" ]]; then
  docker rmi "$previous" >/dev/null 2>&1 || true
fi
say "built $IMAGE (node $NODE_VERSION, npm $(node "$NPM_DIR/bin/npm-cli.js" --version), $(du -sh "$WORK/rootfs.tar" | cut -f1) root filesystem)"
