// category.delete: removes a category. One that holds topics needs `move_to`, another category of
// the same kind where they go; the move and the delete are one transaction (the search index's
// filter facts follow each moved topic through the topics' update triggers).
import { z } from 'zod';
import type { Category } from '../../store/types.ts';
import { findCategory } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { byAdministrator } from './admin-write.ts';
import { categoryFields as f } from './category-fields.ts';
import type { UseCase } from './use-case.ts';

const contract = z.object({ category: f.ref, move_to: f.ref.optional() });

type Loaded = { category: Category; target?: Category };
export type CategoryDeleted = { deleted: Category; movedTo: Category | null; moved: number };

export const categoryDelete: UseCase<z.output<typeof contract>, Loaded, CategoryDeleted> = {
  name: 'category.delete',
  contract,
  ...byAdministrator('delete categories'),
  load: async ({ store, community }, input) => {
    const scope = store.community(community.id);
    const category = await findCategory(scope, community, input.category);
    const target =
      input.move_to === undefined ? undefined : await findCategory(scope, community, input.move_to);
    return { category, target };
  },
  apply: async ({ tx, community }, _input, { category, target }) => {
    const scope = tx.community(community.id);
    if (target?.id === category.id)
      throw new DomainError(
        'invalid_argument',
        `move_to names the category being deleted ("${category.slug}"): name another category.`,
      );
    // Counted in the transaction: a topic posted meanwhile is moved (or refuses the delete), never lost.
    const held = await scope.categories.topicCount(category.id);
    if (held > 0 && !target)
      throw new DomainError(
        'conflict',
        `Category "${category.slug}" holds ${held} topic${held === 1 ? '' : 's'}: say where they go with move_to (another category's slug; list_categories lists them), or delete an empty category.`,
      );
    if (held > 0 && target && target.kind !== category.kind)
      throw new DomainError(
        'invalid_argument',
        `move_to "${target.slug}" is a ${target.kind} category and "${category.slug}" a ${category.kind} one: move its topics into a category of the same kind.`,
      );
    const moved =
      held > 0 && target ? await scope.categories.moveTopics(category.id, target.id) : 0;
    await scope.categories.delete(category.id);
    return { deleted: category, movedTo: held > 0 ? (target ?? null) : null, moved };
  },
  audit: (r) => ({ targets: { category_id: r.deleted.id, moved_to: r.movedTo?.id } }),
};
