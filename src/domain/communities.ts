// Communities: create (administrative), find by slug, list the public ones.
import { z } from 'zod';
import type { Store } from '../store/repositories.ts';
import type { Community, Keyset } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { canRead, communityNotFound } from './authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from './cursor.ts';
import { DomainError } from './errors.ts';
import { communitySlug, cursor as cursorField, pageLimit } from './fields.ts';
import { RESERVED_COMMUNITY_SLUGS } from './slug.ts';
import { parse, translateStoreError } from './validate.ts';
import { communityView, type CommunityView } from './views.ts';

export const communitySlugSchema = communitySlug.refine((s) => !RESERVED_COMMUNITY_SLUGS.has(s), 'is reserved; choose another slug');

const createSchema = z.object({
  slug: communitySlugSchema,
  name: z.string().trim().min(1, 'must not be empty').max(100),
  description: z.string().trim().max(2000).default(''),
  guidelines: z.string().trim().max(20_000).default(''),
  visibility: z.enum(['public', 'private']).default('public'),
  customDomain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a host name such as "forum.example.org"')
    .nullable()
    .default(null),
});

export type CreateCommunityInput = z.input<typeof createSchema>;

export class CommunityService {
  constructor(private readonly store: Store) {}

  async create(actor: Actor, input: CreateCommunityInput): Promise<CommunityView> {
    if (actor.kind !== 'system') {
      throw new DomainError('forbidden', 'Communities are created by the operator (hamlet community create).');
    }
    const data = parse(createSchema, input);
    try {
      return communityView(await this.store.communities.create(data));
    } catch (err) {
      translateStoreError(err, `A community with slug "${data.slug}" (or that custom domain) already exists. Choose another.`, '');
    }
  }

  /** The community record (for other services), if the actor may see it. */
  async require(actor: Actor, slug: string): Promise<Community> {
    const community = await this.store.communities.getBySlug(slug.toLowerCase());
    if (!community || !canRead(actor, community)) throw communityNotFound(slug);
    return community;
  }

  async getBySlug(actor: Actor, slug: string): Promise<CommunityView> {
    return communityView(await this.require(actor, slug));
  }

  async listPublic(input: { cursor?: string | null; limit?: number } = {}): Promise<{ communities: CommunityView[]; nextCursor: string | null }> {
    const { cursor, limit } = parse(z.object({ cursor: cursorField.nullish(), limit: pageLimit(100, 50) }), input);
    const page = await this.store.communities.listPublic({ after: decodeCursor('communities', cursor, CURSOR_SHAPES.byText), limit });
    return {
      communities: page.items.map(communityView),
      nextCursor: page.next ? encodeCursor('communities', page.next) : null,
    };
  }

  /** Every public community (the network searches them all), ordered by slug. */
  async listAllPublic(): Promise<Community[]> {
    const all: Community[] = [];
    let after: Keyset | undefined;
    do {
      const page = await this.store.communities.listPublic({ after, limit: 500 });
      all.push(...page.items);
      after = page.next ?? undefined;
    } while (after);
    return all;
  }
}
