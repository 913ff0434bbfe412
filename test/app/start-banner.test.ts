// What `hamlet serve` says once it serves: on a terminal, lines for a person on stderr and no JSON
// start line; anywhere else, one JSON log line (msg "Hamlet is running") with the addresses, at any
// LOG_LEVEL but silent, naming the file of the demo's secrets and never the secrets themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/log.ts';
import { announceStart, type StartFacts } from '../../src/cli/start-banner.ts';
import { startLineOf } from '../helpers/serve.ts';

const facts: StartFacts = {
  url: 'http://localhost:8787',
  mcpNetwork: 'http://localhost:8787/api/mcp',
  mcpCommunity: 'http://localhost:8787/c/<slug>/api/mcp',
  pathForm: true,
  demo: {
    community: 'acme',
    key: 'hmlt_live_secretsecretsecretsecretsecret',
    newKey: true,
    admin: { email: 'admin@demo.test', password: 'pw-very-secret', fresh: false },
    file: 'data/demo-credentials.json',
    mcp: 'http://localhost:8787/c/acme/api/mcp',
    web: 'http://localhost:8787/c/acme/',
  },
};

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _e, done) {
      text += chunk;
      done();
    },
  });
  return { stream, text: () => text };
}

async function announce(level: string, stdoutIsTty: boolean) {
  const [log, stderr] = [sink(), sink()];
  announceStart(facts, createLogger(level, log.stream), { stdoutIsTty, stderr: stderr.stream });
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { log: log.text(), stderr: stderr.text() };
}

test('off a terminal: one JSON start line with the addresses, the secrets only by file', async () => {
  for (const level of ['info', 'warn', 'error']) {
    const { log, stderr } = await announce(level, false);
    assert.equal(stderr, '', 'no human lines');
    const lines = log.trim().split('\n');
    assert.equal(lines.length, 1, log);
    const start = startLineOf(log);
    assert.ok(start, log);
    assert.equal(JSON.parse(lines[0]!).level, 30, 'at info');
    assert.equal(start.url, 'http://localhost:8787');
    assert.equal(start.mcp_network, facts.mcpNetwork);
    assert.equal(start.mcp_community, facts.mcpCommunity);
    assert.equal(start.path_form, true);
    assert.deepEqual(start.demo, {
      community: 'acme',
      mcp: 'http://localhost:8787/c/acme/api/mcp',
      web: 'http://localhost:8787/c/acme/',
      signin: 'http://localhost:8787/c/acme/signin',
      agent_key: 'new',
      admin_email: 'admin@demo.test',
      admin_password: 'the same as before',
      credentials_file: 'data/demo-credentials.json',
    });
    assert.doesNotMatch(log, /hmlt_live_secret|pw-very-secret/);
  }
  assert.deepEqual(await announce('silent', false), { log: '', stderr: '' });
});

test('on a terminal: the lines for a person, the secrets with them, no JSON start line', async () => {
  const { log, stderr } = await announce('info', true);
  assert.equal(log, '');
  assert.match(stderr, /Hamlet is running with the demo community\./);
  assert.match(
    stderr,
    /MCP \(acme\): {3}http:\/\/localhost:8787\/c\/acme\/api\/mcp {3}\(path form/,
  );
  assert.match(
    stderr,
    /agent key: {4}hmlt_live_secret\S+ {3}\(acme's demo-agent; new, kept in data/,
  );
  assert.match(stderr, /e-mail admin@demo\.test {3}password pw-very-secret/);
});
