// `hamlet serve` as an operator starts it (by default from its bundle, see hamlet-bin.ts), in its own
// process (so a test can kill it), and a free loopback port to give it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hamletArgs } from './hamlet-bin.ts';

/**
 * A loopback port free at the time of asking. It is drawn at random below the kernel's ephemeral
 * range (32768 and up on Linux), so no outgoing connection of another test (to PostgreSQL, to a
 * browser) can take it between this probe and the caller's listen; another file drawing the same
 * port in that window is a 1-in-12,000 chance, which startTestHamlet covers by trying again.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
}

async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The JSON log line `hamlet serve` writes once it serves (src/cli/start-banner.ts). */
export type StartLine = {
  msg: string;
  url: string;
  mcp_network: string;
  mcp_community: string;
  path_form: boolean;
  demo?: {
    community: string;
    mcp: string;
    web: string;
    signin: string;
    agent_key: 'new' | 'the same as before';
    admin_email?: string;
    admin_password?: 'new' | 'the same as before';
    credentials_file: string;
  };
};

/** The start line among JSON log lines (serve's stdout), once it is out; the one parser of it. */
export function startLineOf(log: string): StartLine | undefined {
  for (const line of log.split('\n')) {
    if (!line.includes('"Hamlet is running"')) continue;
    try {
      const parsed = JSON.parse(line) as StartLine;
      if (parsed.msg === 'Hamlet is running') return parsed;
    } catch {
      // a line still being written
    }
  }
  return undefined;
}

/** The demo's agent key and administrator password, from the file the start line names. */
export function demoSecrets(start: StartLine): { key?: string; password?: string } {
  if (!start.demo) return {};
  const kept = JSON.parse(readFileSync(start.demo.credentials_file, 'utf8')) as {
    agentKey?: string;
    adminPassword?: string;
  };
  return { key: kept.agentKey, password: kept.adminPassword };
}

export type Served = { child: ChildProcess; start: StartLine; key?: string; password?: string };

/**
 * Starts `hamlet serve` (with `--demo`: creating the demo once, its agent key and administrator
 * password kept in its data folder) and resolves once its start line is logged, with that line and
 * the demo's secrets. Its stdout (JSON logs, warnings and up, and the start line) is read and
 * dropped after that. `started` collects the process, so a caller can stop everything it started even
 * when a later start fails.
 */
export async function serveProcess(
  env: Record<string, string>,
  options: { demo?: boolean; started?: ChildProcess[] } = {},
): Promise<Served> {
  const demo = options.demo ?? false;
  const command = [...(await hamletArgs()), 'serve', ...(demo ? ['--demo'] : [])];
  const child = spawn(process.execPath, command, {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.started?.push(child);
  let log = '';
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c));
  const start = await new Promise<StartLine>((resolve, reject) => {
    const said = () => `stderr:\n${stderr}\nlog:\n${log.slice(-4000)}`;
    const timer = setTimeout(() => reject(new Error(`no start line in time:\n${said()}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      log += c;
      const line = startLineOf(log);
      if (!line) return;
      clearTimeout(timer);
      log = '';
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hamlet exited with ${code}:\n${said()}`));
    });
  });
  return { child, start, ...demoSecrets(start) };
}
