// Runs the `hamlet` CLI as an operator would (`node bin/hamlet.js …`), asynchronously so that a
// server in the same test process keeps answering while the command runs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export type CliResult = { code: number; out: string; err: string };

export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const r = await promisify(execFile)(process.execPath, ['bin/hamlet.js', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
  }
}
