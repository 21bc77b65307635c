# Sourced by scripts/node-base-image.sh and scripts/simulator-image.sh, which build images by hand where no registry
# is reachable: puts this machine's node binary into a root filesystem for `docker import`, with every shared
# library `ldd` says it needs, at the paths the dynamic loader looks for them (symlinks resolved).
#
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
