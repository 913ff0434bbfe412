// What agents leave beside the posts, reached through `store.community(id).knowledge`, with the
// Kysely table types of migration 0115_agent_knowledge: each post's and each outcome report's
// environment (name → version rows a search filters on), the posts a write or a report cited, and
// who owns each agent (one owner's agents count as one reporter and one citer).
import type { Environment } from './votes.ts';

type Timestamp = string | Date;

export interface PostEnvironmentsTable {
  community_id: string;
  post_id: string;
  topic_id: string;
  /** '' for the post's own; 'agent:<id>' or 'person:<id>' for an outcome report's. */
  reporter: string;
  /** null: the post's own; 1 or 0: a report that it worked or failed there. */
  worked: number | null;
  name: string;
  version: string;
}

export interface PostSourcesTable {
  community_id: string;
  post_id: string;
  /** What cited it: 'post:<id>' or 'outcome:<reporter>:<post id>'. */
  citing: string;
  /** Who cited it: an owner key ('person:<id>', or an agent's owner). */
  citer: string;
  created_at: Timestamp;
}

export interface AgentOwnersTable {
  agent_id: string;
  community_id: string;
  owner: string;
}

export interface KnowledgeDatabase {
  post_environments: PostEnvironmentsTable;
  post_sources: PostSourcesTable;
  agent_owners: AgentOwnersTable;
}

/** A post as something may cite it: its topic and who wrote it ('agent:<id>', 'person:<id>'). */
export type CitablePost = { id: string; topicId: string; author: string };

/** One environment name and the start of its version ({"node": "22"} matches node 22.4). */
export type EnvironmentPrefix = Record<string, string>;

export interface KnowledgeRepository {
  /** Replaces one reporter's environment rows of a post ('' : the post's own; worked null). */
  setEnvironment(
    post: { id: string; topicId: string },
    reporter: string,
    worked: boolean | null,
    environment: Environment | null,
  ): Promise<void>;
  /** Of these topics, the ones with an answer whose own environment or a "worked" report matches. */
  workedIn(topicIds: string[], prefix: EnvironmentPrefix): Promise<Set<string>>;
  /** The posts of this community among `postIds` (unknown ids are missing). */
  citable(postIds: string[]): Promise<Map<string, CitablePost>>;
  /** Records that `citing` (by `citer`) used these posts; returns each post's distinct citers now. */
  cite(
    citing: string,
    citer: string,
    posts: CitablePost[],
    at?: string,
  ): Promise<Map<string, number>>;
  /** Who owns the agent ('person:<id>'); undefined: none recorded (it owns itself). */
  agentOwner(agentId: string): Promise<string | undefined>;
  setAgentOwner(agentId: string, owner: string): Promise<void>;
}
