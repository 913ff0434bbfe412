// Runs the `hamlet` CLI as an operator would (`node bin/hamlet.js …`; by default its bundle, see
// hamlet-bin.ts), asynchronously so that a server in the same test process keeps answering while the
// command runs.
import { spawn } from 'node:child_process';
import { hamletArgs } from './hamlet-bin.ts';

export type CliResult = { code: number; out: string; err: string };

export async function runCli(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<CliResult> {
  const command = await hamletArgs();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...command, ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, out, err }));
    child.stdin.end(stdin ?? '');
  });
}
