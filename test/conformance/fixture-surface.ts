// A test-only MCP surface with the tools, prompts and resources the official conformance suite
// calls (their names and behaviours are fixed by the suite). Everything here runs on the real engine
// and transport; only the content is made up.
import { z } from 'zod';
import { RpcError, ErrorCode } from '../../src/mcp/jsonrpc.ts';
import type { Surface, ToolDef } from '../../src/mcp/surface.ts';
import { interpolate } from '../../src/mcp/surface.ts';
import { ToolError } from '../../src/mcp/tool-failure.ts';
import { zodTool } from '../../src/mcp/zod-tool.ts';
import { withSkills, type SkillDef } from '../../src/mcp/skills.ts';
import { modernFixturePrompt, modernFixtureTools, type FixtureHooks } from './fixture-modern.ts';
import { taskFixtureTools } from './fixture-tasks.ts';

// A 1×1 PNG and a 10 ms silent 8 kHz WAV.
export const TEST_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
export const TEST_WAV = (() => {
  const samples = 80;
  const b = Buffer.alloc(44 + samples);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples, 40);
  b.fill(128, 44);
  return b.toString('base64');
})();

const empty = z.object({});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function simple(name: string, description: string, handler: ToolDef['handler']): ToolDef {
  return { name, description, inputSchema: { type: 'object', properties: {} }, handler };
}

const ELICIT_TEXT = (label: string, r: unknown) => {
  const res = r as { action?: string; content?: unknown };
  return `${label}: action=${res.action}, content=${JSON.stringify(res.content ?? {})}`;
};

const tools: ToolDef[] = [
  simple('test_simple_text', 'Returns a simple text block', () => ({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  })),
  simple('test_image_content', 'Returns an image block', () => ({
    content: [{ type: 'image', data: TEST_PNG, mimeType: 'image/png' }],
  })),
  simple('test_audio_content', 'Returns an audio block', () => ({
    content: [{ type: 'audio', data: TEST_WAV, mimeType: 'audio/wav' }],
  })),
  simple('test_embedded_resource', 'Returns an embedded resource', () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  })),
  simple('test_multiple_content_types', 'Returns text, image and resource blocks', () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: TEST_PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  })),
  simple('test_tool_with_logging', 'Emits three log messages while it runs', async (_a, ctx) => {
    await ctx.log('info', 'Tool execution started');
    await sleep(20);
    await ctx.log('info', 'Tool processing data');
    await sleep(20);
    await ctx.log('info', 'Tool execution completed');
    return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
  }),
  simple('test_tool_with_progress', 'Reports progress 0, 50, 100', async (_a, ctx) => {
    for (const p of [0, 50, 100]) {
      await ctx.progress(p, 100, `Completed step ${p} of 100`);
      if (p < 100) await sleep(20);
    }
    return { content: [{ type: 'text', text: String(ctx.meta.progressToken ?? '') }] };
  }),
  simple('test_error_handling', 'Always fails', () => {
    throw new ToolError('This tool intentionally returns an error for testing', {
      code: 'internal',
    });
  }),
  simple(
    'test_reconnection',
    'Closes its SSE stream mid-call; the result arrives on the resumed stream',
    async (_a, ctx) => {
      ctx.closeStream();
      await sleep(100);
      return {
        content: [
          {
            type: 'text',
            text: 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.',
          },
        ],
      };
    },
  ),
  zodTool({
    name: 'test_sampling',
    description: 'Asks the client to sample from its model',
    input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    async handler({ prompt }, ctx) {
      const r = (await ctx.requestClient('sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      })) as { content?: { text?: string } };
      return {
        content: [{ type: 'text', text: `LLM response: ${r.content?.text ?? 'No response'}` }],
      };
    },
  }),
  zodTool({
    name: 'test_elicitation',
    description: 'Asks the user for input through the client',
    input: z.object({ message: z.string().describe('The message to show the user') }),
    async handler({ message }, ctx) {
      const r = await ctx.requestClient('elicitation/create', {
        message,
        requestedSchema: {
          type: 'object',
          properties: { response: { type: 'string', description: "User's response" } },
          required: ['response'],
        },
      });
      return { content: [{ type: 'text', text: ELICIT_TEXT('User response', r) }] };
    },
  }),
  zodTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicitation whose fields carry default values (SEP-1034)',
    input: empty,
    async handler(_a, ctx) {
      const r = await ctx.requestClient('elicitation/create', {
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      });
      return { content: [{ type: 'text', text: ELICIT_TEXT('Elicitation completed', r) }] };
    },
  }),
  zodTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicitation with the five enum schema variants (SEP-1330)',
    input: empty,
    async handler(_a, ctx) {
      const r = await ctx.requestClient('elicitation/create', {
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        },
      });
      return { content: [{ type: 'text', text: ELICIT_TEXT('Elicitation completed', r) }] };
    },
  }),
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features (SEP-1613)',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
    handler: (args) => ({
      content: [
        { type: 'text', text: `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}` },
      ],
    }),
  },
];

/** Observations from inside handlers, for tests that assert what the server saw. */
export const fixtureEvents = { aborted: [] as string[] };

// Tools the conformance suite does not call, used by Hamlet's own transport tests.
const hamletTestTools: ToolDef[] = [
  zodTool({
    name: 'hamlet_echo',
    title: 'Echo',
    description: 'Returns its message as structured content',
    input: z.strictObject({
      message: z.string().min(1).describe('Text to echo'),
      times: z.number().int().min(1).max(3).default(1),
    }),
    output: z.object({ echoed: z.array(z.string()) }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    handler: async ({ message, times }) => ({
      echoed: Array.from({ length: times }, () => message),
    }),
  }),
  zodTool({
    name: 'hamlet_bad_output',
    description: 'Declares an outputSchema and breaks it (a server bug the engine must catch)',
    input: empty,
    output: z.object({ count: z.number() }),
    handler: async () => ({ count: 'not a number' }) as unknown as { count: number },
  }),
  zodTool({
    name: 'hamlet_wait',
    description: 'Reports progress every 50 ms until `ms` pass or the request is cancelled',
    input: z.object({ ms: z.number().int().min(0).max(10_000), label: z.string().default('wait') }),
    async handler({ ms, label }, ctx) {
      const steps = Math.max(1, Math.floor(ms / 50));
      for (let i = 1; i <= steps; i++) {
        if (ctx.signal.aborted) break;
        await sleep(50);
        await ctx.progress(i, steps);
      }
      if (ctx.signal.aborted) fixtureEvents.aborted.push(label);
      return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
    },
  }),
];

/** Skills for the Skills extension's scenarios: one with a file beside SKILL.md. */
const skills: SkillDef[] = [
  {
    name: 'greeting-people',
    description: 'How to greet someone politely, with examples.',
    body: '# Greeting people\n\nSay hello, then their name. See references/examples.md.',
    metadata: { audience: 'everyone' },
    files: [{ path: 'references/examples.md', text: '# Examples\n\n- Hello, Ada.\n' }],
  },
  {
    name: 'saying-goodbye',
    description: 'How to end a conversation.',
    body: '# Saying goodbye\n\nThank them, then say goodbye.',
  },
];

export function fixtureSurface(hooks: FixtureHooks = { listChanged() {} }): Surface {
  return withSkills(fixtureBase(hooks), skills);
}

function fixtureBase(hooks: FixtureHooks): Surface {
  return {
    serverInfo: {
      name: 'hamlet-conformance-fixture',
      title: 'Hamlet conformance fixture',
      version: '1.0.0',
    },
    instructions: 'A fixture for the MCP conformance suite.',
    cache: { scope: 'public', listTtlMs: 60_000 },
    tools: [...tools, ...modernFixtureTools(hooks), ...hamletTestTools, ...taskFixtureTools],
    prompts: [
      modernFixturePrompt,
      {
        name: 'test_simple_prompt',
        title: 'Simple Test Prompt',
        description: 'A simple prompt without arguments',
        render: () => ({
          messages: [
            {
              role: 'user',
              content: { type: 'text', text: 'This is a simple prompt for testing.' },
            },
          ],
        }),
      },
      {
        name: 'test_prompt_with_arguments',
        title: 'Prompt With Arguments',
        description: 'A prompt with required arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
        render: (args) => ({
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: interpolate(
                  "Prompt with arguments: arg1='{{ arg1 }}', arg2='{{ arg2 }}'",
                  args,
                ),
              },
            },
          ],
        }),
        complete: async (_arg, value) =>
          ['paris', 'park', 'party', 'test', 'testing'].filter((v) => v.startsWith(value)),
      },
      {
        name: 'test_prompt_with_embedded_resource',
        title: 'Prompt With Embedded Resource',
        description: 'A prompt that includes an embedded resource',
        arguments: [
          { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
        ],
        render: (args) => ({
          messages: [
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: {
                  uri: args.resourceUri!,
                  mimeType: 'text/plain',
                  text: 'Embedded resource content for testing.',
                },
              },
            },
            {
              role: 'user',
              content: { type: 'text', text: 'Please process the embedded resource above.' },
            },
          ],
        }),
      },
      {
        name: 'test_prompt_with_image',
        title: 'Prompt With Image',
        description: 'A prompt that includes image content',
        render: () => ({
          messages: [
            { role: 'user', content: { type: 'image', data: TEST_PNG, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
          ],
        }),
      },
    ],
    resources: [
      {
        uri: 'test://static-text',
        name: 'static-text',
        title: 'Static Text Resource',
        description: 'A static text resource for testing',
        mimeType: 'text/plain',
        read: async () => [
          {
            uri: 'test://static-text',
            mimeType: 'text/plain',
            text: 'This is the content of the static text resource.',
          },
        ],
      },
      {
        uri: 'test://static-binary',
        name: 'static-binary',
        title: 'Static Binary Resource',
        description: 'A static binary resource (image) for testing',
        mimeType: 'image/png',
        read: async () => [{ uri: 'test://static-binary', mimeType: 'image/png', blob: TEST_PNG }],
      },
      {
        uri: 'test://watched-resource',
        name: 'watched-resource',
        title: 'Watched Resource',
        description: 'A resource that subscribers hear about when it changes',
        mimeType: 'text/plain',
        read: async () => [
          {
            uri: 'test://watched-resource',
            mimeType: 'text/plain',
            text: 'Watched resource content',
          },
        ],
      },
    ],
    templates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template',
        title: 'Resource Template',
        description: 'A resource template with parameter substitution',
        mimeType: 'application/json',
        read: async (uri, { id }) => [
          {
            uri,
            mimeType: 'application/json',
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
          },
        ],
        complete: async (_v, value) => ['1', '2', '42', '100'].filter((v) => v.startsWith(value)),
      },
    ],
    around: (_method, ctx, run) => {
      // The fixture is open, but honours an explicit refusal so tests can exercise the hook.
      if (ctx.credential === 'forbidden')
        throw new RpcError(ErrorCode.Unauthorized, 'This key may not read here.');
      return run(ctx);
    },
  };
}
