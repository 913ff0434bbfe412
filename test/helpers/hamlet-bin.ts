// How tests start the `hamlet` command (runCli, serveProcess): `node <args…>`. By default the CLI
// bundled once per source tree (esbuild, the compiler tsx uses, dependencies left as imports from
// node_modules), which starts in about a third of the CPU time of `bin/hamlet.js`: that loads every
// module of src/ and of the dependencies through tsx's loader, ~2 s of CPU per process, and the CLI
// tests start dozens. The bundle is the same source compiled the same way; bin/hamlet.js itself stays
// covered by the tests that spawn it directly (test/import/cli.test.ts, test/webhooks/crash.test.ts).
// HAMLET_TEST_CLI=bin runs bin/hamlet.js everywhere instead.
import { copyFileSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildOnce, ROOT, sourceTreeHash } from './build-cache.ts';

let bundled: Promise<string> | undefined;

/** The arguments to give `process.execPath` before the command's own: a script path. */
export async function hamletArgs(): Promise<string[]> {
  if (process.env.HAMLET_TEST_CLI === 'bin') return [join(ROOT, 'bin/hamlet.js')];
  if (!bundled) {
    bundled = buildOnce(`${sourceTreeHash()}-cli`, bundle);
    bundled.catch(() => (bundled = undefined));
  }
  return [join(await bundled, 'bin/hamlet.mjs')];
}

/** Writes the bundled CLI into `dir`, laid out as the checkout is. */
async function bundle(dir: string): Promise<void> {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli/main.ts'],
    outfile: join(dir, 'bin/hamlet.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'silent',
  });
  // As in the checkout: src/version.ts reads ../package.json, packages resolve from node_modules.
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
}
