// The drafts repository of one community (migration 0095_drafts): a person's unsent text per place.
type Timestamp = string | Date;

/** Where a draft belongs: a reply to one topic ("topic:<id>"), or a new topic or article ("new"). */
export type DraftPlace = `topic:${string}` | 'new';

export type Draft = {
  personId: string;
  place: DraftPlace;
  title: string;
  body: string;
  updatedAt: string;
};

export interface DraftRepository {
  get(personId: string, place: DraftPlace): Promise<Draft | undefined>;
  /** Keeps the text (replacing the draft of that place); returns what is stored. */
  save(personId: string, place: DraftPlace, text: { title: string; body: string }): Promise<Draft>;
  /** Deletes the draft of that place; whether there was one. */
  discard(personId: string, place: DraftPlace): Promise<boolean>;
}

/** Kysely table types of 0095_drafts (see ./schema.ts for the conventions). */
export interface DraftDatabase {
  drafts: {
    community_id: string;
    person_id: string;
    place: string;
    title: string;
    body: string;
    updated_at: Timestamp;
  };
}
