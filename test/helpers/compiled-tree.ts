// The checkout compiled to plain JavaScript once per content, for scripts/test.ts to run the test
// files without a loader. Through tsx every module of src/, test/ and the dependencies passes the
// loader's hooks, about 1.5 s of CPU per test process before the first test; compiled, the same
// file starts in a third of that, and the suite starts ~80 of them.
//
// The copy is the whole checkout (without node_modules and .git, which is linked) under the test
// cache folder, with every .ts file beside a .js file compiled by esbuild, the compiler tsx uses,
// file by file (relative imports point at the .js files; packages stay imports from node_modules).
// Source maps point back at the .ts files of the checkout, so a failure's stack names them.
// What a test reaches through import.meta.url (fixtures, server.json, a child script for tsx) is in
// the copy; what it reaches through the working directory (the test command's) is the checkout.
// A test file run by hand (`node --import tsx --test file.ts`) runs through tsx, as before. Only
// literal imports are compiled: a test importing a .ts path it builds at run time needs tsx (it fails
// here with ERR_UNKNOWN_FILE_EXTENSION; a child process started with --import tsx is fine).
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { buildOnce, ROOT } from './build-cache.ts';

const SKIP = new Set(['node_modules', '.git']);

/** Every file of the checkout but node_modules and .git, as paths relative to it. */
function treeFiles(dir = ROOT, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) treeFiles(path, out);
    else out.push(relative(ROOT, path));
  }
  return out;
}

/** Relative imports of a .ts file point at its compiled .js sibling; nothing else is bundled. */
const siblings: Plugin = {
  name: 'ts-siblings',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.kind === 'entry-point'
        ? undefined
        : { path: args.path.replace(/\.ts$/, '.js'), external: true },
    );
  },
};

/** The root of the compiled copy of the checkout as it is now (built first when needed). */
export async function compiledTree(): Promise<string> {
  const files = treeFiles();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(ROOT, file)));
  const name = `${hash.digest('hex').slice(0, 16)}-tree`;
  return buildOnce(name, async (dir) => {
    cpSync(ROOT, dir, {
      recursive: true,
      filter: (source) => !SKIP.has(relative(ROOT, source).split('/')[0]!),
    });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
    await build({
      absWorkingDir: ROOT,
      entryPoints: files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
      outbase: ROOT,
      outdir: dir,
      bundle: true,
      treeShaking: false,
      packages: 'external',
      plugins: [siblings],
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      tsconfig: join(ROOT, 'tsconfig.json'),
      logLevel: 'silent',
    });
  });
}
