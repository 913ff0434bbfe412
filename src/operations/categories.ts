// A community's categories as its administrators manage them (REST, the admin pages; MCP lists them
// with list_categories but does not change them): create, change (including the place in the order)
// and delete, naming where the topics of a non-empty category go.
import { z } from 'zod';
import {
  CATEGORY_APPROVALS,
  CATEGORY_KINDS,
  categoryFields as f,
} from '../domain/writes/category-fields.ts';
import { defineOperation, type OperationContext } from './operation.ts';
import { presentListedCategory } from './present.ts';
import { categoryOut } from './schemas.ts';
import type { Community } from '../store/types.ts';

const common = { server: 'community', credential: 'community', write: true } as const;

const fields = {
  name: f.name.describe('What people see (1-100 characters).'),
  slug: f.slug.describe('Its address, /categories/<slug>: 1-80 characters of a-z, 0-9 and "-".'),
  description: f.description.describe('What belongs in it, up to 2000 characters.'),
  kind: f.kind.describe(
    `${CATEGORY_KINDS.join(' or ')}: questions and answers, or articles (a knowledge base).`,
  ),
  approval_policy: f.approvalPolicy.describe(
    `${CATEGORY_APPROVALS.join(', ')}: new topics in it follow the community's approval policy, publish at once, or wait for a moderator.`,
  ),
  position: f.position.describe('Its place in the order (1: first); the others move down.'),
};
const categoryRef = f.ref.describe('The category, by slug or id.');

/** The category as list_categories shows it now (with its topic count). */
async function listed(ctx: OperationContext<Community>, id: string) {
  const all = await ctx.services.content.listCategories(ctx.actor, ctx.community);
  return presentListedCategory(all.find((c) => c.id === id)!);
}

export const createCategory = defineOperation({
  ...common,
  name: 'create_category',
  title: 'Create a category',
  description:
    'Adds a category (last in the order unless a position is given). Administrators only.',
  input: z.strictObject({
    name: fields.name,
    slug: fields.slug.optional().describe('Its address; default: made from the name.'),
    description: fields.description.default(''),
    kind: fields.kind.default('discussion'),
    approval_policy: fields.approval_policy.default('community'),
    position: fields.position.optional(),
  }),
  output: categoryOut,
  run: async (ctx, input) => {
    const created = await ctx.services.categories.create(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return listed(ctx, created.id);
  },
});

export const updateCategory = defineOperation({
  ...common,
  name: 'update_category',
  title: 'Change a category',
  description:
    'Changes its name, slug, description, approval policy, place in the order, or kind (only while it holds no topic). Administrators only.',
  input: z.strictObject({
    category: categoryRef,
    name: fields.name.optional(),
    slug: fields.slug.optional(),
    description: fields.description.optional(),
    kind: fields.kind.optional(),
    approval_policy: fields.approval_policy.optional(),
    position: fields.position.optional(),
  }),
  output: categoryOut,
  run: async (ctx, input) => {
    const updated = await ctx.services.categories.update(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return listed(ctx, updated.id);
  },
});

export const deleteCategory = defineOperation({
  ...common,
  name: 'delete_category',
  title: 'Delete a category',
  description:
    'Deletes a category. One that holds topics needs move_to: the category of the same kind they move to, in the same step. Administrators only.',
  input: z.strictObject({
    category: categoryRef,
    move_to: f.ref
      .optional()
      .describe('Where its topics go (a slug or id): required when it holds any.'),
  }),
  output: z.object({
    deleted: z.string().describe('The slug of the deleted category.'),
    moved_to: z.string().nullable().describe('Where its topics went (null: it held none).'),
    moved_topics: z.number().int(),
  }),
  run: async (ctx, input) => {
    const done = await ctx.services.categories.delete(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return {
      deleted: done.deleted.slug,
      moved_to: done.movedTo?.slug ?? null,
      moved_topics: done.moved,
    };
  },
});

export const CATEGORY_OPERATIONS = [createCategory, updateCategory, deleteCategory];
