// category.update: changes a category's name, slug, description, approval policy, kind (only while
// it holds no topic: a topic is a question or an article by its category) or place in the order.
// Topics keep pointing at it by id, so their links and the search index stay right.
import { z } from 'zod';
import type { Category } from '../../store/types.ts';
import { findCategory } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { translateStoreError } from '../validate.ts';
import { categoryView, type CategoryView } from '../views.ts';
import { byAdministrator } from './admin-write.ts';
import { categoryFields as f, placeAt, storedApproval } from './category-fields.ts';
import type { UseCase } from './use-case.ts';

const contract = z.object({
  category: f.ref,
  name: f.name.optional(),
  slug: f.slug.optional(),
  description: f.description.optional(),
  kind: f.kind.optional(),
  approval_policy: f.approvalPolicy.optional(),
  position: f.position.optional(),
});

export const categoryUpdate: UseCase<z.output<typeof contract>, Category, CategoryView> = {
  name: 'category.update',
  contract,
  ...byAdministrator('change categories'),
  load: ({ store, community }, input) =>
    findCategory(store.community(community.id), community, input.category),
  apply: async ({ tx, community }, input, category) => {
    const scope = tx.community(community.id);
    if (input.kind !== undefined && input.kind !== category.kind) {
      // Counted in the transaction: a topic posted meanwhile keeps the kind as it is.
      const held = await scope.categories.topicCount(category.id);
      if (held > 0)
        throw new DomainError(
          'conflict',
          `Category "${category.slug}" holds ${held} topic${held === 1 ? '' : 's'}: its kind changes only while it is empty. Create a ${input.kind} category and move them there (delete this one with move_to) instead.`,
        );
    }
    try {
      await scope.categories.update(category.id, {
        name: input.name,
        slug: input.slug,
        description: input.description,
        kind: input.kind,
        approvalPolicy:
          input.approval_policy === undefined ? undefined : storedApproval(input.approval_policy),
      });
    } catch (err) {
      translateStoreError(
        err,
        `A category with slug "${input.slug}" already exists in "${community.slug}". Choose another slug.`,
        '',
      );
    }
    if (input.position !== undefined) await placeAt(tx, community, category, input.position);
    return categoryView((await scope.categories.getById(category.id)) ?? category);
  },
  audit: (category) => ({ targets: { category_id: category.id } }),
};
