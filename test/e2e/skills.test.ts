// A community serves skills through the MCP Skills extension (SEP-2640): its guidelines, how to
// ask and answer there and how to leave knowledge others can trust (alternatives, environment,
// outcomes, sources; naming only the tools the server lists), then the administrators' own from the
// MCP configuration. Read with the
// official v2 client's SkillsClient, which checks every file against its entry (size, digest,
// frontmatter); a live v1 session hears that the resource list changed when an admin adds a skill.
// On SQLite, and on PostgreSQL under scripts/with-postgres.sh.
import '../helpers/localhost-dns.mjs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { waitFor } from '../helpers/wait.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';

function skillsOn(
  engine: string,
  env: () => Promise<Record<string, string>>,
  cleanup: () => Promise<void> = async () => {},
) {
  describe(`community skills, on ${engine}`, () => {
    let h: TestHamlet;
    let acme: Community;
    let key: string;
    let v2: ClientV2;
    let skills: SkillsClient;
    let v1: ClientV1;
    let resourcesChanged = 0;

    const url = () => new URL(h.hostUrl('acme.localhost', '/api/mcp'));
    const auth = () => ({ requestInit: { headers: { Authorization: `Bearer ${key}` } } });

    before(async () => {
      h = await startTestHamlet(await env(), { demo: true });
      acme = (await h.store.communities.getBySlug('acme'))!;
      ({ key } = await h.services.agents.create(systemActor('test'), acme, {
        name: 'skills-bot',
        scopes: [],
      }));
      v2 = new ClientV2(
        { name: 'skills-v2', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await v2.connect(new StreamableHTTPClientTransport(url(), auth()));
      skills = new SkillsClient(v2);
      v1 = new ClientV1({ name: 'skills-v1', version: '1.0.0' });
      v1.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        resourcesChanged++;
      });
      const transport = new TransportV1(url(), auth());
      await v1.connect(transport);
      await waitFor(() => h.mcp.hub.liveSessionIds().has(transport.sessionId!), {
        message: 'the session stream to open',
      });
    });
    after(async () => {
      await v1?.close();
      await v2?.close();
      await h?.stop();
      await cleanup();
    });

    test('every community serves its guidelines and how to ask and answer there, verified by the client', async () => {
      assert.equal(skills.supported, true);
      const listing = await skills.list();
      assert.deepEqual(
        listing.skills.map((s) => s.frontmatter.name),
        ['asking-and-answering', 'hamlet-knowledge', 'community-guidelines'],
      );
      assert.equal(typeof listing.ttlMs, 'number');
      const guidelines = listing.skills[2]!;
      assert.equal(guidelines.uri, 'skill://community-guidelines/SKILL.md');
      assert.deepEqual(guidelines.frontmatter.metadata, { community: 'acme' });
      const file = await skills.read(guidelines);
      assert.equal(file.verified, true);
      assert.ok(file.body!.includes(acme.guidelines.trim().split('\n')[0]!), file.body);
      const how = await skills.read(listing.skills[0]!);
      assert.match(how.body!, /search_community/);
      assert.match(how.body!, /mark_solution/);
      // Beside it, the reference of the tools this server lists (the demo's toolsets included).
      const tools = await skills.read(listing.skills[0]!, 'references/tools.md');
      assert.equal(tools.verified, true);
      for (const t of (await v2.listTools()).tools)
        assert.ok(tools.text!.includes(`## ${t.name}`), t.name);
      assert.equal(skills.directoryRead, true);
      const dir = await skills.readDirectory('skill://asking-and-answering');
      assert.deepEqual(
        dir.resources.map((r) => [r.uri, r.mimeType]),
        [
          ['skill://asking-and-answering/SKILL.md', 'text/markdown'],
          ['skill://asking-and-answering/references', 'inode/directory'],
        ],
      );
    });

    test('a skill the administrators declare reaches live sessions, with its files', async () => {
      const before = resourcesChanged;
      await h.services.mcpConfig.set(systemActor('test'), acme, {
        skills: [
          {
            name: 'triage-bugs',
            description: 'How to report a bug in Acme so that it gets fixed.',
            body: '# Triage\n\nSearch first. Then follow references/checklist.md.',
            files: [
              { path: 'references/checklist.md', text: '- version\n- steps\n- what you saw\n' },
            ],
          },
        ],
      });
      await waitFor(() => resourcesChanged > before, { message: 'resources/list_changed' });
      const { resources } = await v1.listResources();
      assert.ok(resources.some((r) => r.uri === 'skill://triage-bugs/SKILL.md'));

      const { skill } = await skills.get('skill://triage-bugs/SKILL.md');
      assert.equal(
        skill.frontmatter.description,
        'How to report a bug in Acme so that it gets fixed.',
      );
      const checklist = await skills.read(skill, 'references/checklist.md');
      assert.equal(checklist.verified, true);
      assert.equal(checklist.text, '- version\n- steps\n- what you saw\n');
      assert.equal((await skills.list()).skills.length, 4);
    });

    test('hamlet-knowledge teaches alternatives, environment, outcomes and sources with the tools listed', async () => {
      // Fresh from the server each time (not the client's cache of an earlier configuration).
      const fresh = { cacheMode: 'refresh' } as const;
      const knowledge = async () => {
        const entry = (await skills.list()).skills.find(
          (s) => s.frontmatter.name === 'hamlet-knowledge',
        )!;
        const file = await skills.read(entry, undefined, fresh);
        assert.equal(file.verified, true);
        return file.body!;
      };
      const toolNames = async () =>
        new Set((await v2.listTools({}, fresh)).tools.map((t) => t.name));
      /** Every `snake_case` word of the body that looks like a tool name is a listed tool. */
      const namedTools = (body: string) =>
        [...body.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)]
          .map((m) => m[1]!)
          .filter((n) => /^(search|suggest|get|create|reply|confirm|mark|list|ask|find)_/.test(n));

      // The demo turns the feedback toolset on: confirm_answer is listed and taught.
      await h.services.mcpConfig.set(systemActor('test'), acme, {
        toolsets: ['feedback', 'moderation'],
      });
      await waitFor(async () => (await toolNames()).has('confirm_answer'), {
        message: 'confirm_answer listed',
      });
      let body = await knowledge();
      for (const word of ['alternatives', 'environment', 'sources', 'confirm_answer'])
        assert.ok(body.includes(`\`${word}\``), `the skill teaches ${word}`);
      assert.match(body, /up to 5 other phrasings/);
      assert.match(body, /Never guess the answer's title/);
      assert.match(body, /\{"node": "22\.4"/);
      let listed = await toolNames();
      for (const name of namedTools(body)) assert.ok(listed.has(name), `${name} is listed`);
      assert.match(body, /`search_community` and `suggest_answer` take `alternatives`/);

      // Without the feedback toolset the skill (and the instructions) no longer name confirm_answer.
      await h.services.mcpConfig.set(systemActor('test'), acme, { toolsets: [] });
      await waitFor(async () => !(await toolNames()).has('confirm_answer'), {
        message: 'confirm_answer no longer listed',
      });
      body = await knowledge();
      listed = await toolNames();
      assert.ok(!body.includes('confirm_answer'), body);
      for (const name of namedTools(body)) assert.ok(listed.has(name), `${name} is listed`);
      assert.match(body, /`environment`/);
      assert.match(body, /`sources`/);
      const another = new ClientV2(
        { name: 'skills-another', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await another.connect(new StreamableHTTPClientTransport(url(), auth()));
      const instructions = another.getInstructions() ?? '';
      await another.close();
      assert.match(instructions, /alternatives/);
      assert.match(instructions, /hamlet-knowledge/);
      assert.ok(!instructions.includes('confirm_answer'), instructions);
    });

    test('a skill may not take a built-in name, and an unknown skill is -32602', async () => {
      await assert.rejects(
        h.services.mcpConfig.set(systemActor('test'), acme, {
          skills: [{ name: 'community-guidelines', description: 'Mine.', body: 'Mine.' }],
        }),
        /skills\.0\.name: "community-guidelines" is taken/,
      );
      await assert.rejects(
        skills.get('skill://no-such-skill/SKILL.md'),
        (err: { code?: number }) => {
          assert.equal(err.code, -32602);
          return true;
        },
      );
    });

    test('reading a skill needs the community key, like any resource', async () => {
      const anonymous = new ClientV2(
        { name: 'anon', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await anonymous.connect(new StreamableHTTPClientTransport(url()));
      await assert.rejects(
        anonymous.readResource({ uri: 'skill://community-guidelines/SKILL.md' }),
        /key|credential|Unauthorized|sign/i,
      );
      await anonymous.close();
    });
  });
}

skillsOn('SQLite', async () => ({}));
const pg = await freshPostgresDatabase('skills');
if (pg.ok)
  skillsOn(
    'PostgreSQL',
    async () => ({ DATABASE_URL: pg.url }),
    () => pg.drop(),
  );
