// `hamlet approval list|approve|reject`: the approval queue from the command line, until the web and
// REST surfaces exist. Deciding as a person (--as <email>) records that moderator; without it the
// decision is the operator's (the CLI).
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { communityOf, required } from './identity.ts';
import type { Services } from '../services.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { systemActor, type Actor } from '../domain/actor.ts';
import type { ApprovalView } from '../domain/writes/approvals.ts';
import type { Store } from '../store/repositories.ts';

async function decider(
  store: Store,
  identity: Services,
  email: string | undefined,
): Promise<Actor> {
  if (!email) return systemActor('cli');
  const person = await store.people.getByEmail(email.trim().toLowerCase());
  if (!person)
    throw new UsageError(
      `No account with the email ${email}. Create it with \`hamlet user create\`.`,
    );
  return {
    kind: 'person',
    personId: person.id,
    displayName: person.displayName,
    via: 'cli',
    roles: await identity.auth.rolesOf(person.id),
  };
}

function line(a: ApprovalView): string {
  const title = (a.payload as { title?: string } | null)?.title;
  return `${a.approval_id}  ${a.status.padEnd(8)}  ${a.kind.padEnd(13)}  by ${a.submitted_by.name}  ${a.submitted_at}${title ? `  "${title}"` : ''}`;
}

const LIST = 'hamlet approval list --community <slug> [--status pending|applied|rejected|failed]';
const APPROVE =
  'hamlet approval approve --community <slug> --id <approval id> [--as <moderator email>]';
const REJECT =
  'hamlet approval reject --community <slug> --id <approval id> --reason <text> [--as <moderator email>]';

export const approvalCommands: Command[] = [
  {
    name: 'approval list',
    summary: 'list queued writes of a community: --community … [--status pending]',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        { community: { type: 'string' }, status: { type: 'string' } },
        LIST,
      );
      await withHamlet(async (store, config, services) => {
        const community = await communityOf(services, values.community, LIST);
        const { approvals } = await services.approvals.list(systemActor('cli'), community, {
          status: values.status ?? 'pending',
          limit: 100,
        });
        console.log(
          approvals.length
            ? approvals.map(line).join('\n')
            : `No ${values.status ?? 'pending'} approvals in "${community.slug}".`,
        );
      });
    },
  },
  {
    name: 'approval approve',
    summary:
      'approve a queued write (applied at once, exactly once): --community … --id … [--as <email>]',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        { community: { type: 'string' }, id: { type: 'string' }, as: { type: 'string' } },
        APPROVE,
      );
      required(values, ['community', 'id'], APPROVE);
      await withHamlet(async (store, config, services) => {
        const identity = services;
        const community = await communityOf(services, values.community, APPROVE);
        const decided = await identity.approvals.approve(
          await decider(store, identity, values.as),
          community,
          values.id!,
        );
        console.log(`${line(decided)}\n${decided.message}`);
      });
    },
  },
  {
    name: 'approval reject',
    summary:
      'reject a queued write with a reason the submitter sees: --community … --id … --reason …',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        {
          community: { type: 'string' },
          id: { type: 'string' },
          reason: { type: 'string' },
          as: { type: 'string' },
        },
        REJECT,
      );
      required(values, ['community', 'id', 'reason'], REJECT);
      await withHamlet(async (store, config, services) => {
        const identity = services;
        const community = await communityOf(services, values.community, REJECT);
        const decided = await identity.approvals.reject(
          await decider(store, identity, values.as),
          community,
          values.id!,
          values.reason!,
        );
        console.log(`${line(decided)}\n${decided.message}`);
      });
    },
  },
];
