// The demo's agent key and administrator password last: `hamlet serve --demo` keeps them in the data
// folder (`demo-credentials.json` beside the SQLite file, or in ./data with PostgreSQL), readable by
// its owner alone (mode 0600), and prints the same ones at every start while they still work, so a
// client configured once keeps working after a restart. A key revoked (or a password changed) since
// is replaced by a new one, printed and kept; deleting the file asks for new ones.
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Services } from '../services.ts';
import type { Store } from '../store/repositories.ts';
import { verifyPassword } from '../domain/identity/secrets.ts';
import { createPrivateFile, PRIVATE_MODE } from '../store/private-file.ts';
import { DEMO_ADMIN_EMAIL, freshDemoAdmin } from './demo-admin.ts';
import { DEMO_AGENT, freshDemoAgentKey } from './demo-key.ts';

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

const kept = z.object({
  agentKey: z.string().optional(),
  adminPassword: z.string().optional(),
});
type Kept = z.infer<typeof kept>;

/** The folder Hamlet keeps its data in: the SQLite file's, or ./data. */
export function dataFolder(databaseUrl: string): string {
  const file = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : '';
  return file && file !== ':memory:' ? dirname(file) : 'data';
}

function read(path: string): Kept {
  try {
    return kept.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return {};
  }
}

/** Writes the whole file at once (a new file renamed over the old), private from its first byte. */
function write(path: string, value: Kept): void {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.partial`;
  createPrivateFile(partial);
  writeFileSync(partial, `${JSON.stringify(value, null, 2)}\n`, { mode: PRIVATE_MODE });
  renameSync(partial, path);
}

/** Whether `key` is a working key of acme's demo agent. */
async function keyWorks(store: Store, services: Services, key: string): Promise<boolean> {
  const acme = await store.communities.getBySlug('acme');
  if (!acme) return false;
  const actor = await services.auth.authenticateAgentKey(acme, key).catch(() => undefined);
  return actor?.name === DEMO_AGENT;
}

/** Whether `password` is the demo administrator's. */
async function passwordWorks(store: Store, password: string): Promise<boolean> {
  const person = await store.people.getByEmail(DEMO_ADMIN_EMAIL);
  const stored = person && (await store.identity.credentials.getPasswordHash(person.id));
  return Boolean(stored && (await verifyPassword(password, stored)));
}

export type DemoCredentials = {
  community: string;
  key: string;
  /** Whether the key was minted at this start (else it is the one kept from before). */
  newKey: boolean;
  admin?: { email: string; password: string; fresh: boolean };
  /** Where they are kept. */
  file: string;
};

/** The demo's key and administrator password: the kept ones while they work, else new ones, kept. */
export async function lastingDemoCredentials(
  store: Store,
  services: Services,
  databaseUrl: string,
): Promise<DemoCredentials | undefined> {
  const file = join(dataFolder(databaseUrl), DEMO_CREDENTIALS_FILE);
  const was = read(file);
  let key = was.agentKey;
  let newKey = false;
  if (!key || !(await keyWorks(store, services, key))) {
    const minted = await freshDemoAgentKey(store, services.agents);
    if (!minted) return undefined;
    key = minted.key;
    newKey = true;
  }
  let admin: DemoCredentials['admin'];
  if (was.adminPassword && (await passwordWorks(store, was.adminPassword)))
    admin = { email: DEMO_ADMIN_EMAIL, password: was.adminPassword, fresh: false };
  else {
    const made = await freshDemoAdmin(store, services.accounts);
    if (made) admin = { ...made, fresh: true };
  }
  const now: Kept = { agentKey: key, adminPassword: admin?.password };
  if (now.agentKey !== was.agentKey || now.adminPassword !== was.adminPassword) write(file, now);
  return { community: 'acme', key, newKey, admin, file };
}
