// Runs the `hamlet` CLI for a test. runCli runs it inside the test process (src/cli/run.ts with the
// given environment, stdin and captured output: the same command code, without a process start,
// which costs more CPU than most commands do), asynchronously so that a server in the same process
// keeps answering while the command runs. spawnCli runs it as an operator would (`node
// bin/hamlet.js …`; by default its bundle, see hamlet-bin.ts): for the tests whose subject is the
// process (exit on a closed pipe, signals, what a fresh process reads). HAMLET_TEST_CLI=spawn (or
// =bin) makes runCli spawn too.
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { hamletArgs } from './hamlet-bin.ts';

export type CliResult = { code: number; out: string; err: string };

/** A stream that keeps what is written to it. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export async function runCli(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<CliResult> {
  if (process.env.HAMLET_TEST_CLI) return spawnCli(args, env, stdin);
  const [{ runHamlet }, { withCliIo }] = await Promise.all([
    import('../../src/cli/run.ts'),
    import('../../src/cli/io.ts'),
  ]);
  const out = collector();
  const err = collector();
  const io = {
    env: { ...process.env, ...env },
    stdin: Readable.from([Buffer.from(stdin ?? '')]),
    stdout: out.stream,
    stderr: err.stream,
  };
  const code = await withCliIo(io, () => runHamlet(args));
  return { code, out: out.text(), err: err.text() };
}

export async function spawnCli(
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
