// suggest_answer: a question's search results turned into the best accepted answers (a topic's
// accepted answer stands in for the topic), with a confidence and a plain statement of what was
// found, or of what to do when nothing fits.
import type { Store, TopicHeader } from '../store/repositories.ts';
import type { Community, Post } from '../store/types.ts';
import { DomainError } from '../domain/errors.ts';
import { LIMITS } from '../domain/fields.ts';
import { topicUrl } from '../domain/urls.ts';
import { parseQuery, queryWords, STOP_WORDS, type ParsedQuery } from './query.ts';
import { authorName, normalizeScore, round4, toResult, type UrlConfig } from './results.ts';
import type { SearchIndex } from './index.ts';
import { frequenciesOf, type Lexicon } from './lexicon.ts';
import { withoutHidden } from '../domain/moderation/hidden.ts';
import { coverage, makeSnippet, plainText } from './snippet.ts';
import type { SearchResponse, SearchResult, SuggestResponse } from './types.ts';
import { NO_SIGNALS } from '../store/votes.ts';
import { shownSignals } from './signals.ts';

/** The question and limit of a suggest_answer call, or invalid_argument saying what to fix. */
export function checkSuggestion(question: string, limit: number): void {
  if (typeof question !== 'string' || !question.trim()) {
    throw new DomainError(
      'invalid_argument',
      'question must not be empty: pass the question as you would ask it.',
    );
  }
  const length = question.trim().length;
  if (length < LIMITS.question.min || length > LIMITS.question.max) {
    throw new DomainError(
      'invalid_argument',
      `question: must be ${LIMITS.question.min}-${LIMITS.question.max} characters.`,
    );
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > 10) {
    throw new DomainError(
      'invalid_argument',
      'limit must be a whole number between 1 and 10 (default 3).',
    );
  }
}

export type Suggesting = {
  store: Store;
  urls: UrlConfig;
  /** The communities the results are in (the ones searched, or for the network those found). */
  communities: Community[];
  /** The search spanned the network: its results name their communities, even when all are one's. */
  named?: boolean;
  question: string;
  limit: number;
  /** The operation the message tells the caller to ask with. */
  askWith: string;
  /** Each answer's votes and reports (default true; a check that only wants the answers skips them). */
  signals?: boolean;
};

/** The answers among `found` (the question's search, with the query as it was searched). */
export async function suggestFrom(
  s: Suggesting,
  found: SearchResponse,
  parsed: ParsedQuery,
): Promise<SuggestResponse> {
  const { store, urls, communities, named, question, limit, askWith } = s;
  const qWords = queryWords(parsed);
  const weight = (w: string) => (STOP_WORDS.has(w) ? 0.2 : Math.min(3, 0.5 + w.length / 4));
  const slugToCommunity = new Map(communities.map((c) => [c.slug, c]));
  const single = communities.length === 1 && !named ? communities[0] : undefined;

  type Answer = SearchResult & { accepted: boolean };
  const accepted: { answer: Answer; fit: number }[] = [];
  const others: { answer: Answer; fit: number }[] = [];
  // Each community's topics, then the accepted answers that are not the results themselves: a
  // statement each (per community), not one per result.
  const communityOf = (r: { community?: string }) =>
    single ?? slugToCommunity.get(r.community ?? '');
  const headers = new Map<string, TopicHeader>();
  const solutions = new Map<string, Post>();
  for (const community of single ? [single] : communities) {
    const mine = found.results.filter((r) => communityOf(r) === community);
    if (mine.length === 0) continue;
    const scope = store.community(community.id);
    const got = await scope.topics.headers(mine.map((r) => r.topic_id));
    for (const [id, h] of got) headers.set(id, h);
    const wanted = mine.flatMap((r) => {
      const sol = got.get(r.topic_id)?.solutionPostId;
      return sol && !r.is_solution ? [sol] : [];
    });
    for (const [id, p] of await scope.posts.getByIds(wanted)) solutions.set(id, p);
  }
  for (const r of found.results) {
    const community = communityOf(r);
    const topic = headers.get(r.topic_id);
    if (!community || !topic) continue;
    const questionText = `${topic.title} ${r.source_type === 'post' ? '' : r.snippet}`;
    if (topic.solutionPostId) {
      const post = r.is_solution ? undefined : solutions.get(topic.solutionPostId);
      const text = post ? plainText(post.body) : '';
      const answer: Answer = post
        ? {
            ...r,
            source_type: 'post',
            source_id: post.id,
            snippet: makeSnippet(text, qWords),
            url: topicUrl(urls, community, topic.slug, post.id),
            author: authorName(post.author),
            is_solution: true,
            created_at: post.createdAt,
            accepted: true,
          }
        : { ...r, accepted: true };
      accepted.push({
        answer,
        fit: coverage(`${questionText} ${r.snippet} ${text}`, qWords, weight),
      });
    } else {
      others.push({
        answer: { ...r, accepted: false },
        fit: coverage(`${questionText} ${r.snippet}`, qWords, weight),
      });
    }
  }
  const chosen = (accepted.length ? accepted : others).slice(0, limit);
  const top = chosen[0];
  const confidence = top
    ? round4(
        Math.min(1, (0.55 * top.fit + 0.45 * top.answer.score) * (top.answer.accepted ? 1 : 0.6)),
      )
    : 0;
  const where = single ? `"${single.slug}"` : 'the searched communities';
  let message: string;
  if (!top) {
    message = `Nothing in ${where} matches this question. Ask it with ${askWith} so people and agents there can answer it.`;
  } else if (!top.answer.accepted) {
    message = `No accepted answer matches this question in ${where}; these are the closest posts, none marked as a solution. If they do not answer it, ask with ${askWith}.`;
  } else if (confidence < 0.35) {
    message = `These accepted answers match the question only loosely. If none of them fits, ask with ${askWith}.`;
  } else {
    message = `Found ${chosen.length} accepted answer${chosen.length === 1 ? '' : 's'} that match this question; the first is the closest.`;
  }
  // An answer that is a post shows its own votes and reports; a topic or article (no accepted
  // answer) shows its first post's votes and the reports on the thread's answers. Read per
  // community: the posts' and first posts' signals, and the threads', a statement each.
  const shownOf = new Map<Answer, ReturnType<typeof shownSignals>>();
  for (const community of s.signals === false ? [] : single ? [single] : communities) {
    const mine = chosen.map((c) => c.answer).filter((a) => communityOf(a) === community);
    if (mine.length === 0) continue;
    const scope = store.community(community.id);
    const threads = mine.filter((a) => a.source_type !== 'post').map((a) => a.topic_id);
    const firsts = await scope.posts.firstOf(threads);
    const postIds = [
      ...mine.filter((a) => a.source_type === 'post').map((a) => a.source_id),
      ...[...firsts.values()].map((p) => p.id),
    ];
    const own = await scope.votes.signals(postIds);
    const threadSignals = threads.length ? await scope.votes.topicSignals(threads) : new Map();
    for (const a of mine) {
      if (a.source_type === 'post') {
        const s = own.get(a.source_id) ?? NO_SIGNALS;
        shownOf.set(a, shownSignals(s, s));
      } else {
        const first = firsts.get(a.topic_id);
        shownOf.set(
          a,
          shownSignals(
            (first && own.get(first.id)) || NO_SIGNALS,
            threadSignals.get(a.topic_id) ?? NO_SIGNALS,
          ),
        );
      }
    }
  }
  const answers = chosen.map(({ answer }) => ({
    ...answer,
    ...(shownOf.get(answer) ?? shownSignals(NO_SIGNALS, NO_SIGNALS)),
  }));
  return { question, confidence, answers, message };
}

/**
 * The solved topics of `community` that answer `question` most closely, as suggest_answer would
 * show them but from the engine's ranking of solved topics alone (no re-ranked head, typo
 * expansion or signals): the check before a new question is posted, in a handful of statements.
 */
export async function closeSolved(
  deps: {
    store: Store;
    urls: UrlConfig;
    index: SearchIndex;
    lexicon: Lexicon;
    halfPoint: number;
  },
  community: Community,
  question: string,
  limit: number,
): Promise<SuggestResponse> {
  checkSuggestion(question, limit);
  const { store, urls, index, lexicon, halfPoint } = deps;
  const parsed = parseQuery(question);
  const ids = [community.id];
  const { hits } = await index.search({
    scope: { kind: 'communities', ids },
    query: parsed,
    filters: { solvedOnly: true },
    frequencies: frequenciesOf(lexicon.learned(ids), ids),
    limit: 10,
  });
  const found = hits.map((h) =>
    toResult(urls, h, community, false, parsed, normalizeScore(h.raw, halfPoint)),
  );
  const results = await withoutHidden(store, [community], found);
  return suggestFrom(
    {
      store,
      urls,
      communities: [community],
      question,
      limit,
      askWith: 'create_topic',
      signals: false,
    },
    { query: question, mode: 'lexical', total: results.length, results },
    parsed,
  );
}
