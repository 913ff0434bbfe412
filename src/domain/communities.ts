// Communities: create (the operator; or a signed-in person where the operator allows it, who becomes
// its owner), change its settings (administrators), find by slug, list the public ones. Creating
// and changing are use cases of the one write runner (./community-create.ts,
// ./community-settings-set.ts).
import { z } from 'zod';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { canRead, communityNotFound, requireCommunityAdmin } from './authorization.ts';
import {
  communityCreateByOperator,
  communityCreateOwned,
  type CreateCommunityInput,
} from './community-create.ts';
import { STARTER_GUIDELINES } from './community-defaults.ts';
import { communitySettingsSet, type CommunitySettings } from './community-settings-set.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from './cursor.ts';
import { cursor as cursorField, pageLimit } from './fields.ts';
import { subjectWords } from './subject-words.ts';
import { parse } from './validate.ts';
import { communityView, type CommunityView } from './views.ts';
import { bareRunner } from './writes/bare-runner.ts';
import type { RunOptions, WriteRunner } from './writes/runner.ts';

export { communitySlugSchema, type CreateCommunityInput } from './community-create.ts';
export type { CommunitySettings } from './community-settings-set.ts';

export type CommunityPolicy = {
  /** Whether a signed-in person may create a community of their own (HAMLET_COMMUNITY_CREATION). */
  communityCreation: boolean;
};

export class CommunityService {
  /** Told the id of a community whose settings changed (caches of host answers drop theirs). */
  readonly onChange = new Set<(communityId: string) => void>();
  private readonly runner: WriteRunner;
  private readonly createOwnedWrite: ReturnType<typeof communityCreateOwned>;

  constructor(
    private readonly store: Store,
    private readonly policy: CommunityPolicy = { communityCreation: false },
    /** The one write runner (absent: a service built by hand over a bare store, ./writes/bare-runner.ts). */
    runner?: WriteRunner,
  ) {
    this.runner = runner ?? bareRunner(store);
    this.createOwnedWrite = communityCreateOwned(policy.communityCreation);
  }

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
    options?: RunOptions,
  ): Promise<CommunityView> {
    const payload = {
      ...input,
      guidelines: input.guidelines || STARTER_GUIDELINES,
      customDomain: null,
    };
    const created = await this.runner.run(this.createOwnedWrite, actor, null, payload, options);
    return communityView(created);
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
    options?: RunOptions,
  ): Promise<CommunityView> {
    const updated = await this.runner.run(communitySettingsSet, actor, community, input, options);
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
    options: { starter?: boolean } & RunOptions = {},
  ): Promise<CommunityView> {
    const { starter = false, ...run } = options;
    const payload = {
      ...(starter ? { ...input, guidelines: input.guidelines || STARTER_GUIDELINES } : input),
      starter,
    };
    const created = await this.runner.run(communityCreateByOperator, actor, null, payload, run);
    return communityView(created);
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
