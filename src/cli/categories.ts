// `hamlet category list|create|edit|move|delete`: a community's categories from the command line, as
// the operator (the same writes as the REST API and the admin pages: src/domain/categories.ts).
// Deleting one that holds topics needs --move-to, the category they go to.
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { communityOf, required } from './identity.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { systemActor } from '../domain/actor.ts';
import type { CategoryView } from '../domain/views.ts';
import type { Services } from '../services.ts';
import type { Community } from '../store/types.ts';

const operator = systemActor('cli');

const LIST = 'hamlet category list --community <slug>';
const FIELDS =
  '[--slug <slug>] [--description <text>] [--kind discussion|knowledge_base] [--approval community|auto|approval]';
const CREATE = `hamlet category create --community <slug> --name <name> ${FIELDS} [--position <n>]`;
const EDIT = `hamlet category edit <category> --community <slug> [--name <name>] ${FIELDS}`;
const MOVE = 'hamlet category move <category> --community <slug> --position <n>';
const DELETE = 'hamlet category delete <category> --community <slug> [--move-to <category>]';

const fieldOptions = {
  community: { type: 'string' },
  name: { type: 'string' },
  slug: { type: 'string' },
  description: { type: 'string' },
  kind: { type: 'string' },
  approval: { type: 'string' },
  position: { type: 'string' },
} as const;

function position(value: string | undefined, usage: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(
      `--position must be a whole number, 1 for the first place.\nUsage: ${usage}`,
    );
  return n;
}

function one(positionals: string[], usage: string): string {
  if (positionals.length !== 1)
    throw new UsageError(`Name one category (its slug or id).\nUsage: ${usage}`);
  return positionals[0]!;
}

/** The community's categories in their order, one line each. */
async function printList(services: Services, community: Community): Promise<void> {
  const all = await services.content.listCategories(operator, community);
  if (all.length === 0) {
    console.log(`No categories in "${community.slug}". Add one with \`hamlet category create\`.`);
    return;
  }
  for (const c of all)
    console.log(
      `${String(c.position).padStart(3)}  ${c.slug.padEnd(24)}  ${c.kind.padEnd(14)}  approval ${(c.approvalPolicy ?? 'community').padEnd(9)}  ${String(c.topicCount).padStart(5)} topics  ${c.name}`,
    );
}

const said = (c: CategoryView) => `"${c.slug}" (${c.kind}, position ${c.position})`;

export const categoryCommands: Command[] = [
  {
    name: 'category list',
    summary: 'list the categories of a community in their order: --community …',
    usage: LIST,
    async run(args) {
      const { values } = parseCommandArgs(args, { community: { type: 'string' } }, LIST);
      await withHamlet(async (_store, _config, services) =>
        printList(services, await communityOf(services, values.community, LIST)),
      );
    },
  },
  {
    name: 'category create',
    summary: 'add a category: --community … --name … [--kind …] [--approval …] [--position n]',
    usage: CREATE,
    async run(args) {
      const { values } = parseCommandArgs(args, fieldOptions, CREATE);
      required(values, ['community', 'name'], CREATE);
      const at = position(values.position, CREATE);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, CREATE);
        const created = await services.categories.create(operator, community, {
          name: values.name,
          slug: values.slug,
          description: values.description,
          kind: values.kind,
          approval_policy: values.approval,
          position: at,
        });
        console.log(`Created category ${said(created)} in "${community.slug}".`);
      });
    },
  },
  {
    name: 'category edit',
    summary: 'change a category: <category> --community … [--name …] [--slug …] [--approval …]',
    usage: EDIT,
    async run(args) {
      const { values, positionals } = parseCommandArgs(args, fieldOptions, EDIT);
      const category = one(positionals, EDIT);
      const at = position(values.position, EDIT);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, EDIT);
        const updated = await services.categories.update(operator, community, {
          category,
          name: values.name,
          slug: values.slug,
          description: values.description,
          kind: values.kind,
          approval_policy: values.approval,
          position: at,
        });
        console.log(`Updated category ${said(updated)}.`);
      });
    },
  },
  {
    name: 'category move',
    summary: 'put a category at another place in the order: <category> --community … --position n',
    usage: MOVE,
    async run(args) {
      const { values, positionals } = parseCommandArgs(
        args,
        { community: { type: 'string' }, position: { type: 'string' } },
        MOVE,
      );
      const category = one(positionals, MOVE);
      required(values, ['position'], MOVE);
      const at = position(values.position, MOVE);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, MOVE);
        await services.categories.update(operator, community, { category, position: at });
        await printList(services, community);
      });
    },
  },
  {
    name: 'category delete',
    summary: 'delete a category; one that holds topics needs --move-to <category>',
    usage: DELETE,
    async run(args) {
      const { values, positionals } = parseCommandArgs(
        args,
        { community: { type: 'string' }, 'move-to': { type: 'string' } },
        DELETE,
      );
      const category = one(positionals, DELETE);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, DELETE);
        const done = await services.categories.delete(operator, community, {
          category,
          move_to: values['move-to'],
        });
        console.log(
          done.movedTo
            ? `Deleted category "${done.deleted.slug}"; its ${done.moved === 1 ? '1 topic is' : `${done.moved} topics are`} now in "${done.movedTo.slug}".`
            : `Deleted category "${done.deleted.slug}" (it held no topics).`,
        );
      });
    },
  },
];
