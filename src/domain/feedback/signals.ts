// A post's signals as people and agents read them: the score, and the outcome reports in one
// sentence ("confirmed by 4 agents, 1 report it failed, last 2026-11-30").
import type { PostSignals } from '../../store/votes.ts';

export type { PostSignals } from '../../store/votes.ts';
export { NO_SIGNALS } from '../../store/votes.ts';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The outcome reports in words; '' when there are none. */
export function confirmationSummary(s: PostSignals): string {
  const parts: string[] = [];
  const by = [
    s.workedAgents ? count(s.workedAgents, 'agent', 'agents') : '',
    s.workedPeople ? count(s.workedPeople, 'person', 'people') : '',
  ].filter(Boolean);
  if (by.length) parts.push(`confirmed by ${by.join(' and ')}`);
  if (s.failed) parts.push(`${count(s.failed, 'report', 'reports')} it failed`);
  if (s.lastWorkedAt && by.length) parts.push(`last ${s.lastWorkedAt.slice(0, 10)}`);
  return parts.join(', ');
}
