#!/usr/bin/env bash
# Runs a command on Node 22 (fetched once into .cache by scripts/node22.sh, first on PATH, so `node`,
# npx and every child process are Node 22) with better-sqlite3 built for Node 22's ABI in its own
# directory, .cache/better-sqlite3-abi<N> (built here once per better-sqlite3 and Node version;
# node_modules' build for the machine's Node is untouched), which scripts/sqlite-for-node.mjs makes
# every process load. Node's headers come with the same package as the binary.
#   scripts/with-node22.sh node --import tsx scripts/test.ts test/x.test.ts
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
node22="$("$root/scripts/node22.sh")"
version="$("$node22" -p process.version)"
abi="$("$node22" -p process.versions.modules)"
sqlite_version="$(node -p "require('$root/node_modules/better-sqlite3/package.json').version")"
dir="$root/.cache/better-sqlite3-abi$abi"
pkg="$dir/node_modules/better-sqlite3"
stamp="$dir/built-for"
want="better-sqlite3 $sqlite_version on Node $version"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "Building $want (ABI $abi) in $dir" >&2
  headers="$(dirname "$(dirname "$node22")")"
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
