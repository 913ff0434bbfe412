// `hamlet serve --demo` as a user starts it: `node bin/hamlet.js serve --demo` from the repository
// root, configured through its environment only. Its JSON logs (stdout) go to a file: the demo
// agent key is read from the file its start line names, and the log is scanned for errors when
// the server stops.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { demoSecrets, startLineOf } from '../../test/helpers/serve.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type ServeProcess = {
  pid: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The demo agent key serve printed (acme's demo-agent). */
  key: string;
  /** SIGTERM (serve shuts down gracefully), SIGKILL after 20 s; returns the error lines it logged. */
  stop(): Promise<string[]>;
};

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts serve with `env` over the current environment (PORT and HOST are set here) and `nodeArgs`
 * before the script (e.g. --cpu-prof), from `root` (another checkout; default this one); resolves once it printed the demo key, which it does after
 * listening.
 */
export async function startServe(
  env: Record<string, string>,
  options: { logFile: string; nodeArgs?: string[]; timeoutMs?: number; root?: string },
): Promise<ServeProcess> {
  const port = await freePort();
  const log = openSync(options.logFile, 'a');
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), 'bin/hamlet.js', 'serve', '--demo'],
    {
      cwd: options.root ?? ROOT,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', log, 'pipe'],
    },
  );
  closeSync(log);
  const stderr = child.stderr!;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let printed = '';
  stderr.setEncoding('utf8');
  stderr.on('data', (chunk: string) => (printed += chunk));
  const key = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 300_000;
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`hamlet serve logged no start line within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    // Its start line (JSON, in the log file) names the file that keeps the demo key.
    const poll = setInterval(() => {
      const start = startLineOf(readFileSync(options.logFile, 'utf8'));
      if (!start) return;
      clearInterval(poll);
      clearTimeout(timer);
      const found = demoSecrets(start).key;
      if (found) resolve(found);
      else reject(new Error('hamlet serve --demo kept no demo key'));
    }, 100);
    child.once('error', reject);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`hamlet serve exited (code ${code}) before it was ready:\n${printed}`));
    });
  }).catch(async (err: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw err;
  });
  // Whatever serve still writes to stderr is shown (it prints nothing more unless something fails).
  stderr.removeAllListeners('data');
  stderr.on('data', (chunk: string) => process.stderr.write(`[serve] ${chunk}`));

  return {
    pid: child.pid!,
    origin: `http://127.0.0.1:${port}`,
    key,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
      // pino levels: 50 error, 60 fatal.
      return readFileSync(options.logFile, 'utf8')
        .split('\n')
        .filter((line) => /^\{"level":(50|60),/.test(line));
    },
  };
}
