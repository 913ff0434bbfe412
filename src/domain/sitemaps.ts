// What crawlers are given to find every public page, in files of at most `urlsPerFile` URLs (the
// sitemaps.org limit is 50,000): the network's public communities, and a public community's listed
// topics, each split by ordinal (migration 0112) so that file k is one index range and the number
// of files is read from one row. A request's cost follows its file, never the number of
// communities or topics. Only public content: a private community has no sitemap, whoever asks;
// a topic whose question is hidden is left out as its listings leave it out.
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { communityNotFound, requireRead } from './authorization.ts';
import { DomainError } from './errors.ts';
import { shownTopics } from './moderation/hidden.ts';
import { communityOrigin, topicUrl, type UrlConfig } from './urls.ts';

/** URLs per sitemap file at most (sitemaps.org: 50,000). */
export const SITEMAP_URLS_PER_FILE = 50_000;

/** Topics whose hidden questions are looked up at once (a bounded list of ids per query). */
const HIDDEN_CHECK_BATCH = 1_000;

/** A page a sitemap lists: its canonical URL and when it last changed. */
export type SitemapEntry = { url: string; updatedAt: string };

/** One file of a sitemap, and how many files the sitemap has. */
export type SitemapFile = { files: number; entries: SitemapEntry[] };

export class SitemapService {
  constructor(
    private readonly store: Store,
    private readonly config: UrlConfig,
    /** URLs per file; smaller in tests, so that paging shows without 50,000 rows. */
    readonly urlsPerFile = SITEMAP_URLS_PER_FILE,
  ) {}

  /** How many files list the public communities (0 when there is no community). */
  async networkFiles(): Promise<number> {
    return Math.ceil((await this.store.communities.lastOrdinal()) / this.urlsPerFile);
  }

  /** File `file` (1, 2, …) of the public communities: each one's home page and last change. */
  async networkFile(file: number): Promise<SitemapFile> {
    const files = await this.networkFiles();
    this.requireFile(file, files);
    const [after, through] = this.range(file);
    const listed = await this.store.communities.publicByOrdinal(after, through);
    return {
      files,
      entries: listed.map((c) => ({
        url: communityOrigin(this.config, { slug: c.slug, customDomain: c.customDomain }),
        updatedAt: c.updatedAt,
      })),
    };
  }

  /** How many files list the topics of a public community (0 when it has none). */
  async communityFiles(actor: Actor, community: Community): Promise<number> {
    this.requirePublic(actor, community);
    const last = await this.store.community(community.id).topics.lastOrdinal();
    return Math.ceil(last / this.urlsPerFile);
  }

  /** File `file` (1, 2, …) of a public community's listed topics, as `actor` may see them. */
  async communityFile(actor: Actor, community: Community, file: number): Promise<SitemapFile> {
    const files = await this.communityFiles(actor, community);
    this.requireFile(file, files);
    const [after, through] = this.range(file);
    const listed = await this.store.community(community.id).topics.listedByOrdinal(after, through);
    const entries: SitemapEntry[] = [];
    for (let i = 0; i < listed.length; i += HIDDEN_CHECK_BATCH) {
      const batch = listed.slice(i, i + HIDDEN_CHECK_BATCH);
      for (const t of await shownTopics(this.store, actor, community, batch))
        entries.push({ url: topicUrl(this.config, community, t.slug), updatedAt: t.updatedAt });
    }
    return { files, entries };
  }

  private range(file: number): [number, number] {
    return [(file - 1) * this.urlsPerFile, file * this.urlsPerFile];
  }

  private requireFile(file: number, files: number): void {
    if (!Number.isInteger(file) || file < 1 || file > files)
      throw new DomainError(
        'not_found',
        `There is no sitemap file ${file}: there ${files === 1 ? 'is 1' : `are ${files}`}, listed in /sitemap.xml.`,
      );
  }

  /** Sitemaps list public content only: a private community has none, whoever asks. */
  private requirePublic(actor: Actor, community: Community): void {
    requireRead(actor, community);
    if (community.visibility !== 'public') throw communityNotFound(community.slug);
  }
}
