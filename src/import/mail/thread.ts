// Threading: messages that reference each other (In-Reply-To / References) form one conversation;
// a reply whose parent is not in the input joins the most recent thread with the same cleaned
// subject ("Re: [list] Foo" → "foo") if that thread was active within SUBJECT_WINDOW. Deterministic
// for a given input (sorted by date, then key), which is what makes resumed imports come out the
// same as clean ones.
import type { MailMessage } from './message.ts';
import { isReplySubject, subjectKey } from './clean.ts';

export type Thread = {
  /** Messages in date order; the first becomes the topic's question. */
  messages: MailMessage[];
  /** Parent Message-IDs referenced by the thread but not present in the input. */
  externalParents: string[];
};

const SUBJECT_WINDOW_MS = 30 * 86_400_000;

function time(m: MailMessage): number {
  return m.date ? Date.parse(m.date) : 0;
}

export function compareMessages(a: MailMessage, b: MailMessage): number {
  return time(a) - time(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export function threadMessages(input: MailMessage[]): Thread[] {
  const messages = [...input].sort(compareMessages);
  const index = new Map<string, number>();
  messages.forEach((m, i) => {
    if (m.messageId && !index.has(m.messageId)) index.set(m.messageId, i);
  });

  // Union-find over reference links.
  const parent = messages.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb); // the earlier message stays root
  };
  messages.forEach((m, i) => {
    for (const ref of m.parents) {
      const j = index.get(ref);
      if (j !== undefined && j !== i) union(i, j);
    }
  });

  const groups = new Map<number, number[]>();
  messages.forEach((_, i) => {
    const root = find(i);
    const list = groups.get(root) ?? [];
    list.push(i);
    groups.set(root, list);
  });

  // Subject fallback, in order of each group's first message.
  type Group = { members: number[]; last: number };
  const ordered: Group[] = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, members]) => ({ members, last: Math.max(...members.map((i) => time(messages[i]!))) }));
  const bySubject = new Map<string, Group>();
  const result: Group[] = [];
  for (const group of ordered) {
    const first = messages[group.members[0]!]!;
    const key = subjectKey(first.subject);
    const replyLike = isReplySubject(first.subject) || first.parents.length > 0;
    const candidate = key.length >= 3 ? bySubject.get(key) : undefined;
    if (replyLike && candidate && time(first) - candidate.last <= SUBJECT_WINDOW_MS) {
      candidate.members.push(...group.members);
      candidate.last = Math.max(candidate.last, group.last);
      continue;
    }
    result.push(group);
    if (key.length >= 3) bySubject.set(key, group);
  }

  return result.map((group) => {
    const members = group.members.sort((a, b) => a - b).map((i) => messages[i]!);
    const inside = new Set(
      members.map((m) => m.messageId).filter((id): id is string => id !== null),
    );
    const external = [
      ...new Set(members.flatMap((m) => m.parents).filter((p) => !inside.has(p) && !index.has(p))),
    ];
    return { messages: members, externalParents: external };
  });
}
