// A community's categories as its administrators manage them: create, change (name, slug,
// description, kind, approval policy, place in the order) and delete (naming where its topics go).
// Each is one use case of ./writes/ run by the one write runner; reading them is the content
// service's list_categories.
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { categoryCreate } from './writes/category-create.ts';
import { categoryDelete, type CategoryDeleted } from './writes/category-delete.ts';
import { categoryUpdate } from './writes/category-update.ts';
import type { RunOptions, WriteRunner } from './writes/runner.ts';
import type { CategoryView } from './views.ts';

export type { CategoryDeleted } from './writes/category-delete.ts';

/** Each write's audit entry is `options.audit`, the call's, when given. */
export class CategoryService {
  constructor(private readonly runner: WriteRunner) {}

  async create(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: RunOptions,
  ): Promise<CategoryView> {
    return this.runner.run(categoryCreate, actor, community, input, options);
  }

  async update(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: RunOptions,
  ): Promise<CategoryView> {
    return this.runner.run(categoryUpdate, actor, community, input, options);
  }

  async delete(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: RunOptions,
  ): Promise<CategoryDeleted> {
    return this.runner.run(categoryDelete, actor, community, input, options);
  }
}
