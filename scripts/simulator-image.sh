#!/usr/bin/env bash
# Builds the image rdx-simulator:local for the container tests (src/container/container.test.ts) on a machine where
# no registry is reachable, so `FROM node:…` cannot be built: the root filesystem is put together by hand and
# loaded with `docker import`. It holds the host's node binary, the shared libraries `ldd` says it needs, and the
# built project (dist/, spec/, suites/, package.json) with the production dependencies only.
#
# Production dependencies are copied from the installed node_modules, the packages `npm ls --omit=dev` names,
# rather than installed afresh with `npm ci --omit=dev`: that works offline and gives exactly the versions the
# tests ran with.
#
#   scripts/simulator-image.sh [IMAGE]     (default rdx-simulator:local; run `npm run build` first)
#
# The image runs `rdx simulate --host $RDX_SIM_IMAGE_HOST --port 8080`. RDX_SIM_IMAGE_HOST defaults to 127.0.0.1
# because this machine's engine has no bridge network: containers use host networking, where 0.0.0.0 would
# listen on every interface of the host. Set it to 0.0.0.0 for an engine with bridge networking.
set -euo pipefail

IMAGE="${1:-rdx-simulator:local}"
LISTEN_HOST="${RDX_SIM_IMAGE_HOST:-127.0.0.1}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

say() { printf 'simulator-image: %s\n' "$*" >&2; }
# shellcheck source=scripts/node-rootfs.sh
source "$ROOT/scripts/node-rootfs.sh"

[[ -f "$ROOT/dist/src/cli/main.js" ]] || { say "no build in $ROOT/dist: run npm run build first"; exit 1; }
timeout 10 docker info >/dev/null 2>&1 || { say "no Docker engine answers: run scripts/docker-engine.sh start"; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
FS="$WORK/rootfs"
mkdir -p "$FS/app" "$FS/tmp" "$FS/usr/bin"
chmod 1777 "$FS/tmp"

# The node binary and every library it loads.
copy_node "$FS" /usr/bin/node

# The project. Compiled tests and the benchmarks are not needed to serve.
cp "$ROOT/package.json" "$FS/app/"
cp -r "$ROOT/spec" "$ROOT/suites" "$FS/app/"
mkdir -p "$FS/app/dist"
cp -r "$ROOT/dist/src" "$ROOT/dist/simulator" "$FS/app/dist/"
find "$FS/app/dist" -name '*.test.js' -delete -o -name '*.test.js.map' -delete

# Production dependencies: each package directory npm lists, without its nested node_modules (nested packages
# are listed on their own when they are production dependencies too).
# npm ls exits non-zero on any oddity in the tree (an extraneous package): the listing is still right, and an
# empty one is caught below.
mapfile -t packages < <(cd "$ROOT" && { npm ls --omit=dev --all --parseable 2>/dev/null || true; } | sort -u | grep '/node_modules/')
((${#packages[@]} > 0)) || { say "npm ls --omit=dev listed no packages: run npm ci first"; exit 1; }
for dir in "${packages[@]}"; do
  rel="${dir#"$ROOT"/}"
  mkdir -p "$FS/app/$rel"
  tar -C "$dir" --exclude=./node_modules -cf - . | tar -C "$FS/app/$rel" -xf -
done

tar -C "$FS" -cf "$WORK/rootfs.tar" .
previous="$(docker image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
docker import \
  --change 'WORKDIR /app' \
  --change 'ENV NODE_ENV=production' \
  --change 'EXPOSE 8080' \
  --change "CMD [\"/usr/bin/node\", \"dist/src/cli/main.js\", \"simulate\", \"--host\", \"$LISTEN_HOST\", \"--port\", \"8080\"]" \
  "$WORK/rootfs.tar" "$IMAGE" >/dev/null
# The image the tag pointed at before is nameless now; with vfs storage it costs its full size on disk. A container
# still using it keeps it (rmi refuses), which is fine.
if [[ -n "$previous" && "$previous" != "$(docker image inspect --format '{{.Id}}' "$IMAGE")" ]]; then
  docker rmi "$previous" >/dev/null 2>&1 || true
fi
say "built $IMAGE ($(du -sh "$WORK/rootfs.tar" | cut -f1) root filesystem, ${#packages[@]} production packages, listens on $LISTEN_HOST:8080)"
