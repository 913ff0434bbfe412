// The demo: a public community "acme" (categories, knowledge-base articles, Q&A, an agent's labelled
// reply, plus a bounded slice of a real mailing-list archive) and a private community "skunkworks".
// Created once: when "acme" exists, nothing is touched. `hamlet seed demo` and `serve --demo` call it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/repositories.ts';
import { UniqueViolation } from '../store/errors.ts';
import { systemActor, type Actor } from '../domain/actor.ts';
import type { CommunityService } from '../domain/communities.ts';
import type { CommunityMcpService } from '../domain/community-mcp.ts';
import type { ContentService } from '../domain/content.ts';
import { DomainError } from '../domain/errors.ts';
import { DEMO_ARTICLES, DEMO_GUIDELINES, DEMO_QUESTIONS } from './demo-content.ts';
import { importMail, type MailImportReport } from '../import/mail/importer.ts';
import { hamCorpusDirs } from '../import/ham-corpus.ts';
import type { Thread } from '../import/mail/thread.ts';

export type DemoImport = Pick<
  MailImportReport,
  'messages' | 'threads' | 'topicsCreated' | 'postsCreated'
> | null;

export type DemoResult =
  | { created: false; reason: string }
  | {
      created: true;
      communities: { slug: string; visibility: 'public' | 'private' }[];
      topics: number;
      articles: number;
      imported: DemoImport;
    };

/** How much of the mail archive the demo takes: enough to browse, small enough to start fast. */
const DEMO_MAIL_FILES = 500;
const DEMO_MAIL_THREADS = 40;

export async function ensureDemoCommunity(
  store: Store,
  services: {
    communities: CommunityService;
    content: ContentService;
    mcpConfig: CommunityMcpService;
  },
): Promise<DemoResult> {
  if (await store.communities.getBySlug('acme'))
    return { created: false, reason: 'The demo community "acme" already exists.' };
  const system = systemActor('demo');
  const { communities, content } = services;
  try {
    await communities.create(system, {
      slug: 'acme',
      name: 'Acme',
      description:
        'The Acme forum: questions, answers and docs about Acme products and running Hamlet.',
      guidelines: DEMO_GUIDELINES,
    });
  } catch (err) {
    // Another instance started with --demo at the same moment and won.
    if (err instanceof DomainError && err.code === 'conflict')
      return { created: false, reason: 'The demo community "acme" already exists.' };
    throw err;
  }
  const acme = await communities.require(system, 'acme');
  // The demo shows every tool: the feedback and moderation toolsets are on beside the default nine.
  await services.mcpConfig.set(system, acme, { toolsets: ['feedback', 'moderation'] });
  await content.createCategory(system, acme, {
    slug: 'support',
    name: 'Support',
    description: 'Ask for help; accept the answer that solved it.',
  });
  await content.createCategory(system, acme, {
    slug: 'general',
    name: 'General',
    description: 'Everything else, including the mailing-list archive.',
  });
  await content.createCategory(system, acme, {
    slug: 'docs',
    name: 'Docs',
    kind: 'knowledge_base',
    description: 'How to use Hamlet, maintained as articles.',
  });

  for (const article of DEMO_ARTICLES) {
    await content.upsertArticle(system, acme, {
      category: 'docs',
      slug: article.slug,
      title: article.title,
      body: article.body,
      tags: [...article.tags],
    });
  }
  const helper = await agentActor(store, acme.id, 'acme-helper');
  const asker = await store.people.create({ displayName: 'Dana (demo)' });
  const person: Actor = { kind: 'person', personId: asker.id, displayName: asker.displayName };
  let topics = 0;
  for (const q of DEMO_QUESTIONS) {
    const { topic } = await content.createTopic(person, acme, {
      category: q.category,
      title: q.title,
      body: q.body,
      tags: [...q.tags],
    });
    topics++;
    if (q.answer) {
      const reply = await content.reply(helper, acme, { topic: topic.id, body: q.answer });
      if (q.solved) await content.markSolution(person, acme, { topic: topic.id, post: reply.id });
    }
  }

  const imported = await importDemoMail(store, content);

  await communities
    .create(system, {
      slug: 'skunkworks',
      name: 'Skunkworks',
      description: 'A private team space: visible to its members and its own agents only.',
      visibility: 'private',
    })
    .catch((err: unknown) => {
      if (!(err instanceof DomainError && err.code === 'conflict')) throw err;
    });
  const skunkworks = await communities.require(system, 'skunkworks');
  if ((await content.listCategories(system, skunkworks)).length === 0) {
    await content.createCategory(system, skunkworks, { slug: 'projects', name: 'Projects' });
    await content.createTopic(system, skunkworks, {
      category: 'projects',
      title: 'Project Falcon: launch checklist',
      body: 'Internal only. Nothing here is visible from the network.',
    });
    topics++;
  }

  return {
    created: true,
    communities: [
      { slug: 'acme', visibility: 'public' },
      { slug: 'skunkworks', visibility: 'private' },
    ],
    topics: topics + (imported?.topicsCreated ?? 0),
    articles: DEMO_ARTICLES.length,
    imported,
  };
}

async function agentActor(store: Store, communityId: string, name: string): Promise<Actor> {
  const scope = store.community(communityId);
  let agent = await scope.agents.getByName(name);
  if (!agent) {
    try {
      agent = await scope.agents.create({ name });
    } catch (err) {
      if (!(err instanceof UniqueViolation)) throw err;
      agent = (await scope.agents.getByName(name))!;
    }
  }
  return { kind: 'agent', agentId: agent.id, communityId, name };
}

/** A bounded slice of the ham corpus: the first files of one group, conversations of 2+ messages. */
async function importDemoMail(store: Store, content: ContentService): Promise<DemoImport> {
  const dirs = hamCorpusDirs();
  if (!dirs) return null; // production install without dev dependencies: the hand-written content is the demo
  const dir = dirs[0]!;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .slice(0, DEMO_MAIL_FILES)
    .map((f) => join(dir, f));
  const report = await importMail(store, content, {
    communitySlug: 'acme',
    categorySlug: 'general',
    paths: files,
    selectThreads: (threads: Thread[]) =>
      threads.filter((t) => t.messages.length >= 2).slice(0, DEMO_MAIL_THREADS),
  });
  return {
    messages: report.messages,
    threads: report.threads,
    topicsCreated: report.topicsCreated,
    postsCreated: report.postsCreated,
  };
}
