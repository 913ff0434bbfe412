// The demo: a public community "acme" (categories, knowledge-base articles, Q&A, an agent's labelled
// reply, plus a bounded slice of a real mailing-list archive) and a private community "skunkworks".
// Created once: when "acme" exists, nothing is touched. `hamlet seed demo` and `serve --demo` call it.
// Every write goes through the write runner: the operator's as the system (the asker's questions
// carry her as their author), the helper agent's reply as that agent.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.ts';
import type { Services } from '../services.ts';
import type { Store } from '../store/repositories.ts';
import { UniqueViolation } from '../store/errors.ts';
import { systemActor, type Actor } from '../domain/actor.ts';
import { DomainError } from '../domain/errors.ts';
import { writeApplied } from '../domain/writes/applied.ts';
import { DEMO_ARTICLES, DEMO_GUIDELINES, DEMO_QUESTIONS } from './demo-content.ts';
import { importMail, type ImportDeps, type MailImportReport } from '../import/mail/importer.ts';
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

/** The services the demo writes through. */
export type DemoServices = Pick<
  Services,
  'communities' | 'content' | 'categories' | 'writes' | 'mcpConfig' | 'events'
>;

export async function ensureDemoCommunity(
  store: Store,
  services: DemoServices,
  config: Config,
): Promise<DemoResult> {
  if (await store.communities.getBySlug('acme'))
    return { created: false, reason: 'The demo community "acme" already exists.' };
  const system = systemActor('demo');
  const { communities, content, categories, writes } = services;
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
  await categories.create(system, acme, {
    slug: 'support',
    name: 'Support',
    description: 'Ask for help; accept the answer that solved it.',
  });
  await categories.create(system, acme, {
    slug: 'general',
    name: 'General',
    description: 'Everything else, including the mailing-list archive.',
  });
  await categories.create(system, acme, {
    slug: 'docs',
    name: 'Docs',
    kind: 'knowledge_base',
    description: 'How to use Hamlet, maintained as articles.',
  });

  for (const article of DEMO_ARTICLES) {
    await writeApplied(writes, system, acme, 'article.write', {
      category: 'docs',
      slug: article.slug,
      title: article.title,
      body: article.body,
      tags: [...article.tags],
    });
  }
  const helper = await agentActor(store, acme.id, 'acme-helper');
  const asker = await store.people.create({ displayName: 'Dana (demo)' });
  const author = { personId: asker.id, displayName: asker.displayName };
  let topics = 0;
  for (const q of DEMO_QUESTIONS) {
    const { topic } = await writeApplied(writes, system, acme, 'topic.create', {
      category: q.category,
      title: q.title,
      body: q.body,
      tags: [...q.tags],
      author,
    });
    topics++;
    if (q.answer) {
      const { post } = await writeApplied(writes, helper, acme, 'post.create', {
        topic: topic.id,
        body: q.answer,
      });
      if (q.solved)
        await writeApplied(writes, system, acme, 'solution.mark', {
          topic: topic.id,
          post: post.id,
        });
    }
  }

  const imported = await importDemoMail(store, { config, events: services.events });

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
    await categories.create(system, skunkworks, { slug: 'projects', name: 'Projects' });
    await writeApplied(writes, system, skunkworks, 'topic.create', {
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

/** The demo's replying agent (no key: it never calls in), granted the one scope it writes with. */
async function agentActor(store: Store, communityId: string, name: string): Promise<Actor> {
  const scope = store.community(communityId);
  const scopes = ['post:create'];
  let agent = await scope.agents.getByName(name);
  if (!agent) {
    try {
      agent = await scope.agents.create({ name });
      await scope.access.agents.setGrant(agent.id, { scopes, trusted: false });
    } catch (err) {
      if (!(err instanceof UniqueViolation)) throw err;
      agent = (await scope.agents.getByName(name))!;
    }
  }
  return { kind: 'agent', agentId: agent.id, communityId, name, scopes };
}

/** A bounded slice of the ham corpus: the first files of one group, conversations of 2+ messages. */
async function importDemoMail(store: Store, deps: ImportDeps): Promise<DemoImport> {
  const dirs = hamCorpusDirs();
  if (!dirs) return null; // production install without dev dependencies: the hand-written content is the demo
  const dir = dirs[0]!;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .slice(0, DEMO_MAIL_FILES)
    .map((f) => join(dir, f));
  const report = await importMail(store, deps, {
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
