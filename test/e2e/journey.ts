// The agent journey any MCP client must be able to make on a community, whatever its protocol era:
// search → suggest_answer → create_topic queued for approval → a moderator approves → get_approval
// shows it applied → reply → mark_solution → search finds the accepted answer.
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Services } from '../../src/services.ts';
import type { Community } from '../../src/store/types.ts';

export type ToolCaller = (
  name: string,
  args: Record<string, unknown>,
) => Promise<{ structuredContent?: any; content?: any; isError?: boolean }>;

/** What one client asks and answers: distinct per client, so journeys on one server stay apart. */
export type Subject = { title: string; body: string; reply: string; query: string };

/** A moderator of `community`, signed in (the approvals happen as a person on the web would). */
export async function moderatorOf(services: Services, community: Community, email: string) {
  const system = systemActor('test');
  await services.accounts.createUser(system, {
    email,
    password: 'correct horse battery staple',
    name: 'Mo Derator',
  });
  await services.accounts.addMember(system, community, { email, role: 'moderator' });
  const session = await services.accounts.signIn({
    email,
    password: 'correct horse battery staple',
  });
  return (await services.accounts.resolveWebSession(session.token))!;
}

export async function runJourney(
  call: ToolCaller,
  services: Services,
  community: Community,
  moderator: Awaited<ReturnType<typeof moderatorOf>>,
  s: Subject,
): Promise<void> {
  // 1. search first, 2. ask for the accepted answer to a known question
  const found = await call('search_community', {
    query: 'run on PostgreSQL instead of SQLite',
    filters: { limit: 5 },
  });
  assert.equal(found.isError, false);
  assert.equal(
    found.structuredContent.results[0].title,
    'How do I run Hamlet on PostgreSQL instead of SQLite?',
  );
  const suggested = await call('suggest_answer', {
    question: 'how can several Hamlet instances share a postgres database?',
  });
  assert.ok(suggested.structuredContent.answers.some((a: { accepted: boolean }) => a.accepted));

  // 3. ask something new: this community queues new topics for approval; a retry is the same write
  const question = {
    category: 'support',
    title: s.title,
    body: s.body,
    idempotency_key: `journey-${s.query.replace(/\W+/g, '-')}`,
  };
  const asked = await call('create_topic', question);
  assert.equal(asked.isError, false, JSON.stringify(asked.structuredContent));
  assert.equal(asked.structuredContent.status, 'pending_approval');
  const approvalId = asked.structuredContent.approval_id;
  assert.equal((await call('create_topic', question)).structuredContent.approval_id, approvalId);
  assert.equal(
    (await call('get_approval', { approval_id: approvalId })).structuredContent.status,
    'pending',
  );

  // 4. a moderator approves; 5. the agent follows its queued write
  await services.approvals.approve(moderator, community, approvalId);
  const followed = await call('get_approval', { approval_id: approvalId });
  assert.equal(followed.structuredContent.status, 'applied');
  const topicId: string = followed.structuredContent.result.topic.id;
  assert.equal(followed.structuredContent.result.topic.title, s.title);

  // 6. reply and accept it
  const reply = await call('reply_to_topic', { topic: topicId, body: s.reply });
  assert.equal(reply.structuredContent.status, 'applied');
  const postId = reply.structuredContent.post.id;
  const marked = await call('mark_solution', { topic: topicId, post: postId });
  assert.equal(marked.structuredContent.topic.solution_post_id, postId);

  // 7. the next agent with the same problem finds the accepted answer
  const again = await call('search_community', { query: s.query, filters: { solved_only: true } });
  assert.ok(
    again.structuredContent.results.some(
      (r: { is_solution: boolean; source_id: string }) => r.is_solution && r.source_id === postId,
    ),
    JSON.stringify(again.structuredContent),
  );
}
