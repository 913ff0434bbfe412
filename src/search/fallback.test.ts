// The embedder's health as the log shows it: one warning when it starts failing, then one summary
// per minute at most however many searches fall back, the endpoint left alone between retries, one
// line when it answers again; URLs in the reason lose credentials and query.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EmbedderHealth, EmbedderUnavailable } from './fallback.ts';

function recorder() {
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const log = {
    warn: (fields: Record<string, unknown>, msg: string) =>
      lines.push({ level: 'warn', fields, msg }),
    info: (fields: Record<string, unknown>, msg: string) =>
      lines.push({ level: 'info', fields, msg }),
  };
  return { lines, log: log as unknown as ConstructorParameters<typeof EmbedderHealth>[0] };
}

test('a failing endpoint: one warning, then at most one summary a minute, then one recovery line', () => {
  let now = 1_000_000;
  const { lines, log } = recorder();
  const health = new EmbedderHealth(log, () => now);
  assert.equal(health.available(), true);
  const refused = new TypeError('fetch failed', {
    cause: new Error('connect ECONNREFUSED 127.0.0.1:9'),
  });
  health.failed(new EmbedderUnavailable(refused));
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.level, 'warn');
  assert.match(lines[0]!.msg, /run lexically/);
  assert.equal(lines[0]!.fields.reason, 'fetch failed: connect ECONNREFUSED 127.0.0.1:9');

  // Within the retry pause searches do not try the endpoint; 500 searches, no new line.
  assert.equal(health.available(), false);
  for (let i = 0; i < 500; i++) {
    now += 10;
    if (health.available()) health.failed(refused);
    else health.skipped();
  }
  assert.equal(lines.length, 1, 'no line per search');
  now += 60_000;
  assert.equal(health.available(), true, 'tried again after the pause');
  health.failed(refused);
  assert.equal(lines.length, 2);
  assert.match(lines[1]!.msg, /still fails/);
  assert.equal(lines[1]!.fields.lexicalFallbacks, 501);

  now += 20_000;
  health.succeeded();
  assert.equal(lines.length, 3);
  assert.equal(lines[2]!.level, 'info');
  assert.equal(lines[2]!.fields.lexicalFallbacks, 502);
  health.succeeded();
  assert.equal(lines.length, 3, 'a healthy endpoint logs nothing');
});

test('the reason never carries the URL credentials or query', () => {
  const { lines, log } = recorder();
  const health = new EmbedderHealth(log);
  health.failed(
    new Error(
      'embeddings endpoint https://user:pw@embed.example/v1/embeddings?key=sk-1 answered 500',
    ),
  );
  assert.equal(
    lines[0]!.fields.reason,
    'embeddings endpoint https://embed.example/v1/embeddings answered 500',
  );
});
