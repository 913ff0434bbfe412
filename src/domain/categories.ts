// A community's categories as its administrators manage them: create, change (name, slug,
// description, kind, approval policy, place in the order) and delete (naming where its topics go).
// Each is one write of ./writes/ run by the administrators' runner (./writes/admin-write.ts);
// reading them is the content service's list_categories.
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import type { AuditService } from './identity/audit.ts';
import { runAdminWrite, type AdminWriteOptions } from './writes/admin-write.ts';
import { categoryCreate } from './writes/category-create.ts';
import { categoryDelete, type CategoryDeleted } from './writes/category-delete.ts';
import { categoryUpdate } from './writes/category-update.ts';
import type { CategoryView } from './views.ts';

export type { CategoryDeleted } from './writes/category-delete.ts';

export class CategoryService {
  constructor(
    private readonly store: Store,
    private readonly audit: AuditService,
  ) {}

  private get deps() {
    return { store: this.store, audit: this.audit };
  }

  async create(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: AdminWriteOptions,
  ): Promise<CategoryView> {
    return runAdminWrite(this.deps, categoryCreate, actor, community, input, options);
  }

  async update(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: AdminWriteOptions,
  ): Promise<CategoryView> {
    return runAdminWrite(this.deps, categoryUpdate, actor, community, input, options);
  }

  async delete(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: AdminWriteOptions,
  ): Promise<CategoryDeleted> {
    return runAdminWrite(this.deps, categoryDelete, actor, community, input, options);
  }
}
