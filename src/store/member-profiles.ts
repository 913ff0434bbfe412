// What a person shows of themselves in one community (migration 0113_member_profiles): a short bio
// and a picture (an image uploaded to that community), each community's own, as each community is
// its own site. Their name is the account's, the same everywhere (PeopleRepository.setDisplayName).
// Reached through `store.community(id).memberProfiles`.
type Timestamp = string | Date;

export type MemberProfile = {
  personId: string;
  bio: string;
  /** The upload (of this community) shown as their picture; null: the generated initials. */
  avatarUploadId: string | null;
  updatedAt: string;
};

export interface MemberProfileRepository {
  get(personId: string): Promise<MemberProfile | undefined>;
  /** The profiles of these people here (those who have one), in one query. */
  many(personIds: readonly string[]): Promise<MemberProfile[]>;
  /** Sets the fields given (the others kept, or empty for a new profile); what is stored now. */
  set(
    personId: string,
    patch: { bio?: string; avatarUploadId?: string | null },
  ): Promise<MemberProfile>;
}

/** Kysely table types of 0113_member_profiles (see ./schema.ts for the conventions). */
export interface MemberProfileDatabase {
  member_profiles: {
    community_id: string;
    person_id: string;
    bio: string;
    avatar_upload_id: string | null;
    updated_at: Timestamp;
  };
}
