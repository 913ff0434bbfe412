// Listening on a port, as `hamlet serve` and the metrics port do. The default host `::` takes both
// IPv6 and IPv4 (`[::1]`, `127.0.0.1`, `localhost` alike); on a machine without IPv6 it falls back
// to `0.0.0.0`. A port another program holds fails with a message that says what to do, and keeps
// the system's code (EADDRINUSE) for callers that try another port.
import type { Server } from 'node:net';

/** Every address, both families (IPv4 arrives IPv4-mapped on a dual-stack socket). */
export const EVERY_ADDRESS = '::';

async function once(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => reject(err);
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** The error of a port that cannot be had, saying what to do; other errors as they are. */
export function listenProblem(err: unknown, port: number, host: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'EADDRINUSE' && code !== 'EACCES') return err;
  const where = host === EVERY_ADDRESS || host === '0.0.0.0' ? `port ${port}` : `${host}:${port}`;
  const next = port > 0 && port < 65535 ? port + 1 : 8788;
  const message =
    code === 'EADDRINUSE'
      ? `${where} is already in use (another Hamlet, or another program, listens there): stop it, or start on another port, e.g. PORT=${next} npm start`
      : `${where} may not be opened by this user (ports below 1024 need privileges): start on another port, e.g. PORT=8787 npm start`;
  return Object.assign(new Error(message, { cause: err }), { code });
}

/** Listens on `port` of `host`; `::` falls back to `0.0.0.0` where IPv6 is off. */
export async function listenOn(server: Server, port: number, host: string): Promise<void> {
  try {
    await once(server, port, host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (host === EVERY_ADDRESS && (code === 'EAFNOSUPPORT' || code === 'EADDRNOTAVAIL'))
      return listenOn(server, port, '0.0.0.0').catch((again: unknown) => {
        throw listenProblem(again, port, '0.0.0.0');
      });
    throw listenProblem(err, port, host);
  }
}
