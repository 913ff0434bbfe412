// category.create: a new category (discussion or knowledge base) with its name, slug (from the name
// when none is given), description, place in the order (default: last) and approval policy.
import { z } from 'zod';
import { slugify } from '../slug.ts';
import { translateStoreError } from '../validate.ts';
import { categoryView, type CategoryView } from '../views.ts';
import { byAdministrator } from './admin-write.ts';
import { categoryFields as f, placeAt, storedApproval } from './category-fields.ts';
import type { UseCase } from './use-case.ts';

const contract = z.object({
  name: f.name,
  slug: f.slug.optional(),
  description: f.description.default(''),
  kind: f.kind.default('discussion'),
  approval_policy: f.approvalPolicy.default('community'),
  position: f.position.optional(),
});

export const categoryCreate: UseCase<z.output<typeof contract>, string, CategoryView> = {
  name: 'category.create',
  contract,
  ...byAdministrator('create categories'),
  // The slug given, or one made from the name (always a valid path slug).
  load: async (_ctx, input) => input.slug ?? slugify(input.name, 'category'),
  apply: async ({ tx, community }, input, slug) => {
    const scope = tx.community(community.id);
    let created;
    try {
      created = await scope.categories.create({
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
    if (input.position === undefined) return categoryView(created);
    await placeAt(tx, community, created, input.position);
    return categoryView((await scope.categories.getById(created.id)) ?? created);
  },
  audit: (category) => ({ targets: { category_id: category.id } }),
};
