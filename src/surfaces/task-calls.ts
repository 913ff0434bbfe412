// A long-running catalogue operation as task work (MCP Tasks extension): the same pipeline call as
// a plain tools/call, run on after the request has been answered with a task handle. What the
// operation reports becomes the task's status message; questions it asks (elicitations) make the
// task input_required until the client answers them through tasks/update, then the call runs again
// with the answers, as a multi round-trip request would.
import type { InputResponse, RequestContext } from '../mcp/context.ts';
import type { ToolResult } from '../mcp/surface.ts';
import { RunAsTask } from '../mcp/tasks.ts';
import type { AnyOperation } from '../operations/operation.ts';
import type { Community } from '../store/types.ts';
import {
  askedOf,
  callerOf,
  elicitAnswer,
  failureResult,
  type SurfaceDeps,
} from './calls.ts';

/** Work that finishes this soon is answered at once, no task shown. */
const ANSWER_WITHIN_MS = 2_000;
/** Rounds of questions a task may ask before it gives up. */
const MAX_ROUNDS = 3;

export function asTask(
  op: AnyOperation,
  deps: SurfaceDeps,
  community: Community | null,
  ctx: RequestContext,
  args: Record<string, unknown>,
): RunAsTask {
  return new RunAsTask(
    async (task): Promise<ToolResult> => {
      let answers: Record<string, InputResponse> = { ...ctx.inputResponses };
      for (let round = 0; ; round++) {
        const caller = {
          ...callerOf(ctx, community),
          interaction: {
            canAsk: ctx.canAsk('elicitation') && round < MAX_ROUNDS,
            answer: (key: string) => elicitAnswer(answers[key]),
          },
          reporter: {
            progress: async (done: number, total: number, message: string) =>
              task.status(`${message} (${done}/${total})`),
            note: async (_level: string, message: string) => task.status(message),
          },
        };
        const outcome = await deps.pipeline.invoke(op, caller, args);
        if (outcome.ok) return { structuredContent: outcome.value };
        if (outcome.stage !== 'ask') return failureResult(outcome, op.name);
        const asked = askedOf(outcome.questions ?? []);
        answers = { ...answers, ...(await task.ask(asked.requests)) };
      }
    },
    { answerWithinMs: ANSWER_WITHIN_MS },
  );
}
