// Files that hold the database's secrets (password and key hashes, the reply-address signing key)
// are the owner's alone: a new SQLite database, a backup and a restored copy are created mode 0600
// before anything is written to them, whatever the process's umask. SQLite gives the `-wal` and
// `-shm` files beside a database the database file's own mode.
import { chmodSync, closeSync, openSync } from 'node:fs';

/** Owner read and write, nobody else. */
export const PRIVATE_MODE = 0o600;

/** Creates `path` empty and private if there is no file there yet (an existing file is left as it is). */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** Makes an existing file private (a tool wrote it with its own mode). */
export function makePrivate(path: string): void {
  chmodSync(path, PRIVATE_MODE);
}
