// mail.retry: a community's administrator sends a failed or pending mail of its queue again now,
// under the same Message-ID.
import { z } from 'zod';
import { requireCommunityAdmin } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import type { UseCase } from '../writes/use-case.ts';

const contract = z.object({ id: z.string() });

export const mailRetry: UseCase<z.output<typeof contract>, void, string> = {
  name: 'mail.retry',
  contract,
  guard: ({ store, actor, community }) =>
    requireCommunityAdmin(store, actor, community, 'send a mail again'),
  load: async ({ store, community }, { id }) => {
    const mail = await store.mail.get(id);
    if (!mail || mail.communityId !== community.id) throw unsent(id, community.slug);
  },
  policy: async () => ({ mode: 'apply', reason: 'administrator' }),
  apply: async ({ tx, community }, { id }) => {
    if (!(await tx.mail.retry(id))) throw unsent(id, community.slug);
    return id;
  },
  audit: (id) => ({ targets: { mail_id: id } }),
};

function unsent(id: string, slug: string): DomainError {
  return new DomainError(
    'not_found',
    `No unsent mail "${id}" in "${slug}"'s queue. List the queue to find its id.`,
  );
}
