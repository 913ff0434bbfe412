// A community with a webhook endpoint and an agent key, prepared in a database before `hamlet serve`
// starts on it as a child process: what the tests that stop or kill a dispatching instance share.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { openHamlet } from '../../src/main.ts';
import { waitFor } from './receiver.ts';

export type HookedCommunity = { communityId: string; endpointId: string; key: string };

/** Creates community `slug` (category "support"), an endpoint for topic.created at `hookUrl`, an agent. */
export async function prepareHookedCommunity(
  env: Record<string, string>,
  slug: string,
  hookUrl: string,
): Promise<HookedCommunity> {
  const opened = await openHamlet(loadConfig(env));
  try {
    await opened.store.migrate();
    const system = systemActor('test');
    await opened.services.communities.create(system, { slug, name: slug, visibility: 'public' });
    const community = (await opened.store.communities.getBySlug(slug))!;
    await opened.services.categories.create(system, community, {
      slug: 'support',
      name: 'Support',
    });
    const hook = await opened.services.webhooks.create(system, community, {
      url: hookUrl,
      events: ['topic.created'],
    });
    const { key } = await opened.services.agents.create(system, community, {
      name: `${slug}-bot`,
      scopes: ['topic:create'],
    });
    return { communityId: community.id, endpointId: hook.endpoint.id, key };
  } finally {
    await opened.close();
  }
}

/** Starts `hamlet serve` with `env` (kept in `children` for the test's cleanup). */
export function startServe(env: Record<string, string>, children: ChildProcess[]): ChildProcess {
  const child = spawn(process.execPath, ['bin/hamlet.js', 'serve'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

/** Resolves once the server on `port` answers its heartbeat. */
export async function servingOn(port: number): Promise<void> {
  await waitFor(
    async () => (await fetch(`http://127.0.0.1:${port}/heartbeat`).catch(() => null))?.ok === true,
    20_000,
    'the server to answer',
  );
}
