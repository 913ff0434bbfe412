// How a test starts one of its own TypeScript scripts as a child process: the node arguments for
// `script` (a path relative to the calling module, given as its .ts name).
//
//   spawn(process.execPath, [...childScript(import.meta.url, './crash-child.ts'), ...args])
//
// A test file run through tsx gets `--import tsx <script>.ts`; one run from the compiled copy of the
// checkout (test/helpers/compiled-tree.ts, what the test command runs) gets the script's compiled
// sibling `<script>.js`, which starts without a loader in about a third of the CPU.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function childScript(caller: string, script: string): string[] {
  const ts = fileURLToPath(new URL(script, caller));
  const js = ts.replace(/\.ts$/, '.js');
  return caller.endsWith('.js') && existsSync(js) ? [js] : ['--import', 'tsx', ts];
}
