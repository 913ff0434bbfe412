#!/usr/bin/env bash
# Prints the path of the Node 22 binary the tests and the conformance suite run on, fetching it once
# into .cache/node-<version> from the npm registry (the `node-linux-<arch>` package: the binary and
# its headers, nothing downloaded from anywhere else). It is not a dependency: an install stays lean,
# and only what runs on Node 22 fetches it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="22.23.3"
home="$root/.cache/node-$version"
if [ ! -x "$home/bin/node" ] || [ ! -f "$home/include/node/node_api.h" ]; then
  arch="$(node -p process.arch)"
  rm -rf "$home" && mkdir -p "$home"
  echo "Fetching Node $version (node-linux-$arch) into $home" >&2
  tarball="$(cd "$home" && npm pack --silent "node-linux-$arch@$version")"
  tar -xzf "$home/$tarball" -C "$home" --strip-components=1
  rm -f "$home/$tarball"
  chmod +x "$home/bin/node"
fi
echo "$home/bin/node"
