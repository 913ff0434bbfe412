// Communities: create (the operator; or a signed-in person where the operator allows it, who becomes
// its owner), change its settings (administrators), find by slug, list the public ones.
import { z } from 'zod';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { canRead, communityNotFound, requireCommunityAdmin } from './authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from './cursor.ts';
import { addStarterCategory, STARTER_GUIDELINES } from './community-defaults.ts';
import { DomainError } from './errors.ts';
import { communitySlug, cursor as cursorField, pageLimit } from './fields.ts';
import { RESERVED_COMMUNITY_SLUGS } from './slug.ts';
import { subjectWords } from './subject-words.ts';
import { parse, translateStoreError } from './validate.ts';
import { communityView, type CommunityView } from './views.ts';

export const communitySlugSchema = communitySlug.refine(
  (s) => !RESERVED_COMMUNITY_SLUGS.has(s),
  'is reserved; choose another slug',
);

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
    .regex(
      /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/,
      'must be a host name such as "forum.example.org"',
    )
    .nullable()
    .default(null),
});

export type CreateCommunityInput = z.input<typeof createSchema>;

/** What administrators may change of their community (the slug and custom domain stay the operator's). */
const settingsSchema = createSchema
  .pick({ name: true, description: true, guidelines: true, visibility: true })
  .partial();
export type CommunitySettings = z.input<typeof settingsSchema>;

export type CommunityPolicy = {
  /** Whether a signed-in person may create a community of their own (HAMLET_COMMUNITY_CREATION). */
  communityCreation: boolean;
};

export class CommunityService {
  /** Told the id of a community whose settings changed (caches of host answers drop theirs). */
  readonly onChange = new Set<(communityId: string) => void>();

  constructor(
    private readonly store: Store,
    private readonly policy: CommunityPolicy = { communityCreation: false },
  ) {}

  /** Whether signed-in people may create communities here. */
  get createAllowed(): boolean {
    return this.policy.communityCreation;
  }

  /**
   * A signed-in person creates a community, where the operator allows it: they become its owner,
   * and it starts with the starter category and guidelines so that questions can be asked at once.
   */
  async createOwned(
    actor: Actor,
    input: Omit<CreateCommunityInput, 'customDomain'>,
  ): Promise<CommunityView> {
    if (actor.kind !== 'person')
      throw new DomainError('unauthorized', 'Sign in to create a community.');
    if (!this.policy.communityCreation) {
      throw new DomainError(
        'forbidden',
        'On this Hamlet, communities are created by the operator (hamlet community create). Ask them for one.',
      );
    }
    const data = parse(createSchema, {
      ...input,
      guidelines: input.guidelines || STARTER_GUIDELINES,
      customDomain: null,
    });
    try {
      const created = await this.store.transaction(async (tx) => {
        const community = await tx.communities.create(data);
        await tx.community(community.id).access.members.set(actor.personId, 'owner');
        await addStarterCategory(tx, community);
        return community;
      });
      return communityView(created);
    } catch (err) {
      translateStoreError(
        err,
        `A community with slug "${data.slug}" already exists. Choose another.`,
        '',
      );
    }
  }

  /** The settings as the administrators' form shows them. */
  async settings(actor: Actor, community: Community): Promise<CommunityView> {
    await requireCommunityAdmin(this.store, actor, community, 'read the community settings');
    return communityView(community);
  }

  /** Name, description, guidelines and visibility: administrators of the community. */
  async updateSettings(
    actor: Actor,
    community: Community,
    input: CommunitySettings,
  ): Promise<CommunityView> {
    await requireCommunityAdmin(this.store, actor, community, 'change the community settings');
    const data = parse(settingsSchema, input);
    const updated = await this.store.communities.update(community.id, data);
    if (!updated) throw communityNotFound(community.slug);
    for (const listener of this.onChange) listener(updated.id);
    return communityView(updated);
  }

  /**
   * The operator creates a community. With `starter` (the CLI's `hamlet community create`) it starts
   * as a person's does: the "general" category, and the starter guidelines unless others are given.
   */
  async create(
    actor: Actor,
    input: CreateCommunityInput,
    options: { starter?: boolean } = {},
  ): Promise<CommunityView> {
    if (actor.kind !== 'system') {
      throw new DomainError(
        'forbidden',
        'Communities are created by the operator (hamlet community create).',
      );
    }
    const data = parse(
      createSchema,
      options.starter ? { ...input, guidelines: input.guidelines || STARTER_GUIDELINES } : input,
    );
    try {
      if (!options.starter) return communityView(await this.store.communities.create(data));
      return communityView(
        await this.store.transaction(async (tx) => {
          const community = await tx.communities.create(data);
          await addStarterCategory(tx, community);
          return community;
        }),
      );
    } catch (err) {
      translateStoreError(
        err,
        `A community with slug "${data.slug}" (or that custom domain) already exists. Choose another.`,
        '',
      );
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

  async listPublic(
    input: { cursor?: string | null; limit?: number } = {},
  ): Promise<{ communities: CommunityView[]; nextCursor: string | null }> {
    const { cursor, limit } = parse(
      z.object({ cursor: cursorField.nullish(), limit: pageLimit(100, 50) }),
      input,
    );
    const page = await this.store.communities.listPublic({
      after: decodeCursor('communities', cursor, CURSOR_SHAPES.byText),
      limit,
    });
    return {
      communities: page.items.map(communityView),
      nextCursor: page.next ? encodeCursor('communities', page.next) : null,
    };
  }

  /** The communities the person holds a role in, public and private alike, by name. */
  async listMine(actor: Actor): Promise<{ community: CommunityView; role: string }[]> {
    if (actor.kind !== 'person') return [];
    const memberships = await this.store.identity.credentials.membershipsOf(actor.personId);
    const mine = await Promise.all(
      memberships.map(async (m) => {
        const community = await this.store.communities.getById(m.communityId);
        return community ? { community: communityView(community), role: m.role } : undefined;
      }),
    );
    return mine
      .filter((m) => m !== undefined)
      .sort((a, b) => a.community.name.localeCompare(b.community.name));
  }

  /** The public community of this slug, if there is one (the network reads nothing else). */
  async publicBySlug(slug: string): Promise<Community | undefined> {
    const c = await this.store.communities.getBySlug(slug.toLowerCase());
    return c?.visibility === 'public' ? c : undefined;
  }

  /** The public communities among these slugs (one statement), in no particular order. */
  async publicBySlugs(slugs: string[]): Promise<Community[]> {
    const found = await this.store.communities.getBySlugs(slugs.map((s) => s.toLowerCase()));
    return found.filter((c) => c.visibility === 'public');
  }

  /**
   * The public communities whose slug, name or description hold the words of `subject` (stemmed;
   * stop words and one-letter words left out), best first, at most `limit` (1-100). `score` is the
   * share of the subject's words the community holds (0-1], `matched` how many; within one score
   * the engine's weight orders them (slug and name above the description), then the slug. Reads
   * only the communities that match; a community made private is never among them from then on.
   */
  async matchPublic(
    subject: string,
    limit: number,
  ): Promise<Array<{ community: Community; score: number; matched: number }>> {
    const data = parse(
      z.object({ subject: z.string().max(2000), limit: z.number().int().min(1).max(100) }),
      { subject, limit },
    );
    const words = subjectWords(data.subject);
    const found = await this.store.communities.matchPublic(words, data.limit);
    return found.map(({ community, matched }) => ({
      community,
      matched,
      score: Math.min(1, matched / words.length),
    }));
  }
}
