// category.create: a new category (discussion or knowledge base) with its name, slug (from the name
// when none is given), description, place in the order (default: last) and approval policy.
import { z } from 'zod';
import { slugify } from '../slug.ts';
import { translateStoreError } from '../validate.ts';
import { categoryView, type CategoryView } from '../views.ts';
import type { AdminWrite } from './admin-write.ts';
import { categoryFields as f, placeAt, storedApproval } from './category-fields.ts';

const contract = z.object({
  name: f.name,
  slug: f.slug.optional(),
  description: f.description.default(''),
  kind: f.kind.default('discussion'),
  approval_policy: f.approvalPolicy.default('community'),
  position: f.position.optional(),
});

export const categoryCreate: AdminWrite<typeof contract, string, CategoryView> = {
  action: 'category.create',
  what: 'create categories',
  contract,
  // The slug given, or one made from the name (always a valid path slug).
  load: async (_tx, _community, input) => input.slug ?? slugify(input.name, 'category'),
  apply: async (tx, community, input, slug) => {
    let created;
    try {
      created = await tx.community(community.id).categories.create({
        slug,
        name: input.name,
        description: input.description,
        kind: input.kind,
        approvalPolicy: storedApproval(input.approval_policy),
      });
    } catch (err) {
      translateStoreError(
        err,
        `A category with slug "${slug}" already exists in "${community.slug}". Choose another slug.`,
        '',
      );
    }
    if (input.position !== undefined) await placeAt(tx, community, created, input.position);
    const placed = (await tx.community(community.id).categories.getById(created.id)) ?? created;
    return { result: categoryView(placed), targets: { category_id: created.id } };
  },
};
