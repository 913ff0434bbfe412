// Where a command's environment, input and output are: the process's own (`hamlet` as a program),
// or those a caller gives runHamlet (./run.ts) to run a command inside its own process, as the
// tests do. Commands read them here (cliIo(): the environment for loadConfig, stdin, the stream for
// logs) and print with console.log / console.error as usual: while a run with its own streams is
// under way, the console of the code it calls (and only of that code, even with several runs at
// once) writes to that run's streams. Everything else in the process keeps the real console.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Console } from 'node:console';
import type { Readable, Writable } from 'node:stream';

/** A stream a command writes to: a terminal says so (isTTY), as process.stdout does. */
export type CliOutput = Writable & { isTTY?: boolean };

export type CliIo = {
  env: Record<string, string | undefined>;
  stdin: Readable;
  stdout: CliOutput;
  stderr: CliOutput;
};

type Run = { io: CliIo; console: Console; exitCode: number };

const runs = new AsyncLocalStorage<Run>();

/** The current run's environment and streams: the process's when none was given. */
export function cliIo(): CliIo {
  return (
    runs.getStore()?.io ?? {
      env: process.env,
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
    }
  );
}

/** Makes the command end with `code` once it returns (it keeps running; nothing is thrown). */
export function setExitCode(code: number): void {
  const run = runs.getStore();
  if (run) run.exitCode = code;
  else process.exitCode = code;
}

let consoleRouted = false;
/** Sends console.log/info/warn/error/debug of code inside a run to that run's streams. */
function routeConsole(): void {
  if (consoleRouted) return;
  consoleRouted = true;
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const real = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const run = runs.getStore();
      if (run) run.console[method](...args);
      else real(...args);
    };
  }
}

/**
 * Runs `fn` with `io` as the command's environment and streams; answers the exit code `fn` answers,
 * or (undefined: the command returned) the one the command set with setExitCode, else 0.
 */
export async function withCliIo(io: CliIo, fn: () => Promise<number | undefined>): Promise<number> {
  routeConsole();
  const run: Run = { io, console: new Console(io.stdout, io.stderr), exitCode: 0 };
  return runs.run(run, async () => (await fn()) ?? run.exitCode);
}
