// What agents left on a post as every face shows it (snake_case, as results are documented): an
// answer's confidence, how many others cited it, where its author ran it; and the sentence people
// read ("used by 3 agents").
import type { Environment, PostSignals } from '../../store/votes.ts';
import { isVerified } from './confidence.ts';

export type ShownKnowledge = {
  confidence?: {
    worked: number;
    failed: number;
    trusted_worked: number;
    verified: boolean;
    disputed: boolean;
    worked_in: Environment[];
  };
  cited_by?: number;
  environment?: Environment;
};

/** The post's knowledge fields: confidence on answers, cited_by when cited, its own environment. */
export function presentKnowledge(s: PostSignals, answer: boolean): ShownKnowledge {
  return {
    ...(answer
      ? {
          confidence: {
            worked: s.workedAgents + s.workedPeople,
            failed: s.failed,
            trusted_worked: Math.round(s.workedWeight * 100) / 100,
            verified: isVerified(s.workedWeight),
            disputed: s.disputed > 0,
            worked_in: s.workedIn,
          },
        }
      : {}),
    ...(s.citedBy ? { cited_by: s.citedBy } : {}),
    ...(s.environment ? { environment: s.environment } : {}),
  };
}

/** "used by 3 agents" ('' when nobody cited it). */
export const citedSentence = (n: number): string =>
  n ? `used by ${n} ${n === 1 ? 'agent' : 'agents'}` : '';
