// A community's MCP surface is declarative configuration (SPEC §6.5): an admin switches the server
// to the two-tool mode and adds a prompt from a JSON file with the CLI; a connected session hears
// list_changed without a restart and sees the new surface.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { COMMUNITY_CATALOGUE, COMMUNITY_OPERATIONS } from '../../src/operations/catalogue.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { runCli } from '../helpers/cli.ts';
import { waitFor } from '../helpers/wait.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-mcpcfg-'));
const databaseUrl = `sqlite:${join(dir, 'hamlet.db')}`;
let h: TestHamlet;
let client: Client;
const heard: string[] = [];

const cli = (...args: string[]) => runCli(args, { DATABASE_URL: databaseUrl });

before(async () => {
  h = await startTestHamlet({ DATABASE_URL: databaseUrl }, { demo: true, keepDatabase: true });
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const { key } = await h.services.agents.create(systemActor('test'), acme, {
    name: 'cfg-bot',
    scopes: [],
  });
  client = new Client({ name: 'cfg', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    heard.push('tools');
  });
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
    heard.push('prompts');
  });
  const transport = new StreamableHTTPClientTransport(
    new URL(h.hostUrl('acme.localhost', '/api/mcp')),
    { requestInit: { headers: { Authorization: `Bearer ${key}` } } },
  );
  await client.connect(transport);
  await waitFor(() => h.mcp.hub.liveSessionIds().has(transport.sessionId!), {
    message: 'the session stream to open',
  });
});
after(async () => {
  await client?.close();
  await h?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('the default surface: 9 tools and the built-in prompts', async () => {
  // The demo turns the feedback and moderation toolsets on: their tools follow the nine.
  const tools = (await client.listTools()).tools.map((t) => t.name);
  assert.deepEqual(
    tools.slice(0, 9),
    COMMUNITY_OPERATIONS.map((op) => op.name),
  );
  const extra = COMMUNITY_CATALOGUE.filter((op) => op.toolset).map((op) => op.name);
  assert.deepEqual(tools.slice(9), extra);
  assert.deepEqual(
    (await client.listPrompts()).prompts.map((p) => p.name),
    ['ask_a_good_question', 'answer_from_community', 'summarize_topic'],
  );
});

test('an invalid configuration is refused with what to fix', async () => {
  const file = join(dir, 'bad.json');
  writeFileSync(
    file,
    JSON.stringify({
      tool_mode: 'two-tool',
      prompts: [{ name: 'triage', template: 'Triage {{ component }}' }],
    }),
  );
  const r = await cli('community', 'mcp', '--community', 'acme', '--file', file);
  assert.equal(r.code, 2);
  assert.match(
    r.err,
    /prompts\.0\.template: uses \{\{ component \}\}, which is not one of its arguments/,
  );
});

test('switching to two-tool mode and adding a prompt reaches the live session', async () => {
  const file = join(dir, 'acme-mcp.json');
  writeFileSync(
    file,
    JSON.stringify({
      tool_mode: 'two-tool',
      search_limit: 3,
      instructions: 'Tag every question with the product it is about.',
      prompts: [
        {
          name: 'triage_bug',
          title: 'Triage a bug report',
          arguments: [{ name: 'component', required: true }, { name: 'category' }],
          template:
            'Search for known issues in {{ component }} first; ask in {{ category }} only if nothing fits.',
        },
      ],
    }),
  );
  const r = await cli('community', 'mcp', '--community', 'acme', '--file', file);
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).tool_mode, 'two-tool');

  await waitFor(() => heard.includes('tools') && heard.includes('prompts'), {
    message: () => `list_changed of tools and prompts (heard: ${heard.join(', ')})`,
  });

  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ['search', 'execute'],
  );
  const found = await client.callTool({
    name: 'search',
    arguments: { query: 'ask a question in this community' },
  });
  const names = (found.structuredContent as { tools: Array<{ name: string }> }).tools.map(
    (t) => t.name,
  );
  assert.ok(names.includes('create_topic'), names.join(', '));
  assert.ok(names.length <= 3, 'search_limit from the configuration');
  const ran = await client.callTool({
    name: 'execute',
    arguments: { tool: 'list_categories', inputs: {} },
  });
  assert.equal(ran.isError, false);
  assert.ok((ran.structuredContent as { categories: unknown[] }).categories.length >= 3);

  const prompt = await client.getPrompt({
    name: 'triage_bug',
    arguments: { component: 'webhooks', category: 'support' },
  });
  assert.equal(
    (prompt.messages[0]!.content as { text: string }).text,
    'Search for known issues in webhooks first; ask in support only if nothing fits.',
  );
  const completion = await client.complete({
    ref: { type: 'ref/prompt', name: 'triage_bug' },
    argument: { name: 'category', value: 'su' },
  });
  assert.deepEqual(completion.completion.values, ['support']);

  const fresh = new Client({ name: 'fresh', version: '1.0.0' });
  await fresh.connect(
    new StreamableHTTPClientTransport(new URL(h.hostUrl('acme.localhost', '/api/mcp'))),
  );
  assert.match(
    fresh.getInstructions() ?? '',
    /From the administrators of Acme:\nTag every question with the product it is about\.$/,
  );
  await fresh.close();
});
