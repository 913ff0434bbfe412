// Shared by the store-backed commands: parse options (mistakes become UsageError, exit 2), open the
// store from Config, always close it, and turn an invalid_argument DomainError into a usage error.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, type Config } from '../config/config.ts';
import { openStore, type OpenOptions } from '../store/open.ts';
import type { Store } from '../store/repositories.ts';
import { DomainError } from '../domain/errors.ts';
import { UsageError } from './errors.ts';

export function parseCommandArgs<T extends ParseArgsConfig['options']>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nUsage: ${usage}`);
  }
}

export async function withStore<T>(fn: (store: Store, config: Config) => Promise<T>, options?: OpenOptions): Promise<T> {
  const config = loadConfig();
  const store = await openStore(config.databaseUrl, options);
  try {
    return await fn(store, config);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'invalid_argument') throw new UsageError(err.message);
    throw err;
  } finally {
    await store.close();
  }
}
