// Child-process entry of bench/mcp-session-flood.ts: starts a real Hamlet on the demo data (SQLite in
// a temporary directory, or DATABASE_URL), adds `sessions` anonymous MCP sessions of the acme
// community straight through its session store (as if from as many addresses), and reports the
// port and an agent key. Written against the SessionStore interface only, so the same file runs on
// an older checkout for the "before" figures.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { startHamlet } from '../../src/main.ts';

const sessions = Number(process.argv[2] ?? 0);
const silent = new Writable({ write: (_c, _e, done) => done() });
const dir = mkdtempSync(join(tmpdir(), 'hamlet-flood-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${join(dir, 'hamlet.db')}`,
  LOG_LEVEL: 'silent',
});
const hamlet = await startHamlet(config, {
  demo: true,
  handleSignals: false,
  logDestination: silent,
});
const acme = (await hamlet.store.communities.getBySlug('acme'))!;
const { key } = await hamlet.services.agents.create(systemActor('bench'), acme, {
  name: `flood-bench-${Date.now()}`,
  scopes: ['post:create'],
});
const now = Date.now();
for (let i = 0; i < sessions; i++) {
  await hamlet.store.mcpSessions.create({
    id: `flood-${now}-${i}`,
    scope: `community:${acme.id}`,
    clientIp: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    protocolVersion: '2025-11-25',
    clientInfo: { name: 'flood', version: '1' },
    clientCapabilities: {},
    subscriptions: [],
    createdAt: now,
    lastSeenAt: now,
  });
}
const topic = (
  await hamlet.services.content.listTopics(systemActor('bench'), acme, { sort: 'latest', limit: 1 })
).topics[0]!;
process.send!({
  port: new URL(hamlet.url).port,
  key,
  topic: topic.id,
  sessions: await hamlet.store.mcpSessions.count(),
});
process.on('disconnect', () => void hamlet.close().then(() => process.exit(0)));
