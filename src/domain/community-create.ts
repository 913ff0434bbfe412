// community.create: a community is made, by a signed-in person where the operator allows it (they
// become its owner) or by the operator. A person's, and the operator's with `starter` (the CLI's
// `hamlet community create`), start with the starter category (and the starter guidelines unless
// others are given; ./community-defaults.ts), so that questions can be asked at once. A slug (and a
// custom domain) is one community's only. Its audit entry belongs to the new community.
import { z } from 'zod';
import { UniqueViolation } from '../store/errors.ts';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import { addStarterCategory } from './community-defaults.ts';
import { DomainError } from './errors.ts';
import { communitySlug } from './fields.ts';
import { RESERVED_COMMUNITY_SLUGS } from './slug.ts';
import type { UseCase } from './writes/use-case.ts';

export const communitySlugSchema = communitySlug.refine(
  (s) => !RESERVED_COMMUNITY_SLUGS.has(s),
  'is reserved; choose another slug',
);

export const communityContract = z.object({
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

export type CreateCommunityInput = z.input<typeof communityContract>;

const operatorContract = communityContract.extend({ starter: z.boolean().default(false) });

type Created = UseCase<z.output<typeof communityContract>, void, Community, null>;

/** The rows of a new community; a taken slug is refused with `taken`. */
async function create(
  tx: Store,
  data: z.output<typeof communityContract>,
  taken: string,
): Promise<Community> {
  try {
    return await tx.communities.create(data);
  } catch (err) {
    if (err instanceof UniqueViolation) throw new DomainError('conflict', taken, { cause: err });
    throw err;
  }
}

const audit = (community: Community) => ({ targets: {}, communityId: community.id });

/** A signed-in person's community, where `allowed` (HAMLET_COMMUNITY_CREATION): they own it. */
export function communityCreateOwned(allowed: boolean): Created {
  return {
    name: 'community.create',
    contract: communityContract,
    guard: async ({ actor }) => {
      if (actor.kind !== 'person')
        throw new DomainError('unauthorized', 'Sign in to create a community.');
      if (!allowed)
        throw new DomainError(
          'forbidden',
          'On this Hamlet, communities are created by the operator (hamlet community create). Ask them for one.',
        );
    },
    load: async () => undefined,
    policy: async () => ({ mode: 'apply', reason: 'community_creation_open' }),
    apply: async ({ tx, actor }, data) => {
      const community = await create(
        tx,
        data,
        `A community with slug "${data.slug}" already exists. Choose another.`,
      );
      if (actor.kind === 'person')
        await tx.community(community.id).access.members.set(actor.personId, 'owner');
      await addStarterCategory(tx, community);
      return community;
    },
    audit,
  };
}

/** The operator's community (with `starter`: the starter category too). */
export const communityCreateByOperator: UseCase<
  z.output<typeof operatorContract>,
  void,
  Community,
  null
> = {
  name: 'community.create',
  contract: operatorContract,
  guard: async ({ actor }) => {
    if (actor.kind !== 'system')
      throw new DomainError(
        'forbidden',
        'Communities are created by the operator (hamlet community create).',
      );
  },
  load: async () => undefined,
  policy: async () => ({ mode: 'apply', reason: 'operator' }),
  apply: async ({ tx }, { starter, ...data }) => {
    const community = await create(
      tx,
      data,
      `A community with slug "${data.slug}" (or that custom domain) already exists. Choose another.`,
    );
    if (starter) await addStarterCategory(tx, community);
    return community;
  },
  audit,
};
