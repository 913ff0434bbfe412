// Things tests build once per source tree and share between test processes (template databases,
// the bundled CLI): a folder under <tmpdir>/hamlet-test-templates (HAMLET_TEST_TEMPLATE_DIR), names
// carrying a hash of src/ and the package files, and a lock so concurrent processes build each once.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { waitFor } from './wait.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CACHE =
  process.env.HAMLET_TEST_TEMPLATE_DIR ?? join(tmpdir(), 'hamlet-test-templates');

let sourceHash: string | undefined;
/** A hash of every file under src/ (path and content), package.json, its lock and tsconfig.json. */
export function sourceTreeHash(): string {
  if (sourceHash) return sourceHash;
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith('.test.ts'))
        hash.update(`${relative(ROOT, path)}\0`).update(readFileSync(path));
    }
  };
  walk(join(ROOT, 'src'));
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json'])
    hash.update(readFileSync(join(ROOT, file)));
  return (sourceHash = hash.digest('hex').slice(0, 16));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `lock` (true), or answers false while a live process holds it; a dead holder's is taken. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  let holder = 0;
  try {
    holder = Number(readFileSync(lock, 'utf8').trim() || 0);
  } catch {
    return false; // released between our two looks: the next try takes it
  }
  // An empty file is a holder between openSync and writeSync; give it a moment, not the lock.
  if (!holder || alive(holder)) return false;
  rmSync(lock, { force: true });
  return tryLock(lock);
}

/**
 * The path `CACHE/<name>`, built by `build(partial)` first when it is missing or older than
 * `maxAgeMs`: `build` writes a file or folder at `partial`, which is then renamed into place, so
 * nobody ever sees half of it. One process builds while the others wait for it.
 */
export async function buildOnce(
  name: string,
  build: (partial: string) => Promise<void>,
  maxAgeMs = Infinity,
): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const path = join(CACHE, name);
  const fresh = () => {
    try {
      return Date.now() - statSync(path).mtimeMs < maxAgeMs;
    } catch {
      return false;
    }
  };
  const lock = `${path}.lock`;
  let locked = false;
  await waitFor(() => fresh() || (locked = tryLock(lock)), {
    timeoutMs: 180_000,
    intervalMs: 50,
    message: `${path} (being built by the process in ${lock})`,
  });
  if (!locked) return used(path);
  try {
    if (fresh()) return used(path); // built by another process between our two looks
    const partial = `${path}.${process.pid}.tmp`;
    rmSync(partial, { recursive: true, force: true });
    await build(partial);
    if (existsSync(path)) rmSync(path, { recursive: true, force: true });
    renameSync(partial, path);
    return used(path);
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Marks `path` as in use (its access time; its modification time says when it was built). */
function used(path: string): string {
  try {
    utimesSync(path, new Date(), statSync(path).mtime);
  } catch {
    // a read-only cache still works; it is only pruned sooner
  }
  return path;
}

/** Removes what was built and not used for a day (run at the suite's start). */
export function pruneCache(maxIdleMs = 24 * 60 * 60 * 1000): void {
  let names: string[];
  try {
    names = readdirSync(CACHE);
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^[0-9a-f]{16}-/.test(name) || name.endsWith('.lock')) continue;
    const path = join(CACHE, name);
    try {
      if (Date.now() - statSync(path).atimeMs > maxIdleMs)
        rmSync(path, { recursive: true, force: true });
    } catch {
      // gone already: another run pruned it
    }
  }
}
