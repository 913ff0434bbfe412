// A category's fields, one limit each, shared by its writes (category-create.ts, category-update.ts,
// category-delete.ts) and the operations that offer them; and how it is placed in the community's
// order (positions 1, 2, 3, … as list_categories returns them).
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Category, CategoryApproval, Community } from '../../store/types.ts';
import { categoryRef, pathSlug } from '../fields.ts';

export const CATEGORY_KINDS = ['discussion', 'knowledge_base'] as const;
/** "community": the community's policy per write kind; else the category's own for new topics. */
export const CATEGORY_APPROVALS = ['community', 'auto', 'approval'] as const;
export type CategoryApprovalChoice = (typeof CATEGORY_APPROVALS)[number];

export const categoryFields = {
  ref: categoryRef,
  slug: pathSlug,
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  description: z.string().trim().max(2000, 'must be at most 2000 characters'),
  kind: z.enum(CATEGORY_KINDS),
  approvalPolicy: z.enum(CATEGORY_APPROVALS),
  position: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1 (the first place)')
    .max(1000, 'must be at most 1000'),
};

/** The stored form of an approval choice (null: the community's policy). */
export function storedApproval(choice: CategoryApprovalChoice): CategoryApproval {
  return choice === 'community' ? null : choice;
}

/** How a category's stored approval policy is shown. */
export function approvalChoice(stored: CategoryApproval): CategoryApprovalChoice {
  return stored ?? 'community';
}

/** Puts `category` at `position` (1-based, past the end: last) and renumbers the others after it. */
export async function placeAt(
  tx: Store,
  community: Community,
  category: Category,
  position: number,
): Promise<void> {
  const scope = tx.community(community.id);
  const others = (await scope.categories.listWithCounts())
    .map((c) => c.id)
    .filter((id) => id !== category.id);
  others.splice(Math.min(position, others.length + 1) - 1, 0, category.id);
  await scope.categories.setOrder(others);
}
