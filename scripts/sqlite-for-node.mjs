// Loaded with `--import` (scripts/with-node22.sh sets it in NODE_OPTIONS, so every child process
// has it too): when better-sqlite3 was built for this Node's ABI in .cache/better-sqlite3-abi<N>
// (by scripts/with-node22.sh), `better-sqlite3` resolves to that build. The one in node_modules,
// built for the machine's Node, is never touched; without such a build nothing changes.
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';

const build = new URL(
  `../.cache/better-sqlite3-abi${process.versions.modules}/node_modules/better-sqlite3/lib/index.js`,
  import.meta.url,
);

if (existsSync(build) && typeof registerHooks === 'function') {
  registerHooks({
    resolve(specifier, context, next) {
      if (specifier === 'better-sqlite3') return { url: build.href, shortCircuit: true };
      return next(specifier, context);
    },
  });
}
