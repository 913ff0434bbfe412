// Tools and a prompt the 2026-07-28 conformance scenarios call (their names and behaviours are fixed
// by the suite): multi round-trip requests (input_required), a tool that needs a client capability,
// tools that change the tool and prompt lists, a tool that mirrors an argument into a header.
import type { InputRequest } from '../../src/mcp/input-required.ts';
import { InputRequired } from '../../src/mcp/input-required.ts';
import type { PromptDef, ToolDef } from '../../src/mcp/surface.ts';

const elicit = (message: string, field: string, type = 'string'): InputRequest => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] },
  },
});
const sample = (text: string, maxTokens: number): InputRequest => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});
const ROOTS: InputRequest = { method: 'roots/list', params: {} };

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const answered = (
  ctx: { inputResponses: Record<string, Record<string, unknown>> },
  ...keys: string[]
) => keys.every((k) => ctx.inputResponses[k]);
const content = (r: Record<string, unknown> | undefined) =>
  (r?.content ?? {}) as Record<string, unknown>;

function tool(
  name: string,
  description: string,
  handler: ToolDef['handler'],
  inputSchema: Record<string, unknown> = { type: 'object', properties: {} },
): ToolDef {
  return { name, description, inputSchema, handler };
}

/** What the list-changing tools call: the fixture server tells listeners and sessions. */
export type FixtureHooks = { listChanged(list: 'tools' | 'prompts'): Promise<void> | void };

export function modernFixtureTools(hooks: FixtureHooks): ToolDef[] {
  return [
    tool(
      'test_input_required_result_elicitation',
      "Asks for the user's name (input_required), then greets them",
      (_a, ctx) =>
        answered(ctx, 'user_name')
          ? text(`Hello, ${String(content(ctx.inputResponses.user_name).name ?? 'stranger')}!`)
          : new InputRequired({ user_name: elicit('What is your name?', 'name') }),
    ),
    tool(
      'test_input_required_result_sampling',
      "Asks the client's model a question, then returns its answer",
      (_a, ctx) => {
        if (!answered(ctx, 'capital_question'))
          return new InputRequired({
            capital_question: sample('What is the capital of France?', 100),
          });
        const c = ctx.inputResponses.capital_question!.content as { text?: string } | undefined;
        return text(`The model said: ${c?.text ?? ''}`);
      },
    ),
    tool(
      'test_input_required_result_list_roots',
      "Asks for the client's roots, then lists them",
      (_a, ctx) => {
        if (!answered(ctx, 'client_roots')) return new InputRequired({ client_roots: ROOTS });
        const roots = (ctx.inputResponses.client_roots!.roots ?? []) as { uri?: string }[];
        return text(`Roots: ${roots.map((r) => r.uri).join(', ')}`);
      },
    ),
    tool(
      'test_input_required_result_request_state',
      'Asks for a confirmation and keeps state across the round trip',
      (_a, ctx) => {
        if (!answered(ctx, 'confirm'))
          return new InputRequired(
            { confirm: elicit('Please confirm', 'ok', 'boolean') },
            { round: 1 },
          );
        return (ctx.state as { round?: number } | undefined)?.round === 1
          ? text('state-ok: confirmed')
          : new InputRequired({ confirm: elicit('Please confirm', 'ok', 'boolean') }, { round: 1 });
      },
    ),
    tool(
      'test_input_required_result_multiple_inputs',
      'Asks for a name, a greeting and the roots at once',
      (_a, ctx) =>
        answered(ctx, 'user_name', 'greeting', 'client_roots') && ctx.state
          ? text('All inputs received.')
          : new InputRequired(
              {
                user_name: elicit('What is your name?', 'name'),
                greeting: sample('Generate a greeting', 50),
                client_roots: ROOTS,
              },
              { asked: true },
            ),
    ),
    tool(
      'test_input_required_result_multi_round',
      'Two questions in two rounds, the state carrying the first answer',
      (_a, ctx) => {
        const state = ctx.state as { name?: string } | undefined;
        if (state?.name && answered(ctx, 'step2'))
          return text(`${state.name} likes ${String(content(ctx.inputResponses.step2).color)}.`);
        if (answered(ctx, 'step1')) {
          return new InputRequired(
            { step2: elicit('Step 2: What is your favorite color?', 'color') },
            { name: String(content(ctx.inputResponses.step1).name) },
          );
        }
        return new InputRequired(
          { step1: elicit('Step 1: What is your name?', 'name') },
          { round: 1 },
        );
      },
    ),
    tool(
      'test_input_required_result_tampered_state',
      'Keeps integrity-protected state; tampering is refused',
      (_a, ctx) =>
        ctx.state
          ? text('state verified')
          : new InputRequired({ confirm: elicit('Please confirm', 'ok', 'boolean') }, { round: 1 }),
    ),
    tool(
      'test_input_required_result_capabilities',
      'Asks only what the client declared it can answer',
      (_a, ctx) => {
        if (Object.keys(ctx.inputResponses).length) return text('Thanks.');
        const asked: Record<string, InputRequest> = {};
        if (ctx.canAsk('elicitation')) asked.user_name = elicit('What is your name?', 'name');
        if (ctx.canAsk('sampling')) asked.greeting = sample('Generate a greeting', 50);
        if (ctx.canAsk('roots')) asked.client_roots = ROOTS;
        return Object.keys(asked).length
          ? new InputRequired(asked)
          : text('Nothing to ask this client.');
      },
    ),
    tool('test_missing_capability', "Needs the client's sampling capability", (_a, ctx) => {
      ctx.requireCapability('sampling');
      return text('The client can sample.');
    }),
    tool('test_streaming_elicitation', 'Reports progress, then asks for input', async (_a, ctx) => {
      await ctx.progress(1, 2, 'thinking');
      return answered(ctx, 'user_name')
        ? text('done')
        : new InputRequired({ user_name: elicit('What is your name?', 'name') });
    }),
    tool(
      'test_logging_tool',
      'Logs while it runs (only to clients that asked for logs)',
      async (_a, ctx) => {
        await ctx.log('info', 'Tool execution started');
        await ctx.log('info', 'Tool execution completed');
        return text('Logged.');
      },
    ),
    tool('test_trigger_tool_change', 'Announces that the tool list changed', async () => {
      await hooks.listChanged('tools');
      return text('Tool list change announced.');
    }),
    tool('test_trigger_prompt_change', 'Announces that the prompt list changed', async () => {
      await hooks.listChanged('prompts');
      return text('Prompt list change announced.');
    }),
    tool(
      'test_custom_header',
      'Mirrors its region argument into the Mcp-Param-Region header',
      (args) => text(`Region: ${String(args.region)}`),
      {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'A region', 'x-mcp-header': 'Region' },
          query: { type: 'string' },
        },
        required: ['region'],
      },
    ),
  ];
}

export const modernFixturePrompt: PromptDef = {
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks the user for context first (input_required)',
  render: (_args, ctx) =>
    ctx.inputResponses.user_context
      ? {
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Context: ${String(content(ctx.inputResponses.user_context).context)}`,
              },
            },
          ],
        }
      : new InputRequired({
          user_context: elicit('What context should the prompt use?', 'context'),
        }),
};
