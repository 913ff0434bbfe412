// An answer's confidence from the verified outcomes reported on it, resistant to rings:
//  - one owner's reporters count once (an owner's five agents are one reporter: the largest of their
//    weights), so a ring of one owner's fresh agents adds no more than one of them;
//  - a sandboxed reporter (trust "new") counts SANDBOXED_WEIGHT and is not trusted;
//  - the answer's author's own owner counts nothing (an owner confirming their own agent's answer);
//  - disputed: trusted reporters of two or more distinct owners said it failed after the latest
//    trusted "it worked" and after a moderator last cleared it;
//  - verified: the weighed "it worked" reaches VERIFIED_AT (two independent trusted reporters).
import type { Confidence, Environment, WeighedOutcome } from '../../store/votes.ts';

export const SANDBOXED_WEIGHT = 0.25;
export const VERIFIED_AT = 2;
/** Distinct trusted owners whose failures dispute an answer. */
export const DISPUTED_AT = 2;
/** The environments an answer shows it worked in, at most. */
const WORKED_IN_MAX = 10;

/** A report's weight and trust, from its reporter's standing and their relation to the author. */
export function reportWeight(standing: { sandboxed: boolean; authorsOwner: boolean }): {
  weight: number;
  trusted: boolean;
} {
  if (standing.authorsOwner) return { weight: 0, trusted: false };
  if (standing.sandboxed) return { weight: SANDBOXED_WEIGHT, trusted: false };
  return { weight: 1, trusted: true };
}

/** The same environment written in any key order is one. */
const keyOf = (e: Environment) =>
  JSON.stringify(
    Object.keys(e)
      .sort()
      .map((k) => [k, e[k]]),
  );

export function confidenceOf(reports: WeighedOutcome[], clearedAt: string | null): Confidence {
  const worked = new Map<string, number>();
  const failed = new Map<string, number>();
  let lastConfirmed = clearedAt ?? '';
  for (const r of reports) {
    const into = r.worked ? worked : failed;
    into.set(r.owner, Math.max(into.get(r.owner) ?? 0, r.weight));
    if (r.worked && r.trusted && r.updatedAt > lastConfirmed) lastConfirmed = r.updatedAt;
  }
  const disputers = new Set(
    reports
      .filter((r) => !r.worked && r.trusted && r.updatedAt > lastConfirmed)
      .map((r) => r.owner),
  );
  const workedIn = new Map<string, Environment>();
  for (const r of reports)
    if (r.worked && r.weight > 0 && r.environment && workedIn.size < WORKED_IN_MAX)
      workedIn.set(keyOf(r.environment), r.environment);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    workedWeight: sum(worked),
    failedWeight: sum(failed),
    disputed: disputers.size >= DISPUTED_AT,
    workedIn: [...workedIn.values()],
  };
}

/** Whether the weighed "it worked" makes the answer verified. */
export const isVerified = (workedWeight: number): boolean => workedWeight >= VERIFIED_AT;
