// Tools the Tasks extension's conformance scenarios call (their names and behaviours are fixed by
// the suite): a plain tool, work that takes a while (and can be cancelled), work that ends in a tool
// error or a protocol error, work that asks the client once or twice at a time, and a tool that
// asks first (input_required) and only then goes on as a task. Run by the real engine.
import { InputRequired, type InputRequest } from '../../src/mcp/input-required.ts';
import { ErrorCode, RpcError } from '../../src/mcp/jsonrpc.ts';
import type { ToolDef, ToolResult } from '../../src/mcp/surface.ts';
import { RunAsTask } from '../../src/mcp/tasks.ts';
import { ToolError } from '../../src/mcp/tool-failure.ts';

const text = (t: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text: t }],
  isError,
});

/** Waits `ms`, or fails as soon as `signal` aborts. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    if (signal.aborted) return fail(new Error('cancelled'));
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        fail(new Error('cancelled'));
      },
      { once: true },
    );
  });
}

const confirm = (message: string): InputRequest => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message,
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean' }, name: { type: 'string' } },
    },
  },
});

const object = (properties: Record<string, unknown> = {}) => ({ type: 'object', properties });

export const taskFixtureTools: ToolDef[] = [
  {
    name: 'greet',
    description: 'Greets by name, at once',
    inputSchema: object({ name: { type: 'string' } }),
    handler: (a) => text(`Hello, ${String(a.name ?? 'World')}!`),
  },
  {
    name: 'slow_compute',
    description:
      'Works for `seconds` seconds, then answers (as a task where the client can follow one)',
    inputSchema: object({ seconds: { type: 'number' }, label: { type: 'string' } }),
    taskSupport: 'optional',
    handler: (a) =>
      new RunAsTask(async (task) => {
        const seconds = Math.min(Math.max(Number(a.seconds ?? 1), 0), 120);
        task.status(`computing ${String(a.label ?? '')} for ${seconds} s`);
        await pause(seconds * 1000, task.signal);
        return text(`computed ${String(a.label ?? '')} after ${seconds} s`);
      }),
  },
  {
    name: 'failing_job',
    description: 'Works for a second, then reports a tool error (runs only as a task)',
    inputSchema: object(),
    taskSupport: 'required',
    handler: () =>
      new RunAsTask(async (task) => {
        await pause(1000, task.signal);
        throw new ToolError('The job failed, as it always does.');
      }),
  },
  {
    name: 'protocol_error_job',
    description: 'Works briefly, then fails with a JSON-RPC error',
    inputSchema: object(),
    taskSupport: 'optional',
    handler: () =>
      new RunAsTask(async (task) => {
        await pause(300, task.signal);
        throw new RpcError(ErrorCode.InternalError, 'The job broke down.');
      }),
  },
  {
    name: 'confirm_delete',
    description: 'Asks the user to confirm, then "deletes" the file',
    inputSchema: object({ filename: { type: 'string' } }),
    taskSupport: 'optional',
    handler: (a) =>
      new RunAsTask(async (task) => {
        const file = String(a.filename ?? 'file');
        const { confirm: answer } = await task.ask({ confirm: confirm(`Delete ${file}?`) });
        const yes =
          answer?.action === 'accept' &&
          (answer.content as Record<string, unknown> | undefined)?.confirm === true;
        return text(yes ? `Deleted ${file}.` : `Kept ${file}.`);
      }),
  },
  {
    name: 'multi_input',
    description: 'Asks two questions at once, then answers with both',
    inputSchema: object(),
    taskSupport: 'optional',
    handler: () =>
      new RunAsTask(async (task) => {
        const answers = await task.ask({
          first: confirm('First name?'),
          second: confirm('Second name?'),
        });
        const name = (k: string) =>
          String((answers[k]?.content as Record<string, unknown> | undefined)?.name ?? '');
        return text(`Got ${name('first')} and ${name('second')}.`);
      }),
  },
  {
    name: 'test_tool_with_task',
    description: 'Asks for a name (input_required), then greets as a task',
    inputSchema: object(),
    taskSupport: 'required',
    handler: (_a, ctx) => {
      const answer = ctx.inputResponses.user_name;
      if (!answer)
        return new InputRequired({
          user_name: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'What is your name?',
              requestedSchema: object({ name: { type: 'string' } }),
            },
          },
        });
      const name = String((answer.content as Record<string, unknown> | undefined)?.name ?? '');
      return new RunAsTask(async (task) => {
        await pause(200, task.signal);
        return text(`Hello, ${name}!`);
      });
    },
  },
];
