#!/usr/bin/env bash
# Runs a command on Node 22 (the `node` dev dependency's binary first on PATH, so `node`, npx and
# every child process are Node 22) with better-sqlite3 built for Node 22's ABI in its own directory,
# .cache/better-sqlite3-abi<N> (built here once per better-sqlite3 and Node version; node_modules'
# build for the machine's Node is untouched), which scripts/sqlite-for-node.mjs makes every process
# load. Node's headers come from the `node` package's platform package (npm fetches it with the
# binary) or, if that is absent, from that package fetched with `npm pack`: no download from GitHub.
#   scripts/with-node22.sh node --import tsx scripts/test.ts test/x.test.ts
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
node22="$root/node_modules/node/bin/node"
[ -x "$node22" ] || { echo "Node 22 is not installed: node_modules/node/bin/node is missing (npm install)" >&2; exit 1; }
version="$("$node22" -p process.version)"
abi="$("$node22" -p process.versions.modules)"
sqlite_version="$(node -p "require('$root/node_modules/better-sqlite3/package.json').version")"
dir="$root/.cache/better-sqlite3-abi$abi"
pkg="$dir/node_modules/better-sqlite3"
stamp="$dir/built-for"
want="better-sqlite3 $sqlite_version on Node $version"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "Building $want (ABI $abi) in $dir" >&2
  headers=""
  for candidate in "$root"/node_modules/node/node_modules/node-linux-*; do
    [ -f "$candidate/include/node/node_api.h" ] && headers="$candidate"
  done
  if [ -z "$headers" ]; then
    # The platform package of the `node` package carries include/node; take it from the registry.
    arch="$("$node22" -p process.arch)"
    headers="$root/.cache/node-headers-$version"
    if [ ! -f "$headers/include/node/node_api.h" ]; then
      mkdir -p "$headers"
      tarball="$(cd "$headers" && npm pack --silent "node-linux-$arch@${version#v}")"
      tar -xzf "$headers/$tarball" -C "$headers" --strip-components=1 package/include
      rm -f "$headers/$tarball"
    fi
  fi
  rm -rf "$dir"
  mkdir -p "$pkg"
  (cd "$root/node_modules/better-sqlite3" && tar cf - --exclude=./build .) | (cd "$pkg" && tar xf -)
  gyp="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
  (cd "$pkg" && "$node22" "$gyp" rebuild --release --nodedir="$headers" -j "$(nproc)" >"$dir/build.log" 2>&1) ||
    { tail -30 "$dir/build.log" >&2; echo "better-sqlite3 did not build for Node $version" >&2; exit 1; }
  echo "$want" >"$stamp"
fi
export PATH="$(dirname "$node22"):$PATH"
export NODE_OPTIONS="--import=$root/scripts/sqlite-for-node.mjs${NODE_OPTIONS:+ $NODE_OPTIONS}"
exec "$@"
