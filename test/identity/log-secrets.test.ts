// Sign-in, key minting and authentication failures write logs; none of them may carry a key, a
// password, a password hash or a session token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/log.ts';
import { openDatabase } from '../../src/store/open.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { createServices } from '../../src/services.ts';
import { createSearchIndex } from '../../src/search/engine.ts';

test('identity logs carry no secrets', async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const config = loadConfig({});
  const { store, db, dialect } = await openDatabase('sqlite::memory:');
  try {
    const ids = createServices({
      store,
      searchIndex: createSearchIndex(db, dialect),
      config,
      logger,
    });
    const system = systemActor('test');
    await ids.communities.create(system, { slug: 'acme', name: 'Acme' });
    await ids.communities.create(system, { slug: 'beta', name: 'Beta' });
    const acme = (await store.communities.getBySlug('acme'))!;
    const beta = (await store.communities.getBySlug('beta'))!;

    const password = 'Sup3r-secret-passphrase';
    const person = await ids.accounts.createUser(system, { email: 'ada@example.org', password });
    const session = await ids.accounts.signIn({ email: 'ada@example.org', password });
    await ids.accounts
      .signIn({ email: 'ada@example.org', password: 'Wr0ng-passphrase!' })
      .catch(() => undefined);
    await ids.accounts.signIn({ email: 'nobody@example.org', password }).catch(() => undefined);
    const agent = await ids.agents.create(system, acme, { name: 'bot', scopes: ['topic:create'] });
    const extra = await ids.agents.mintKey(system, acme, { agent: 'bot' });
    const userKey = await ids.accounts.mintUserKey(system, { email: 'ada@example.org' });
    await ids.auth.authenticateAgentKey(beta.id, agent.key).catch(() => undefined);
    await ids.auth.authenticateAgentKey(acme.id, userKey.key).catch(() => undefined);
    await ids.auth
      .authenticateAgentKey(acme.id, `hmlt_live_${'Z'.repeat(40)}`)
      .catch(() => undefined);
    await ids.agents.revokeKey(system, acme, { key: extra.key });
    await ids.auth.authenticateAgentKey(acme.id, extra.key).catch(() => undefined);
    await ids.auth.authenticateUserKey(agent.key).catch(() => undefined);
    logger.info(
      {
        req: {
          headers: {
            authorization: `Bearer ${agent.key}`,
            cookie: `hamlet_session=${session.token}`,
          },
        },
        password,
        key: userKey.key,
      },
      'careless log',
    );

    const output = lines.join('');
    assert.ok(lines.length >= 8, `expected identity events in the log, got ${lines.length}`);
    for (const expected of [
      'signin.ok',
      'signin.failed',
      'agent.created',
      'agent_key.minted',
      'user_key.minted',
      'auth.refused',
      'agent_key.revoked',
    ]) {
      assert.ok(output.includes(expected), `log has ${expected}`);
    }
    const hash = (await store.identity.credentials.getPasswordHash(person.id))!;
    const secrets = {
      password,
      wrongPassword: 'Wr0ng-passphrase!',
      hash,
      hashPart: hash.split('$')[5]!,
      session: session.token,
      csrf: session.csrfToken,
      agentKey: agent.key,
      agentSecretPart: agent.key.slice(14),
      extraKey: extra.key.slice(14),
      userKey: userKey.key.slice(14),
    };
    for (const [name, secret] of Object.entries(secrets))
      assert.ok(!output.includes(secret), `the log leaks ${name}`);
    assert.ok(
      output.includes(agent.keyRecord.prefix),
      'key prefixes (not secret) are logged to tell keys apart',
    );
  } finally {
    await store.close();
  }
});
