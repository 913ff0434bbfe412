// Before a new question is posted: does a solved topic already answer it? When one matches closely,
// a caller that can answer questions is asked "post anyway?" (and the operation stops until it
// answers); a caller that cannot is never held up: the question is posted and the close matches
// come back with the result. A caller that answered "no" gets them back and nothing is posted.
import type { z } from 'zod';
import type { Community } from '../store/types.ts';
import type { OperationContext } from './operation.ts';
import { QuestionsAsked, type Question } from './interaction.ts';
import type { similarSolved as similarSolvedSchema, writeOutput } from './schemas.ts';

export type SimilarSolved = z.infer<typeof similarSolvedSchema>;

/** The key of the question, in the caller's answers. */
export const POST_ANYWAY = 'post_anyway';

/** A solved topic this close (suggest_answer's confidence) is worth a look before asking again. */
const CLOSE_MATCH = 0.5;

/** Solved topics that closely match a new question (title and body), best first, at most three. */
async function closeMatches(
  ctx: OperationContext,
  community: Community,
  title: string,
  body: string,
): Promise<SimilarSolved[]> {
  const suggested = await ctx.services.search.closeSolved(
    community,
    `${title}\n${body}`.slice(0, 2000),
    3,
  );
  if (suggested.confidence < CLOSE_MATCH) return [];
  return suggested.answers
    .filter((a) => a.accepted)
    .map((a) => ({
      topic_id: a.topic_id,
      title: a.title,
      url: a.url,
      confidence: suggested.confidence,
    }));
}

/**
 * What to do before posting: `post` (with the close matches to show alongside, possibly none), or
 * `keep` when the caller answered that an existing answer fits. Throws QuestionsAsked when the
 * caller should be asked first.
 */
export async function beforePosting(
  ctx: OperationContext,
  community: Community,
  question: { title: string; body: string },
): Promise<{ post: boolean; similar: SimilarSolved[] }> {
  const answer = ctx.interaction?.answer(POST_ANYWAY);
  if (answer?.action === 'accept' && answer.content.post_anyway === true)
    return { post: true, similar: [] };
  await ctx.report.progress(
    1,
    3,
    'Looking for solved topics that may already answer this question',
  );
  const similar = await closeMatches(ctx, community, question.title, question.body);
  await ctx.report.note(
    'info',
    similar.length
      ? `${similar.length} solved topic(s) closely match this question.`
      : 'No solved topic closely matches this question.',
  );
  if (answer) return { post: false, similar };
  if (similar.length && ctx.interaction?.canAsk) throw new QuestionsAsked([postAnyway(similar)]);
  return { post: true, similar };
}

function postAnyway(similar: SimilarSolved[]): Question {
  const list = similar.map((s, i) => `${i + 1}. ${s.title} (${s.url})`).join('\n');
  return {
    key: POST_ANYWAY,
    message: `One of these solved topics may already answer it:\n${list}\nPost the question anyway?`,
    fields: {
      post_anyway: {
        type: 'boolean',
        title: 'Post anyway',
        description: 'Yes: post the question. No: keep it unposted, an existing answer fits.',
        default: false,
      },
    },
    required: ['post_anyway'],
  };
}

/** The result when the caller chose an existing answer: nothing was posted. */
export function notPosted(similar: SimilarSolved[]): z.input<typeof writeOutput> {
  return {
    status: 'not_posted',
    message: 'Not posted: you chose an existing answer. Read it with get_topic.',
    similar_solved: similar,
  };
}
