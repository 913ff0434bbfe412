// Parent side of query-count-child.ts: fork it on a database, ask for the statements per request of
// some cases, stop it.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CaseCount, CountReply, CountRequest } from './query-count-child.ts';

const CHILD = fileURLToPath(new URL('./query-count-child.ts', import.meta.url));

export async function countQueries(
  env: Record<string, string>,
  request: CountRequest,
): Promise<{ counts: CaseCount[] }> {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  try {
    return await new Promise((resolve, reject) => {
      void exited.then((code) => reject(new Error(`the query-count child exited (code ${code})`)));
      child.on('message', (m: { ready: true } | CountReply) => {
        if ('ready' in m) child.send(request);
        else if ('error' in m) reject(new Error(`query count: ${m.error}`));
        else resolve(m);
      });
    });
  } finally {
    if (child.connected) child.disconnect();
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
}
