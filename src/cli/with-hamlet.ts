// Shared by the commands that work on the database: parse options (mistakes become UsageError, exit
// 2; --help becomes HelpRequested with the usage), open the store and the services from Config through the wiring root (src/main.ts), always
// close them, and turn an invalid_argument DomainError into a usage error. The database is opened
// without migrating: a schema at another version stops the command with what to run
// (src/store/schema-version.ts); only `serve` and `migrate` change the schema.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, type Config } from '../config/config.ts';
import type { OpenOptions } from '../store/open.ts';
import type { Store } from '../store/repositories.ts';
import { openHamlet } from '../main.ts';
import type { Services } from '../services.ts';
import { DomainError } from '../domain/errors.ts';
import { HelpRequested, UsageError } from './errors.ts';
import { createLogger } from '../log.ts';
import { cliIo } from './io.ts';

/** Whether the options (up to a `--`) ask for help: --help or -h. */
export function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export function parseCommandArgs<T extends ParseArgsConfig['options']>(
  args: string[],
  options: T,
  usage: string,
) {
  // Asking for help is answered before anything else runs (the CLI prints `usage`).
  if (asksForHelp(args)) throw new HelpRequested(usage);
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nUsage: ${usage}`);
  }
}

export async function withHamlet<T>(
  fn: (store: Store, config: Config, services: Services) => Promise<T>,
  options?: OpenOptions,
  /** Settings a command changes for itself before the services are made. */
  adjust?: (config: Config) => void,
): Promise<T> {
  const io = cliIo();
  const config = loadConfig(io.env);
  adjust?.(config);
  // Commands print for a person; the services' own logs stay quiet unless something is wrong.
  const { store, services, close } = await openHamlet(config, {
    migrate: false,
    requireCurrentSchema: true,
    ...options,
    logger: createLogger('error', io.stderr),
  });
  try {
    return await fn(store, config, services);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'invalid_argument')
      throw new UsageError(err.message);
    throw err;
  } finally {
    await close();
  }
}
