#!/usr/bin/env bash
# Builds the repository's real Dockerfile on this machine (docs/image.md): the base image it names is made locally
# by scripts/node-base-image.sh, since no registry can be pulled from, and passed as NODE_IMAGE.
#
#   scripts/product-image.sh [IMAGE]          (default rdx-conformance:local; test/packaging/image.test.ts uses it)
#
# BuildKit when a docker CLI here can use it (buildx, or a CLI older than 23 with BuildKit built in): on vfs storage
# the legacy builder copies the whole file system for every instruction, which takes many minutes on a busy machine.
set -euo pipefail

IMAGE="${1:-rdx-conformance:local}"
BASE="${RDX_NODE_BASE_IMAGE:-rdx-node-base:local}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

say() { printf 'product-image: %s\n' "$*" >&2; }

timeout 10 docker info >/dev/null 2>&1 || { say "no Docker engine answers: run scripts/docker-engine.sh start"; exit 1; }

"$ROOT/scripts/node-base-image.sh" "$BASE"

build=()
if docker buildx version >/dev/null 2>&1; then
  build=(docker buildx build --load)
else
  while read -r cli; do
    version="$("$cli" version --format '{{.Client.Version}}' 2>/dev/null || true)"
    if [[ "$version" =~ ^([0-9]+)\. ]] && ((BASH_REMATCH[1] < 23)); then
      build=(env DOCKER_BUILDKIT=1 "$cli" build)
      break
    fi
  done < <(type -ap docker)
fi
if ((${#build[@]} == 0)); then
  say "no BuildKit here: the legacy builder is slow on vfs storage"
  build=(docker build)
fi

started=$SECONDS
"${build[@]}" --network host --build-arg "NODE_IMAGE=$BASE" -t "$IMAGE" "$ROOT"
say "built $IMAGE from $ROOT/Dockerfile on $BASE in $((SECONDS - started))s ($(docker image inspect --format '{{.Size}}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
