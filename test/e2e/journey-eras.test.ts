// The agent journey by three clients against one running Hamlet, on SQLite and on PostgreSQL: the
// official v2 client pinned to 2026-07-28, the v2 client in auto mode (it probes with
// server/discover and stays modern), and the v1 client (2025-11-25: initialize and a session).
import '../helpers/localhost-dns.mjs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { moderatorOf, runJourney, type Subject, type ToolCaller } from './journey.ts';

const SUBJECTS: Record<string, Subject> = {
  pinned: {
    title: 'How do I rotate an agent key without downtime?',
    body: 'Our agent uses one hmlt_live_ key. How do we switch to a new key without a window where calls fail?',
    reply:
      'Mint a second key with `hamlet key mint`, switch the agent to it, then revoke the old one.',
    query: 'rotate agent key',
  },
  auto: {
    title: 'Can a category be exported as Markdown files?',
    body: 'We want a copy of the knowledge base category in git. Is there an export of every article as Markdown?',
    reply:
      'Read each article with the hamlet://acme/articles/{slug} resource: it is the Markdown body.',
    query: 'export category markdown',
  },
  v1: {
    title: 'Why did webhook deliveries pause after a restart?',
    body: 'After restarting Hamlet our endpoint got nothing for a minute, then every delivery arrived at once.',
    reply:
      'Deliveries wait in the outbox while the process is down and are retried with backoff once it is back.',
    query: 'webhook deliveries restart',
  },
};

type Connected = { call: ToolCaller; close(): Promise<void>; version(): string | undefined };

async function v2(url: string, key: string, mode: 'auto' | { pin: string }): Promise<Connected> {
  const client = new ClientV2(
    { name: 'journey-v2', version: '1.0.0' },
    { versionNegotiation: { mode } },
  );
  await client.connect(
    new TransportV2(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  return {
    call: (name, args) => client.callTool({ name, arguments: args }) as never,
    close: () => client.close(),
    version: () => client.getNegotiatedProtocolVersion(),
  };
}

async function v1(url: string, key: string): Promise<Connected> {
  const client = new ClientV1({ name: 'journey-v1', version: '1.0.0' });
  const transport = new TransportV1(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return {
    call: (name, args) => client.callTool({ name, arguments: args }) as never,
    close: () => client.close(),
    version: () => transport.protocolVersion,
  };
}

function journeys(
  engine: string,
  env: () => Promise<Record<string, string> | undefined>,
  cleanup: () => Promise<void> = async () => {},
) {
  describe(`the agent journey by the v2 client (pinned, auto) and the v1 client, on ${engine}`, () => {
    let h: TestHamlet;
    let acme: Community;
    let key: string;
    let url: string;
    const open: Connected[] = [];
    before(async () => {
      h = await startTestHamlet((await env())!, { demo: true });
      acme = (await h.store.communities.getBySlug('acme'))!;
      const system = systemActor('test');
      ({ key } = await h.services.agents.create(system, acme, {
        name: 'journey-bot',
        scopes: ['topic:create', 'post:create', 'solution:mark'],
      }));
      await h.services.approvals.setPolicy(system, acme, {
        kind: 'topic.create',
        mode: 'approval',
      });
      url = h.hostUrl('acme.localhost', '/api/mcp');
    });
    after(async () => {
      for (const c of open) await c.close().catch(() => {});
      await h?.stop();
      await cleanup();
    });

    test('one server, three clients, both eras', async () => {
      const moderator = await moderatorOf(h.services, acme, 'mod@example.com');
      const clients: Array<[string, Connected, string]> = [
        ['pinned', await v2(url, key, { pin: '2026-07-28' }), '2026-07-28'],
        ['auto', await v2(url, key, 'auto'), '2026-07-28'],
        ['v1', await v1(url, key), '2025-11-25'],
      ];
      open.push(...clients.map(([, c]) => c));
      for (const [label, client, era] of clients) {
        assert.equal(client.version(), era, `${label} speaks ${era}`);
        await runJourney(client.call, h.services, acme, moderator, SUBJECTS[label]!);
      }
    });
  });
}

journeys('SQLite', async () => ({}));

const pg = await freshPostgresDatabase('journey_eras');
if (pg.ok)
  journeys(
    'PostgreSQL',
    async () => ({ DATABASE_URL: pg.url }),
    () => pg.drop(),
  );
else if (pg.fail)
  test('the agent journey on PostgreSQL', () => assert.fail(`CI=true but ${pg.reason}`));
else test('the agent journey on PostgreSQL', { skip: pg.reason }, () => {});
